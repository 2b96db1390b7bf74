import Foundation
import Testing
@testable import KeyedArchive

// ArchiveEncoder output (binary and XML) read by Foundation's own NSKeyedUnarchiver on this
// machine, into hand-written NSCoding classes, compared field by field.
//
// Decimal is not covered: swift-corelibs-foundation's NSDecimalNumber.init(coder:) reads
// `NS.mantissa` with decodeObject(forKey:), but Apple's layout (which FORMAT.md asks for
// and ArchiveEncoder writes) stores the mantissa bytes inline, so Foundation on Linux
// fails with "Object 16 bytes is not a reference": it traps under the default
// .raiseException policy, and with .setErrorAndReturn returns nil ("Class NSDecimalNumber
// failed to decode"). Checked in a scratch program; there is nothing to compare.

// MARK: - Codable side

private struct FRAddress: Codable, Equatable, ArchivedClass {
    static let archivedClassName = "Address"
    var street: String
    var zip: Int
}

private struct FRScalars: Codable, ArchivedClass {
    static let archivedClassName = "Scalars"
    var int: Int = -1_234_567_890_123
    var int8: Int8 = -8
    var int32: Int32 = Int32.min
    var int64: Int64 = Int64.max
    var uint8: UInt8 = 200
    var uint16: UInt16 = 65_000
    var uint32: UInt32 = 4_000_000_000
    var uint64: UInt64 = 10_000_000_000_000_000_000  // above Int64.max: a 16-byte integer by UID
    var uint64Max: UInt64 = .max
    var uint64Small: UInt64 = 1_234
    var double: Double = 3.141_592_653_589_793
    var float: Float = 1.1
    var yes: Bool = true
    var no: Bool = false
}

private struct FRPerson: Codable, ArchivedClass {
    static let archivedClassName = "Person"
    var name = "Ada Lovelace"
    var nickname = "Ádá — 数学者 🧮"
    var age = 36
    var birthday = Date(timeIntervalSinceReferenceDate: -5_000_000_000.25)
    var avatar = Data([0x00, 0xFF, 0x10, 0x80, 0x7F])
    var homepage = URL(string: "https://example.com/ada?lang=en#bio")!
    var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var tags = ["math", "engine", "poetry", "math"]
    var scores = [3, -1, 4_000_000_000, 0]
    var ratios = [0.5, -2.25, 1e-3]
    var letters: Set<String> = ["a", "β", "c"]
    var counts: [String: Int] = ["one": 1, "two": 2, "many": 1_000_000]
    var address = FRAddress(street: "12 St James's Square", zip: 10_001)
    var spouse: String? = nil          // synthesized: key absent
    var previous: FRAddress? = nil     // synthesized: key absent
}

/// Writes nil explicitly: UID 0 under the key.
private struct FRExplicitNils: Encodable, ArchivedClass {
    static let archivedClassName = "Nils"
    enum CodingKeys: String, CodingKey { case viaEncodeNil, viaOptional, present }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeNil(forKey: .viaEncodeNil)
        try c.encode(String?.none, forKey: .viaOptional)
        try c.encode("here", forKey: .present)
    }
}

// MARK: - NSCoding side (decode only)

private final class NSAddressR: NSObject, NSCoding {
    let street: String?
    let zip: Int
    required init?(coder: NSCoder) {
        street = coder.decodeObject(forKey: "street") as? String
        zip = coder.decodeInteger(forKey: "zip")
    }
    func encode(with coder: NSCoder) {}
}

private final class NSScalarsR: NSObject, NSCoding {
    let int: Int, int8: Int32, int32: Int32, int64: Int64
    let uint8: Int, uint16: Int, uint32: Int64, uint64: Any?, uint64Max: Any?, uint64Small: Int64
    let double: Double, float: Float, yes: Bool, no: Bool
    required init?(coder: NSCoder) {
        int = coder.decodeInteger(forKey: "int")
        int8 = coder.decodeInt32(forKey: "int8")
        int32 = coder.decodeInt32(forKey: "int32")
        int64 = coder.decodeInt64(forKey: "int64")
        uint8 = coder.decodeInteger(forKey: "uint8")
        uint16 = coder.decodeInteger(forKey: "uint16")
        uint32 = coder.decodeInt64(forKey: "uint32")
        uint64 = coder.decodeObject(forKey: "uint64")
        uint64Max = coder.decodeObject(forKey: "uint64Max")
        uint64Small = coder.decodeInt64(forKey: "uint64Small")
        double = coder.decodeDouble(forKey: "double")
        float = coder.decodeFloat(forKey: "float")
        yes = coder.decodeBool(forKey: "yes")
        no = coder.decodeBool(forKey: "no")
    }
    func encode(with coder: NSCoder) {}
}

private final class NSPersonR: NSObject, NSCoding {
    let name: Any?, nickname: Any?, age: Int, birthday: Any?, avatar: Any?, homepage: Any?, id: Any?
    let tags: Any?, scores: Any?, ratios: Any?, letters: Any?, counts: Any?, address: Any?
    let spouse: Any?, previous: Any?
    let hasSpouseKey: Bool
    required init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name")
        nickname = coder.decodeObject(forKey: "nickname")
        age = coder.decodeInteger(forKey: "age")
        birthday = coder.decodeObject(forKey: "birthday")
        avatar = coder.decodeObject(forKey: "avatar")
        homepage = coder.decodeObject(forKey: "homepage")
        id = coder.decodeObject(forKey: "id")
        tags = coder.decodeObject(forKey: "tags")
        scores = coder.decodeObject(forKey: "scores")
        ratios = coder.decodeObject(forKey: "ratios")
        letters = coder.decodeObject(forKey: "letters")
        counts = coder.decodeObject(forKey: "counts")
        address = coder.decodeObject(forKey: "address")
        // Foundation on Linux treats decodeObject(forKey:) of an absent key as a decoding
        // error (it traps under the default policy; Apple returns nil), so ask first.
        hasSpouseKey = coder.containsValue(forKey: "spouse")
        spouse = hasSpouseKey ? coder.decodeObject(forKey: "spouse") : nil
        previous = coder.containsValue(forKey: "previous") ? coder.decodeObject(forKey: "previous") : nil
    }
    func encode(with coder: NSCoder) {}
}

private final class NSNilsR: NSObject, NSCoding {
    let viaEncodeNil: Any?, viaOptional: Any?, present: Any?
    required init?(coder: NSCoder) {
        viaEncodeNil = coder.decodeObject(forKey: "viaEncodeNil")
        viaOptional = coder.decodeObject(forKey: "viaOptional")
        present = coder.decodeObject(forKey: "present")
    }
    func encode(with coder: NSCoder) {}
}

private let registered: [String: AnyClass] = [
    "Person": NSPersonR.self, "Address": NSAddressR.self, "Scalars": NSScalarsR.self, "Nils": NSNilsR.self,
]

/// Encodes with ArchiveEncoder in `format`, decodes the root with Foundation.
private func viaFoundation<T: Encodable>(_ value: T, _ format: PropertyListFormat) throws -> Any? {
    try foundationUnarchive(try archive(value, format: format), classes: registered)
}

// MARK: - Tests

@Suite("Foundation's NSKeyedUnarchiver reads ArchiveEncoder output")
struct FoundationReadsUsTests {
    @Test("Top-level strings, ASCII and not", arguments: PropertyListFormat.allCases,
          ["", "plain ASCII", "naïve café", "数学", "emoji 🧮 and \u{0}nul", "$dollar"])
    func topLevelStrings(format: PropertyListFormat, string: String) throws {
        // U+0000 written raw into XML (only when asked), as Foundation writes it: Foundation reads it back.
        let object = try foundationUnarchive(try archive(string, format: format, invalidXMLCharacters: .writeRaw), classes: registered)
        #expect(object is NSString)
        #expect(object as? String == string)
    }

    @Test("Integers, reals and booleans inline, UInt64 above Int64.max as NSNumber",
          arguments: PropertyListFormat.allCases)
    func scalars(format: PropertyListFormat) throws {
        let expected = FRScalars()
        let object = try #require(try viaFoundation(expected, format) as? NSScalarsR)
        #expect(object.int == expected.int)
        #expect(object.int8 == Int32(expected.int8))
        #expect(object.int32 == expected.int32)
        #expect(object.int64 == expected.int64)
        #expect(object.uint8 == Int(expected.uint8))
        #expect(object.uint16 == Int(expected.uint16))
        #expect(object.uint32 == Int64(expected.uint32))
        #expect(object.uint64Small == Int64(expected.uint64Small))
        #expect((object.uint64 as? NSNumber)?.uint64Value == expected.uint64)
        #expect((object.uint64Max as? NSNumber)?.uint64Value == UInt64.max)
        #expect(object.double == expected.double)
        #expect(object.float == expected.float)
        #expect(object.yes == true)
        #expect(object.no == false)
    }

    @Test("Top-level numbers and booleans become NSNumber", arguments: PropertyListFormat.allCases)
    func topLevelNumbers(format: PropertyListFormat) throws {
        #expect((try viaFoundation(42, format) as? NSNumber)?.intValue == 42)
        #expect((try viaFoundation(Int64.min, format) as? NSNumber)?.int64Value == Int64.min)
        #expect((try viaFoundation(UInt64.max, format) as? NSNumber)?.uint64Value == UInt64.max)
        #expect((try viaFoundation(-0.125, format) as? NSNumber)?.doubleValue == -0.125)
        #expect((try viaFoundation(Float(2.5), format) as? NSNumber)?.floatValue == 2.5)
        #expect((try viaFoundation(true, format) as? NSNumber)?.boolValue == true)
    }

    @Test("A struct with Foundation values, collections and a nested struct", arguments: PropertyListFormat.allCases)
    func person(format: PropertyListFormat) throws {
        let expected = FRPerson()
        let object = try #require(try viaFoundation(expected, format) as? NSPersonR)

        #expect(object.name as? String == expected.name)
        #expect(object.nickname as? String == expected.nickname)
        #expect(object.age == expected.age)

        let birthday = try #require(object.birthday as? NSDate)
        #expect(birthday.timeIntervalSinceReferenceDate == expected.birthday.timeIntervalSinceReferenceDate)
        #expect((object.avatar as? NSData).map { Data(referencing: $0) } == expected.avatar)
        let homepage = try #require(object.homepage as? NSURL)
        #expect(homepage.absoluteString == expected.homepage.absoluteString)
        let id = try #require(object.id as? NSUUID)
        #expect(id.uuidString == expected.id.uuidString)

        let tags = try #require(object.tags as? NSArray)
        #expect(tags.compactMap { $0 as? String } == expected.tags)
        let scores = try #require(object.scores as? NSArray)
        #expect(scores.compactMap { ($0 as? NSNumber)?.intValue } == expected.scores)
        let ratios = try #require(object.ratios as? NSArray)
        #expect(ratios.compactMap { ($0 as? NSNumber)?.doubleValue } == expected.ratios)
        let letters = try #require(object.letters as? NSSet)
        #expect(Set(letters.allObjects.compactMap { $0 as? String }) == expected.letters)
        #expect(letters.count == expected.letters.count)
        let counts = try #require(object.counts as? NSDictionary)
        var swiftCounts: [String: Int] = [:]
        for (key, value) in counts {
            if let key = key as? String, let value = value as? NSNumber { swiftCounts[key] = value.intValue }
        }
        #expect(swiftCounts == expected.counts)

        let address = try #require(object.address as? NSAddressR)
        #expect(address.street == expected.address.street)
        #expect(address.zip == expected.address.zip)

        #expect(object.spouse == nil)
        #expect(object.previous == nil)
        #expect(object.hasSpouseKey == true)  // a nil optional is $null under its key, as NSCoding writes it
    }

    @Test("nil written as UID 0 reads back as nil", arguments: PropertyListFormat.allCases)
    func explicitNils(format: PropertyListFormat) throws {
        let object = try #require(try viaFoundation(FRExplicitNils(), format) as? NSNilsR)
        #expect(object.viaEncodeNil == nil)
        #expect(object.viaOptional == nil)
        #expect(object.present as? String == "here")
    }

    @Test("Top-level collections become NSArray, NSSet and NSDictionary", arguments: PropertyListFormat.allCases)
    func topLevelCollections(format: PropertyListFormat) throws {
        let array = try #require(try viaFoundation(["x", "y", "x"], format) as? NSArray)
        #expect(array.compactMap { $0 as? String } == ["x", "y", "x"])

        let numbers = try #require(try viaFoundation([1.5, 2, -3], format) as? NSArray)
        #expect(numbers.compactMap { ($0 as? NSNumber)?.doubleValue } == [1.5, 2, -3])

        let set = try #require(try viaFoundation(Set([3, 1, 2]), format) as? NSSet)
        #expect(Set(set.allObjects.compactMap { ($0 as? NSNumber)?.intValue }) == [1, 2, 3])

        let dictionary = try #require(try viaFoundation(["k": "v", "k2": "v2"], format) as? NSDictionary)
        #expect(dictionary["k"] as? String == "v")
        #expect(dictionary["k2"] as? String == "v2")
        #expect(dictionary.count == 2)

        let nested = try #require(try viaFoundation([["a"], [], ["b", "c"]], format) as? NSArray)
        #expect(nested.map { ($0 as? NSArray)?.compactMap { $0 as? String } ?? ["?"] } == [["a"], [], ["b", "c"]])
    }

    @Test("Top-level Foundation values", arguments: PropertyListFormat.allCases)
    func topLevelFoundationValues(format: PropertyListFormat) throws {
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        #expect((try viaFoundation(date, format) as? NSDate)?.timeIntervalSinceReferenceDate == 700_000_000.5)
        let data = Data("bytes\u{0}\u{1}".utf8)
        #expect((try viaFoundation(data, format) as? NSData).map { Data(referencing: $0) } == data)
        let uuid = UUID()
        #expect((try viaFoundation(uuid, format) as? NSUUID)?.uuidString == uuid.uuidString)
        let relative = URL(string: "foo.xml", relativeTo: URL(string: "https://www.example.com/dir/")!)!
        let url = try #require(try viaFoundation(relative, format) as? NSURL)
        #expect(url.absoluteString == "https://www.example.com/dir/foo.xml")
        let fileURL = URL(fileURLWithPath: "/tmp/some file.txt")
        #expect((try viaFoundation(fileURL, format) as? NSURL)?.absoluteString == fileURL.absoluteString)
    }

    @Test("Several top-level keys are read by key", arguments: PropertyListFormat.allCases)
    func severalTopLevelKeys(format: PropertyListFormat) throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let data = try encoder.encode(topLevel: [
            "first": FRAddress(street: "One", zip: 1),
            "second": FRAddress(street: "Two", zip: 2),
            "note": "hello",
        ])
        let one = try #require(try foundationUnarchive(data, classes: registered, key: "first") as? NSAddressR)
        let two = try #require(try foundationUnarchive(data, classes: registered, key: "second") as? NSAddressR)
        #expect(one.street == "One" && one.zip == 1)
        #expect(two.street == "Two" && two.zip == 2)
        #expect(try foundationUnarchive(data, classes: registered, key: "note") as? String == "hello")
    }

    /// The example in ArchiveEncoder's documentation, with two values of the same type.
    /// (Before the `topLevel:` label existed, this literal silently chose `encode(_:)` and
    /// wrote one NSDictionary under `root`.)
    @Test("encode(topLevel: [\"personOne\": ada, \"personTwo\": grace]) writes two top-level keys",
          arguments: PropertyListFormat.allCases)
    func documentedSeveralKeysExample(format: PropertyListFormat) throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let ada = FRAddress(street: "Ada", zip: 1), grace = FRAddress(street: "Grace", zip: 2)
        let data = try encoder.encode(topLevel: ["personOne": ada, "personTwo": grace])
        #expect(try ArchiveDecoder().topLevelKeys(in: data) == ["personOne", "personTwo"])
        let two = try foundationUnarchive(data, classes: registered, key: "personTwo") as? NSAddressR
        #expect(two?.street == "Grace")

        // Without the label the same literal is one dictionary under root, as documented.
        let single = try encoder.encode(["personOne": ada, "personTwo": grace])
        #expect(try ArchiveDecoder().topLevelKeys(in: single) == ["root"])
        let dictionary = try #require(try foundationUnarchive(single, classes: registered) as? NSDictionary)
        #expect((dictionary["personTwo"] as? NSAddressR)?.street == "Grace")
    }

    @Test("Foundation's PropertyListSerialization reads the envelope", arguments: PropertyListFormat.allCases)
    func envelope(format: PropertyListFormat) throws {
        let data = try archive(FRPerson(), format: format)
        var foundFormat = PropertyListSerialization.PropertyListFormat.openStep
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: &foundFormat)
        #expect(foundFormat == format.foundationFormat)
        let root = try #require(plist as? [String: Any])
        #expect(root["$archiver"] as? String == "NSKeyedArchiver")
        #expect((root["$version"] as? NSNumber)?.intValue == 100_000)
        #expect((root["$objects"] as? [Any])?.first as? String == "$null")
    }
}
