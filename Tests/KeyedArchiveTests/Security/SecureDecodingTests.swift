import Foundation
import Testing
@testable import KeyedArchive

// One test per attack on the promise "the archive never picks the code that runs" (issue
// 18): each asserts that the initializer the call site did not allow never ran.

private struct CatOwner: Codable { @NSCodingObject var pet: SecCat }
private struct DogOwner: Codable { @NSCodingObject var pet: SecDog }
private struct ListOwner: Codable { @NSCodingObject var pet: NSArray }

/// Decodes a root `SecHolder` (allowed by the call: its type).
private func decodeHolder(_ data: Data, _ configure: (ArchiveDecoder) -> Void = { _ in }) throws -> SecHolder {
    let decoder = ArchiveDecoder()
    configure(decoder)
    return try decoder.decode(NSCodingObject<SecHolder>.self, from: data).wrappedValue
}

/// An archive whose root is `holder`, written by ArchiveEncoder.
private func archived(_ holder: SecHolder, _ configure: (ArchiveEncoder) -> Void = { _ in }) throws -> Data {
    let encoder = ArchiveEncoder()
    configure(encoder)
    return try encoder.encode(NSCodingObject(wrappedValue: holder))
}

/// The description of the error `body` throws, or nil when it does not throw.
private func failure(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error)"
    }
}

/// A self-containing NSMutableArray (object 1 lists itself), the 240-byte crasher of Foundation's unarchiver.
private let selfContainingArray = archive([
    dict(["$class": uid(2), "NS.objects": .array([uid(1)])]),
    classEntry("NSMutableArray", superclasses: ["NSArray", "NSObject"]),
])

/// `depth` arrays, each holding the next.
private func nestedArrays(_ depth: Int) -> Data {
    let arrayClass = UInt64(depth + 1)
    var objects: [PropertyListValue] = (1...depth).map { index in
        dict(["$class": uid(arrayClass), "NS.objects": .array(index == depth ? [] : [uid(UInt64(index + 1))])])
    }
    objects.append(classEntry("NSArray"))
    return archive(objects)
}

@Suite("Secure decoding: the call site picks the class")
struct SecureDecodingTests {
    // MARK: 1. @NSCodingObject under other decoders

    @Test("@NSCodingObject under JSONDecoder and PropertyListDecoder never runs a class the property does not name")
    func otherDecodersRefuseSubstitutedClass() throws {
        let tag = InitLog.newTag()
        let json = try JSONEncoder().encode(DogOwner(pet: SecDog(tag: tag)))
        let message = failure { _ = try JSONDecoder().decode(CatOwner.self, from: json) }
        #expect(message?.contains("is not allowed") == true, "\(message ?? "decoded")")
        let plist = try PropertyListEncoder().encode(DogOwner(pet: SecDog(tag: tag)))
        #expect(throws: DecodingError.self) { try PropertyListDecoder().decode(CatOwner.self, from: plist) }
        #expect(!InitLog.ran("SecDog", tag))
    }

    @Test("@NSCodingObject under JSONDecoder: a self-containing array and 100,000 nested arrays are errors, not crashes")
    func otherDecodersSurviveHostileGraphs() throws {
        struct Embedded: Encodable { var pet: Data }
        for data in [selfContainingArray, nestedArrays(100_000)] {
            let json = try JSONEncoder().encode(Embedded(pet: data))
            // The declared class is NSArray, so the graph is walked: the cycle and depth guards stop it.
            let asList = failure { _ = try JSONDecoder().decode(ListOwner.self, from: json) }
            #expect(asList?.contains("cycle") == true || asList?.contains("deeper than") == true, "\(asList ?? "decoded")")
            // Declared SecCat: an array is not allowed at all.
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(CatOwner.self, from: json) }
        }
    }

    @Test("@NSCodingObject under JSONEncoder/JSONDecoder round-trips, and Foundation's unarchiver reads the embedded bytes")
    func otherCodersRoundTrip() throws {
        let tag = InitLog.newTag()
        let json = try JSONEncoder().encode(CatOwner(pet: SecCat(tag: tag)))
        #expect(try JSONDecoder().decode(CatOwner.self, from: json).pet.tag == tag)
        struct Embedded: Decodable { var pet: Data }
        let bytes = try JSONDecoder().decode(Embedded.self, from: json).pet
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: bytes)
        unarchiver.requiresSecureCoding = true
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        unarchiver.setClass(SecCat.self, forClassName: "KeyedArchiveTests.SecCat")
        let cat = unarchiver.decodeObject(of: [SecCat.self, NSString.self], forKey: NSKeyedArchiveRootObjectKey) as? SecCat
        #expect(unarchiver.error == nil)
        #expect(cat?.tag == tag)
    }

    // MARK: 2. Decoder-wide registrations never widen a call that names its classes

    @Test("allowedClasses = [Dog] does not let a Dog run for @NSCodingObject var pet: Cat")
    func allowedClassesDoNotWidenProperty() throws {
        let tag = InitLog.newTag()
        let data = try ArchiveEncoder().encode(DogOwner(pet: SecDog(tag: tag)))
        let decoder = ArchiveDecoder()
        decoder.allowedClasses = [SecDog.self, SecCat.self]
        let message = failure { _ = try decoder.decode(CatOwner.self, from: data) }
        #expect(message?.contains("this read allows only [SecCat]") == true, "\(message ?? "decoded")")
        #expect(!InitLog.ran("SecDog", tag))
        // The same decoder reads the Dog where the property names it.
        #expect(try decoder.decode(DogOwner.self, from: data).pet.tag == tag)
    }

    @Test("setClass(Dog, forClassName:) does not let a Dog run for @NSCodingObject var pet: Cat")
    func registrationsDoNotWidenProperty() throws {
        let tag = InitLog.newTag()
        let encoder = ArchiveEncoder()
        encoder.setClassName("LegacyDog", for: SecDog.self)
        let data = try encoder.encode(DogOwner(pet: SecDog(tag: tag)))
        let decoder = ArchiveDecoder()
        decoder.setClass(SecDog.self, forClassName: "LegacyDog")
        #expect(throws: DecodingError.self) { try decoder.decode(CatOwner.self, from: data) }
        #expect(!InitLog.ran("SecDog", tag))
        // A registration still renames to the class the property names.
        #expect(try decoder.decode(DogOwner.self, from: data).pet.tag == tag)
    }

    @Test("decodeObject(of: [Cat]) inside init(coder:) never runs or returns a Dog the decoder allows")
    func decodeObjectOfClassesIsNotWidened() throws {
        for mode in [SecHolder.Mode.catOnly, .catGeneric] {
            let tag = InitLog.newTag()
            let data = try archived(SecHolder(mode: mode, tag: tag, fields: ["pet": SecDog(tag: tag)]))
            for configure: (ArchiveDecoder) -> Void in [
                { $0.allowedClasses = [SecDog.self] },
                { $0.setClass(SecDog.self, forClassName: "SecDog") },
            ] {
                #expect(throws: DecodingError.self, "\(mode)") { try decodeHolder(data, configure) }
            }
            #expect(!InitLog.ran("SecDog", tag), "\(mode)")
            #expect(!InitLog.ran("SecHolder got pet as SecDog", tag), "\(mode)")
        }

        // A registration mapping the Cat's own name to Dog cannot substitute Dog either.
        let catTag = InitLog.newTag()
        let catData = try archived(SecHolder(mode: .catOnly, tag: catTag, fields: ["pet": SecCat(tag: catTag)]))
        let holder = try decodeHolder(catData) { $0.setClass(SecDog.self, forClassName: "SecCat") }
        #expect((holder.got["pet"] as? SecCat)?.tag == catTag)
        #expect(!InitLog.ran("SecDog", catTag))
    }

    @Test("ArchiveKeyedDecoder.decodeObject(of: [Cat]) is not widened by allowedClasses, even under try?")
    func archiveCodingDecodeObjectIsNotWidened() throws {
        for swallow in [false, true] {
            let tag = InitLog.newTag()
            struct Box: Codable { var keeper: SecKeeper }
            let data = try ArchiveEncoder().encode(Box(keeper: SecKeeper(tag: tag, pet: SecDog(tag: tag), swallow: swallow)))
            let decoder = ArchiveDecoder()
            decoder.allowedClasses = [SecDog.self]
            let message = failure { _ = try decoder.decode(Box.self, from: data) }
            #expect(message?.contains("is not allowed") == true, "\(message ?? "decoded")")
            #expect(!InitLog.ran("SecDog", tag))
            #expect(!InitLog.ran("SecKeeper got SecDog", tag))
        }
    }

    @Test("decodeObject(of:) returns only listed classes, Foundation values and collection elements included")
    func foundationValuesObeyTheList() throws {
        struct Box: Codable { var reader: SecListReader }
        func read(_ classes: [String], tag: String) throws -> Any? {
            let data = try ArchiveEncoder().encode(Box(reader: SecListReader(classes: classes, pet: ["a", SecCat(tag: tag)] as NSArray)))
            let decoder = ArchiveDecoder()
            decoder.allowedClasses = [SecCat.self]  // does not widen the reads below
            return try decoder.decode(Box.self, from: data).reader.pet
        }
        let tag = InitLog.newTag()
        #expect((try read(["NSArray", "NSString", "SecCat"], tag: tag) as? [Any])?.count == 2)
        #expect(InitLog.ran("SecCat", tag))
        for refused in [["NSArray", "NSString"], ["NSArray", "SecCat"], ["NSMutableArray", "NSString", "SecCat"], []] {
            let tag = InitLog.newTag()
            #expect(throws: DecodingError.self, "\(refused)") { try read(refused, tag: tag) }
            if !refused.contains("SecCat") { #expect(!InitLog.ran("SecCat", tag), "\(refused)") }
        }
    }

    // MARK: 3. A shared instance is returned only to a call that allows its class

    @Test("An object decoded once as an allowed Dog is not handed to a later read that allows nothing, or only Cat")
    func cachedInstanceIsChecked() throws {
        for mode in [SecHolder.Mode.dogThenNothing, .dogThenCat] {
            let tag = InitLog.newTag()
            let dog = SecDog(tag: tag)
            let data = try archived(SecHolder(mode: mode, tag: tag, fields: ["a": dog, "b": dog]))
            let raw = try RawArchive(data)
            #expect(raw.root?["a"] == raw.root?["b"])  // one shared object
            let message = failure { _ = try decodeHolder(data) }
            #expect(message?.contains("is not allowed") == true, "\(message ?? "decoded")")
            #expect(InitLog.ran("SecDog", tag))  // read once, where allowed
            #expect(!InitLog.ran("SecHolder got b as SecDog", tag))
        }
    }

    // MARK: 5. The compat layer is charged to the same budget

    @Test("4,000 references to one 4,000-entry dictionary read by decodeObject inside init(coder:) stop at the work limit")
    func compatDictionaryFanOutIsCharged() throws {
        let count = 4_000
        let dictionaryUID = UInt64(7), firstKey = UInt64(9), valueUID = UInt64(9 + count)
        var objects: [PropertyListValue] = [
            dict(["$class": uid(2), "mode": uid(3), "tag": uid(4), "pet": uid(5)]),
            classEntry("SecHolder"), .string("plain"), .string(InitLog.newTag()),
            dict(["$class": uid(6), "NS.objects": .array(Array(repeating: uid(dictionaryUID), count: count))]),
            classEntry("NSArray"),
            dict(["$class": uid(8), "NS.keys": .array((0..<UInt64(count)).map { uid(firstKey + $0) }),
                  "NS.objects": .array(Array(repeating: uid(valueUID), count: count))]),
            classEntry("NSDictionary"),
        ]
        objects += (0..<count).map { .string("k\($0)") }
        objects.append(.string("v"))
        let data = archive(objects)
        #expect(data.count < 100_000)
        // Default limits stop it too (after about 16 visits per byte: seconds in a debug
        // build), so the test uses smaller budgets; the typed path stops at the same one.
        for visits in [10_000, 200_000] {
            let decoder = ArchiveDecoder()
            decoder.limits.maxObjectVisits = visits
            let compat = failure { _ = try decoder.decode(NSCodingObject<SecHolder>.self, from: data) }
            #expect(compat?.contains("limit") == true, "\(compat ?? "decoded")")
            struct Typed: Decodable { var pet: [[String: String]] }
            let typed = failure { _ = try decoder.decode(Typed.self, from: data) }
            #expect(typed?.contains("limit") == true, "\(typed ?? "decoded")")
        }
    }

    // MARK: 6. Errors inside init(coder:) fail the decode even when swallowed

    @Test("A work-limit error swallowed by try? coder.decodeCodable fails the whole decode")
    func swallowedLimitErrorFailsDecode() throws {
        let tag = InitLog.newTag()
        let value = (0..<50).map { row in (0..<20).map { row * 20 + $0 } }
        let data = try archived(SecHolder(mode: .swallowCodable, tag: tag, codable: value))
        #expect((try decodeHolder(data).got["value"] as? [[Int]]) == value)  // control: within limits it reads
        let message = failure { _ = try decodeHolder(data) { $0.limits.maxObjectVisits = 300 } }
        #expect(message?.contains("limit") == true, "\(message ?? "decoded")")
    }

    @Test("A cycle error swallowed by try? coder.decodeCodable fails the whole decode")
    func swallowedCycleErrorFailsDecode() throws {
        // The holder's value is a dictionary {children: [itself]}.
        let data = archive([
            dict(["$class": uid(2), "mode": uid(3), "tag": uid(4), "value": uid(5)]),
            classEntry("SecHolder"), .string("swallowTree"), .string(InitLog.newTag()),
            dict(["$class": uid(6), "NS.keys": .array([uid(7)]), "NS.objects": .array([uid(8)])]),
            classEntry("NSDictionary"), .string("children"),
            dict(["$class": uid(9), "NS.objects": .array([uid(5)])]),
            classEntry("NSArray"),
        ])
        let message = failure { _ = try decodeHolder(data) }
        #expect(message?.contains("cycle") == true, "\(message ?? "decoded")")
    }
}
