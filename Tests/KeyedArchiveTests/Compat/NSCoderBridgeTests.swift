import Foundation
import Testing
@testable import KeyedArchive

// The NSCoder that runs NSCoding classes inside ArchiveEncoder and ArchiveDecoder (issue 51,
// items 1, 3 and 4): every keyed primitive, the per-call class lists, secure coding's
// answers, booleans against Int8 numbers, and the class names NSKeyedArchiver writes.
// NSCoding classes are top-level: Foundation on Linux archives only top-level classes.

/// Every keyed primitive of NSCoder.h, written and read back.
final class BridgePrimitives: NSObject, NSCoding {
    var flag = true, integer = -7, int32: Int32 = 32, cInt: Int32 = -3, int64: Int64 = 1 << 40
    var float: Float = 1.5, double = 2.25, bytes: [UInt8] = [1, 2, 3], text = "text"
    var plist: [String: Int] = ["one": 1]
    /// What the decoding coder answered, for the tests to look at.
    var sawSecureCoding = false, sawAllowed: Int?

    override init() {}

    func encode(with coder: NSCoder) {
        coder.encode(flag, forKey: "flag")
        coder.encode(integer, forKey: "integer")
        coder.encode(int32, forKey: "int32")
        coder.encode(cInt, forKey: "cInt")
        coder.encode(int64, forKey: "int64")
        coder.encode(float, forKey: "float")
        coder.encode(double, forKey: "double")
        coder.encodeBytes(bytes, length: bytes.count, forKey: "bytes")
        coder.encode(text, forKey: "text")
        coder.encode(plist as NSDictionary, forKey: "plist")
    }

    required init?(coder: NSCoder) {
        flag = coder.decodeBool(forKey: "flag")
        integer = coder.decodeInteger(forKey: "integer")
        int32 = coder.decodeInt32(forKey: "int32")
        #if canImport(ObjectiveC)
        cInt = coder.decodeCInt(forKey: "cInt")
        #else
        // swift-corelibs-foundation's NSKeyedUnarchiver traps on decodeCInt (not implemented).
        cInt = coder is NSKeyedUnarchiver ? coder.decodeInt32(forKey: "cInt") : coder.decodeCInt(forKey: "cInt")
        #endif
        int64 = coder.decodeInt64(forKey: "int64")
        float = coder.decodeFloat(forKey: "float")
        double = coder.decodeDouble(forKey: "double")
        #if canImport(ObjectiveC)
        var length = 0
        if let pointer = coder.decodeBytes(forKey: "bytes", returnedLength: &length) {
            bytes = Array(UnsafeBufferPointer(start: pointer, count: length))
        }
        #else
        bytes = coder.withDecodedUnsafeBytes(forKey: "bytes") { $0.map(Array.init) } ?? []
        #endif
        text = coder.decodeObject(of: [NSString.self], forKey: "text") as? String ?? ""
        plist = coder.decodePropertyList(forKey: "plist") as? [String: Int] ?? [:]
        sawSecureCoding = coder.requiresSecureCoding
        sawAllowed = coder.allowedClasses?.count
    }

    func sameFields(as other: BridgePrimitives) -> Bool {
        flag == other.flag && integer == other.integer && int32 == other.int32 && cInt == other.cInt
            && int64 == other.int64 && float == other.float && double == other.double && bytes == other.bytes
            && text == other.text && plist == other.plist
    }
}

/// Asks for a property list where an object of its own class is stored.
final class BridgePlistReader: NSObject, NSCoding {
    override init() {}
    func encode(with coder: NSCoder) { coder.encode(BridgeNumbers(), forKey: "plist") }
    required init?(coder: NSCoder) { _ = coder.decodePropertyList(forKey: "plist") }
}

/// Stores an Int8 and a Bool as NSNumbers.
final class BridgeNumbers: NSObject, NSCoding {
    override init() {}
    func encode(with coder: NSCoder) {
        coder.encode(NSNumber(value: Int8(5)), forKey: "small")
        coder.encode(NSNumber(value: true), forKey: "flag")
    }
    required init?(coder: NSCoder) {}
}

/// Archives as another class, as `classForKeyedArchiver` lets a class cluster do.
final class BridgeStandIn: NSObject, NSCoding {
    override init() {}
    override var classForKeyedArchiver: AnyClass? { BridgePrimitives.self }
    func encode(with coder: NSCoder) { BridgePrimitives().encode(with: coder) }
    required init?(coder: NSCoder) {}
}

/// A class nested in a type: Darwin's NSKeyedArchiver names it `_TtC…`.
enum BridgeNest {
    final class Inner: NSObject, NSCoding {
        var value = 0
        override init() {}
        func encode(with coder: NSCoder) { coder.encode(value, forKey: "value") }
        required init?(coder: NSCoder) { value = coder.decodeInteger(forKey: "value") }
    }
}

/// The `$objects` table of an archive.
private func archivedObjects(_ data: Data) throws -> [PropertyListValue] {
    guard case .array(let objects)? = try PropertyListValue(propertyList: data)["$objects"] else {
        throw FoundationUnarchiveError(description: "no $objects array")
    }
    return objects
}

@Suite("The NSCoder bridge")
struct NSCoderBridgeTests {
    private func decoder(allowing classes: [AnyClass]) -> ArchiveDecoder {
        let decoder = ArchiveDecoder()
        decoder.allowedClasses = classes
        return decoder
    }

    @Test("every keyed primitive round-trips through ArchiveEncoder and ArchiveDecoder")
    func primitivesRoundTrip() throws {
        let original = BridgePrimitives()
        original.flag = false
        original.bytes = [0, 255, 7]
        let data = try ArchiveEncoder().encode(NSCodingObject(wrappedValue: original))
        let back = try decoder(allowing: [BridgePrimitives.self]).decode(NSCodingObject<BridgePrimitives>.self, from: data).wrappedValue
        #expect(back.sameFields(as: original))
        // A decoding coder answers as a secure one, listing the decoder's allowed classes.
        #expect(back.sawSecureCoding)
        #expect(back.sawAllowed == 1)
    }

    @Test("Foundation reads the primitives we write, and we read Foundation's")
    func primitivesWithFoundation() throws {
        let original = BridgePrimitives()
        original.text = "from us"
        let ours = try ArchiveEncoder().encode(NSCodingObject(wrappedValue: original))
        let read = try foundationUnarchive(ours, classes: ["KeyedArchiveTests.BridgePrimitives": BridgePrimitives.self]) as? BridgePrimitives
        #expect(read?.sameFields(as: original) == true)
        original.text = "from Foundation"
        let theirs = foundationArchive(original)
        let back = try decoder(allowing: [BridgePrimitives.self]).decode(NSCodingObject<BridgePrimitives>.self, from: theirs).wrappedValue
        #expect(back.sameFields(as: original))
    }

    @Test("decodePropertyList(forKey:) refuses an object that is not a property list")
    func propertyListOnly() throws {
        let data = try ArchiveEncoder().encode(NSCodingObject(wrappedValue: BridgePlistReader()))
        let decoder = decoder(allowing: [BridgePlistReader.self, BridgeNumbers.self])
        #expect(throws: DecodingError.self) {
            _ = try decoder.decode(NSCodingObject<BridgePlistReader>.self, from: data)
        }
    }

    @Test("an Int8 NSNumber is written as an integer, a Bool NSNumber as a boolean")
    func booleansAndSmallIntegers() throws {
        let data = try ArchiveEncoder().encode(NSCodingObject(wrappedValue: BridgeNumbers()))
        let objects = try archivedObjects(data)
        #expect(objects.contains(.integer(5)))
        #expect(objects.contains(.bool(true)))
        #expect(!objects.contains(.bool(false)))
    }

    @Test("an object archives as its classForKeyedArchiver")
    func classForKeyedArchiver() throws {
        let data = try ArchiveEncoder().encode(NSCodingObject(wrappedValue: BridgeStandIn()))
        let objects = try archivedObjects(data)
        #expect(objects.contains { $0["$classname"] == .string("KeyedArchiveTests.BridgePrimitives") })
        #expect(!objects.contains { $0["$classname"] == .string("KeyedArchiveTests.BridgeStandIn") })
        let back = try decoder(allowing: [BridgePrimitives.self]).decode(NSCodingObject<BridgePrimitives>.self, from: data).wrappedValue
        #expect(back.sameFields(as: BridgePrimitives()))
    }

    @Test("mangled Swift class names read as the names they stand for",
          arguments: [("_TtCC5MyApp5Outer5Inner", "MyApp.Outer.Inner"), ("_TtC5MyApp6Person", "MyApp.Person"),
                      ("_TtCO4main4Nest5Inner", "main.Nest.Inner"),
                      ("_TtC4mainP33_0123456789ABCDEF0123456789ABCDEF3Foo", "main.Foo"),
                      ("_TtCs12_SwiftObject", "Swift._SwiftObject")])
    func demangled(_ mangled: String, _ readable: String) {
        #expect(RuntimeClassName.demangled(mangled) == readable)
    }

    @Test("other spellings are not demangled", arguments: ["Person", "MyApp.Person", "_TtC", "_TtC5MyApp", "_TtC5MyApp6Person7", "_TtX4main3Foo", "_TtC99999main3Foo"])
    func notDemangled(_ name: String) {
        #expect(RuntimeClassName.demangled(name) == nil)
    }

    @Test("an archive naming a nested class by its mangled name decodes into it")
    func mangledNameDecodes() throws {
        let data = archive([
            dict(["$class": uid(2), "value": .integer(42)]),
            classEntry("_TtCO17KeyedArchiveTests10BridgeNest5Inner"),
        ])
        let inner = try decoder(allowing: [BridgeNest.Inner.self]).decode(NSCodingObject<BridgeNest.Inner>.self, from: data).wrappedValue
        #expect(inner.value == 42)
    }

    @Test("Foundation's own classes are told from the app's, on every platform")
    func foundationClassOrigin() {
        let foundations: [AnyClass] = [NSValue.self, NSAttributedString.self, NSIndexSet.self, NSString.self, NSMutableArray.self]
        for cls in foundations { #expect(FoundationClassOrigin.isFoundations(cls), "\(cls)") }
        let apps: [AnyClass] = [BridgePrimitives.self, BridgeNest.Inner.self, ArchiveDecoder.self]
        for cls in apps { #expect(!FoundationClassOrigin.isFoundations(cls), "\(cls)") }
    }

    @Test("an NSCoding class of Foundation's own is never run with our coder, even when allowed")
    func foundationClassNotRun() throws {
        let data = archive([dict(["$class": uid(2), "NS.special": .integer(1)]), classEntry("NSAffineTransform")])
        let decoder = decoder(allowing: [NSAffineTransform.self])
        #expect(throws: DecodingError.self) {
            _ = try decoder.decode(NSCodingObject<NSAffineTransform>.self, from: data)
        }
    }

    #if canImport(ObjectiveC)
    @Test("Darwin: Objective-C entry points reach the shared implementation")
    func objectiveCEntryPoints() throws {
        final class Reader: NSObject, NSCoding {
            var viaGeneric: NSString?, viaArray: [NSString]?
            override init() {}
            func encode(with coder: NSCoder) {
                coder.encode("a" as NSString, forKey: "text")
                coder.encode(["b" as NSString] as NSArray, forKey: "list")
            }
            required init?(coder: NSCoder) {
                viaGeneric = coder.decodeObject(of: NSString.self, forKey: "text")
                viaArray = coder.decodeArrayOfObjects(ofClass: NSString.self, forKey: "list")
            }
        }
        let data = try ArchiveEncoder().encode(NSCodingObject(wrappedValue: Reader()))
        let back = try decoder(allowing: [Reader.self]).decode(NSCodingObject<Reader>.self, from: data).wrappedValue
        #expect(back.viaGeneric == "a")
        #expect(back.viaArray == ["b"])
    }
    #endif
}
