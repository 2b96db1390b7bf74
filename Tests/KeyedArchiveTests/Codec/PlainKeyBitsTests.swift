import Foundation
import HostileArchives
import Testing
@testable import KeyedArchive

/// A key of plain bits (the `CodingKeys` the compiler writes, or any CodingKey with no
/// references inside) is looked for at its remembered position by its bits, without asking
/// its `stringValue` (`KeyRefCache.knownPosition(bits:keys:bytes:refSize:)`). Keys that
/// share a name, keys of every size, keys that are not plain bits, and positions that move
/// must read what looking the names up reads.
@Suite("Fields found by the bits of their key")
struct PlainKeyBitsTests {
    typealias Shape = KeyedObjectMemoTests.Shape

    /// Objects of two string fields `a` and `b` (its class `Person`, as
    /// `KeyedObjectMemoTests.archive` writes), their keys in the orders given.
    static func objects(_ orders: [[String]]) -> (Data, [[String: String]]) {
        var shapes: [Shape] = []
        var expected: [[String: String]] = []
        for (i, keys) in orders.enumerated() {
            let values = keys.map { "\($0)\(i)" }
            shapes.append(Shape(keys: keys, values: values))
            expected.append(Dictionary(uniqueKeysWithValues: zip(keys, values)))
        }
        return (KeyedObjectMemoTests.archive(shapes), expected)
    }

    static let orders = [["a", "b"], ["a", "b"], ["b", "a"], ["b", "a"], ["a", "b"], ["x", "a", "b"], ["a", "b"], ["b", "x", "a"]]

    /// Reads fields `a` and `b` with a Key type `K` that makes keys from names.
    struct Reader<K: CodingKey>: Decodable {
        var a: String
        var b: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: K.self)
            guard let keyA = K(stringValue: "a"), let keyB = K(stringValue: "b") else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no key"))
            }
            a = try container.decode(String.self, forKey: keyA)
            b = try container.decode(String.self, forKey: keyB)
        }
    }

    /// A key of `Bits` plain bits: its name is its bits' first byte as a letter.
    struct SizedKey<Bits: FixedWidthInteger & Sendable>: CodingKey {
        var bits: Bits
        var stringValue: String { String(UnicodeScalar(UInt8(truncatingIfNeeded: bits))) }
        var intValue: Int? { nil }
        init?(stringValue: String) {
            guard let byte = stringValue.utf8.first, stringValue.utf8.count == 1 else { return nil }
            // Bits above the first byte set too, so that all of a wide key's bits count.
            bits = Bits(truncatingIfNeeded: Int(byte) | (Bits.bitWidth > 8 ? 0x5A00 : 0))
        }
        init?(intValue: Int) { nil }
    }

    /// Three bytes: not a size kept as plain bits, so always looked up by name.
    struct OddKey: CodingKey {
        var bytes: (UInt8, UInt8, UInt8)
        var stringValue: String { String(UnicodeScalar(bytes.0)) }
        var intValue: Int? { nil }
        init?(stringValue: String) {
            guard let byte = stringValue.utf8.first else { return nil }
            bytes = (byte, 1, 2)
        }
        init?(intValue: Int) { nil }
    }

    func check<K: CodingKey>(_ type: K.Type) throws {
        let (data, expected) = Self.objects(Self.orders)
        let read = try ArchiveDecoder().decode([Reader<K>].self, from: data)
        #expect(read.map { ["a": $0.a, "b": $0.b] } == expected.map { ["a": $0["a"] ?? "", "b": $0["b"] ?? ""] })
    }

    @Test("Keys of 1, 2, 4 and 8 bytes of plain bits, and of 3 bytes, in shifting positions")
    func keySizes() throws {
        #expect(PlainCodingKey(SizedKey<UInt8>(stringValue: "a")!) != nil)
        #expect(PlainCodingKey(SizedKey<UInt64>(stringValue: "a")!) != nil)
        #expect(PlainCodingKey(OddKey(stringValue: "a")!) == nil)
        try check(SizedKey<UInt8>.self)
        try check(SizedKey<UInt16>.self)
        try check(SizedKey<UInt32>.self)
        try check(SizedKey<UInt64>.self)
        try check(OddKey.self)
    }

    /// Two cases with one name: equal names, different bits. Both read the one field.
    struct Twins: Decodable, Equatable {
        var first: String
        var second: String
        var age: Int?
        enum CodingKeys: CodingKey {
            case one, other, age
            var stringValue: String { self == .age ? "age" : "name" }
            init?(stringValue: String) { nil }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
    }

    @Test("Two keys with one name: each read by its name whatever bits were remembered")
    func sharedName() throws {
        let shapes = [Shape(keys: ["name", "age"], values: ["p", "1"]), Shape(keys: ["name", "age"], values: ["q", "2"]),
                      Shape(keys: ["age", "name"], values: ["3", "r"]), Shape(keys: ["name"], values: ["s"]),
                      Shape(keys: ["name", "age"], values: ["t", "5"])]
        let read = try ArchiveDecoder().decode([Twins].self, from: KeyedObjectMemoTests.archive(shapes))
        #expect(read == [Twins(first: "p", second: "p", age: 1), Twins(first: "q", second: "q", age: 2),
                         Twins(first: "r", second: "r", age: 3), Twins(first: "s", second: "s", age: nil),
                         Twins(first: "t", second: "t", age: 5)])
    }

    /// Reads `name` with a compiler-written key (told by its bits).
    struct ByBits: Decodable {
        var name: String
    }

    /// Reads `name` with a key that holds a `String` (always looked up by name).
    struct ByName: Decodable {
        var name: String
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: Key(stringValue: "name"))
        }
    }

    /// An archive whose root is an NSArray of objects `{$class, name}`, the names strings but
    /// for the last object's, which is `last`.
    static func namesThen(_ last: RawBinaryPlist.Object, count: Int = 4) -> Data {
        var plist = RawBinaryPlist()
        let null = plist.add(.string("$null"))
        let classKey = plist.add(.string("$class")), nameKey = plist.add(.string("name"))
        // UIDs: objects 1…count, their class count + 1, the array count + 2, its class count + 3.
        let classRef = plist.add(.uid(UInt64(count + 1)))
        var objects = [null]
        for i in 0..<count {
            let value = i == count - 1 ? plist.add(last) : plist.add(.string("n\(i)"))
            objects.append(plist.add(.dictionary(keys: [classKey, nameKey], values: [classRef, value])))
        }
        func classEntry(_ name: String) -> Int {
            plist.add(.dictionary(keys: [plist.add(.string("$classname")), plist.add(.string("$classes"))],
                                  values: [plist.add(.string(name)), plist.add(.array([plist.add(.string(name)), plist.add(.string("NSObject"))]))]))
        }
        objects.append(classEntry("Person"))
        let elements = plist.add(.array((1...count).map { plist.add(.uid(UInt64($0))) }))
        objects.append(plist.add(.dictionary(keys: [classKey, plist.add(.string("NS.objects"))],
                                             values: [plist.add(.uid(UInt64(count + 3))), elements])))
        objects.append(classEntry("NSArray"))
        let top = plist.add(.dictionary(keys: [plist.add(.string("root"))], values: [plist.add(.uid(UInt64(count + 2)))]))
        let envelope = plist.add(.dictionary(
            keys: [plist.add(.string("$archiver")), plist.add(.string("$version")), plist.add(.string("$top")), plist.add(.string("$objects"))],
            values: [plist.add(.string("NSKeyedArchiver")), plist.add(.integer(100_000)), top, plist.add(.array(objects))]))
        return plist.data(top: envelope)
    }

    @Test("A value the quick read declines, at a remembered position: the error a lookup by name throws",
          arguments: [RawBinaryPlist.Object.uid(999), .uid(0), .uid(1), .integer(7), .string("ok")])
    func unusualValues(last: RawBinaryPlist.Object) throws {
        let data = Self.namesThen(last)
        func outcome<T: Decodable>(_ type: T.Type, _ name: (T) -> String) -> String {
            do {
                return try ArchiveDecoder().decode([T].self, from: data).map(name).joined(separator: ",")
            } catch let error as DecodingError {
                let kind: String, context: DecodingError.Context
                switch error {
                case .dataCorrupted(let found): (kind, context) = ("dataCorrupted", found)
                case .typeMismatch(let type, let found): (kind, context) = ("typeMismatch \(type)", found)
                case .valueNotFound(let type, let found): (kind, context) = ("valueNotFound \(type)", found)
                case .keyNotFound(let key, let found): (kind, context) = ("keyNotFound \(key.stringValue)", found)
                @unknown default: return "\(error)"
                }
                return "\(kind) \(context.codingPath.map(\.stringValue)) \(context.debugDescription)"
            } catch {
                return "\(error)"
            }
        }
        let byBits = outcome(ByBits.self, \.name), byName = outcome(ByName.self, \.name)
        #expect(byBits == byName)
        if case .string = last { #expect(byBits == "n0,n1,n2,ok") } else { #expect(!byBits.hasPrefix("n0,")) }
    }

    @Test("A remembered position is believed only for the same bits and the same key string there")
    func cacheChecks() {
        let cache = KeyRefCache()
        cache.record("a", ref: 5, position: 1, keyBits: 7)
        let keys = BinaryPropertyList.RefList(start: 0, count: 2)
        func position(bits: UInt64, in list: [UInt8], keys: BinaryPropertyList.RefList = keys) -> Int {
            cache.cursor = 0
            return list.withUnsafeBytes { cache.knownPosition(bits: bits, keys: keys, bytes: PropertyListBytes($0), refSize: 1) }
        }
        #expect(position(bits: 7, in: [9, 5]) == 1)
        #expect(cache.cursor == 1)
        #expect(position(bits: 8, in: [9, 5]) == -1)
        #expect(cache.cursor == 0)
        // Another key string at the position, or a list too short for it.
        #expect(position(bits: 7, in: [5, 9]) == -1)
        #expect(position(bits: 7, in: [9, 5], keys: BinaryPropertyList.RefList(start: 0, count: 1)) == -1)
        // Found by name without bits: none remembered, so the bits never match.
        cache.record("a", ref: 5, position: 1)
        #expect(position(bits: 7, in: [9, 5]) == -1)
        #expect(position(bits: 0, in: [9, 5]) == -1)
        cache.cursor = 0
        #expect([UInt8]([9, 5]).withUnsafeBytes { cache.knownPosition(of: "a", keys: keys, bytes: PropertyListBytes($0), refSize: 1) } == 1)
    }
}

extension PlainKeyBitsTests.Twins {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        first = try container.decode(String.self, forKey: .one)
        age = try container.decodeIfPresent(Int.self, forKey: .age)
        second = try container.decode(String.self, forKey: .other)
    }
}
