import Foundation
import Testing
@testable import KeyedArchive

/// Issue 11 items 1–3 and issue 17 item 1: nil, `$top` without `root`, and `$`-keys, with
/// Foundation's archiver and unarchiver on this machine as the oracle both ways.
@Suite("Fidelity: nil, $top and $-keys against Foundation")
struct NilAndTopLevelTests {
    struct Named: Codable, Equatable {
        var name: String
        var nickname: String?
        var age: Int?
    }

    @Test("[String?] with a nil: NSKeyedUnarchiver sees an NSNull element, not a dropped one", arguments: PropertyListFormat.allCases)
    func nilArrayElement(format: PropertyListFormat) throws {
        let data = try archive(["a", nil, "c"] as [String?], format: format)
        let array = try #require(try foundationUnarchive(data) as? NSArray)
        #expect(array.count == 3)
        #expect(array[1] is NSNull)
        #expect(try ArchiveDecoder().decode([String?].self, from: data) == ["a", nil, "c"])
    }

    @Test("[String: Int?] with a nil value: an NSDictionary holding NSNull, readable by Foundation", arguments: PropertyListFormat.allCases)
    func nilDictionaryValue(format: PropertyListFormat) throws {
        let value: [String: Int?] = ["one": 1, "none": nil]
        let data = try archive(value, format: format)
        let dictionary = try #require(try foundationUnarchive(data) as? NSDictionary)
        #expect(dictionary.object(forKey: "none") is NSNull)
        #expect((dictionary.object(forKey: "one") as? NSNumber)?.intValue == 1)
        #expect(try ArchiveDecoder().decode([String: Int?].self, from: data) == value)
    }

    @Test("A nil optional property is $null under its key: containsValue is true, decodeObject is nil")
    func nilProperty() throws {
        let data = try ArchiveEncoder().encode(Named(name: "Ada", nickname: nil, age: nil))
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        unarchiver.setClass(NilProbe.self, forClassName: "Named")
        let probe = try #require(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? NilProbe)
        #expect(unarchiver.error == nil)
        #expect(probe.hasNickname)
        #expect(probe.nickname == nil)
        #expect(probe.name == "Ada")
        #expect(try ArchiveDecoder().decode(Named.self, from: data) == Named(name: "Ada", nickname: nil, age: nil))
    }

    @Test("Foundation's NSNull and $null inside collections both read as nil")
    func foundationNulls() throws {
        let data = foundationArchive(NSArray(array: ["x", NSNull(), "z"]))
        #expect(try ArchiveDecoder().decode([String?].self, from: data) == ["x", nil, "z"])
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String].self, from: data) }
        #expect(error.map { if case .valueNotFound = $0 { true } else { false } } == true)
    }

    @Test("$top without root: one key unwraps, a value stored inline in $top decodes")
    func topWithoutRoot() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode("first value" as NSString, forKey: "first")
        archiver.finishEncoding()
        #expect(try ArchiveDecoder().decode(String.self, from: archiver.encodedData) == "first value")

        let inline = PropertyListValue.dictionary([
            PropertyListEntry(key: "$archiver", value: .string("NSKeyedArchiver")),
            PropertyListEntry(key: "$version", value: .integer(100_000)),
            PropertyListEntry(key: "$top", value: .dictionary([PropertyListEntry(key: "root", value: .integer(42)),
                                                               PropertyListEntry(key: "flag", value: .bool(true))])),
            PropertyListEntry(key: "$objects", value: .array([.string("$null")])),
        ]).propertyListData(format: .binary)
        #expect(try ArchiveDecoder().decode(Int.self, from: inline) == 42)
        #expect(try ArchiveDecoder().decode(Bool.self, forKey: "flag", from: inline) == true)
    }

    @Test("$-keys: Foundation escapes $0 as $$0 and we undo it; ours are escaped so Foundation finds them", arguments: PropertyListFormat.allCases)
    func dollarKeys(format: PropertyListFormat) throws {
        // Foundation writes, we read.
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = format.foundationFormat
        archiver.encode("zero" as NSString, forKey: "$0")
        archiver.encode("plain" as NSString, forKey: "plain")
        archiver.finishEncoding()
        let theirs = archiver.encodedData
        #expect(Set(try ArchiveDecoder().topLevelKeys(in: theirs)) == ["$0", "plain"])
        #expect(try ArchiveDecoder().decode(String.self, forKey: "$0", from: theirs) == "zero")

        // We write, Foundation reads: top-level and object keys alike.
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let ours = try encoder.encode(topLevel: ["$0": "zero", "$weird": DollarFields(dollar: "d", plain: 1)])
        #expect(try ArchiveDecoder().topLevelKeys(in: ours) == ["$0", "$weird"])
        let raw = try PropertyListValue(propertyList: ours)
        #expect(raw["$top"]?["$$0"] != nil)
        #expect(try foundationUnarchive(ours, key: "$0") as? String == "zero")
        let fields = try #require(try foundationUnarchive(ours, classes: ["DollarFields": DollarProbe.self], key: "$weird") as? DollarProbe)
        #expect(fields.dollar == "d")
        #expect(try ArchiveDecoder().decode(DollarFields.self, forKey: "$weird", from: ours) == DollarFields(dollar: "d", plain: 1))
    }

    @Test("$0-style keys listed by allKeys decode, escaped or not")
    func allKeysDollar() throws {
        struct AnyKeys: Decodable {
            var values: [String: Int] = [:]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: ArchiveCodingKey.self)
                for key in container.allKeys { values[key.stringValue] = try container.decode(Int.self, forKey: key) }
            }
        }
        // Go's archiver: `$0` unescaped; Foundation: `$$1`.
        let data = PropertyListValue.dictionary([
            PropertyListEntry(key: "$archiver", value: .string("NSKeyedArchiver")),
            PropertyListEntry(key: "$version", value: .integer(100_000)),
            PropertyListEntry(key: "$top", value: .dictionary([PropertyListEntry(key: "root", value: .uid(1))])),
            PropertyListEntry(key: "$objects", value: .array([
                .string("$null"),
                .dictionary([PropertyListEntry(key: "$class", value: .uid(2)),
                             PropertyListEntry(key: "$0", value: .integer(10)),
                             PropertyListEntry(key: "$$1", value: .integer(11))]),
                .dictionary([PropertyListEntry(key: "$classname", value: .string("Thing")),
                             PropertyListEntry(key: "$classes", value: .array([.string("Thing"), .string("NSObject")]))]),
            ])),
        ]).propertyListData(format: .binary)
        #expect(try ArchiveDecoder().decode(AnyKeys.self, from: data).values == ["$0": 10, "$1": 11])
    }

    @Test("A type that decodes a Dictionary through singleValueContainer() is not a cycle")
    func noFalseCycle() throws {
        struct Wrapper: Codable, Equatable {
            var entries: [String: Int]
            init(entries: [String: Int]) { self.entries = entries }
            init(from decoder: any Decoder) throws { entries = try decoder.singleValueContainer().decode([String: Int].self) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(entries)
            }
        }
        let value = [Wrapper(entries: ["a": 1]), Wrapper(entries: ["b": 2])]
        let data = try ArchiveEncoder().encode(value)
        #expect(try ArchiveDecoder().decode([Wrapper].self, from: data) == value)
        #expect(try ArchiveDecoder().decode(Wrapper?.self, from: try ArchiveEncoder().encode(value[0])) == value[0])
    }
}

struct DollarFields: Codable, Equatable, ArchivedClass {
    static let archivedClassName = "DollarFields"
    var dollar: String
    var plain: Int
    enum CodingKeys: String, CodingKey { case dollar = "$dollar", plain }
}

/// Reads ``DollarFields`` as NSCoding code would: `decodeObject(forKey: "$dollar")`.
final class DollarProbe: NSObject, NSCoding {
    let dollar: String?
    init?(coder: NSCoder) {
        dollar = coder.containsValue(forKey: "$dollar") ? coder.decodeObject(forKey: "$dollar") as? String : nil
    }
    func encode(with coder: NSCoder) {}
}

/// Reads ``NilAndTopLevelTests/Named`` as NSCoding code would.
final class NilProbe: NSObject, NSCoding {
    let name: String?
    let nickname: String?
    let hasNickname: Bool
    init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name") as? String
        hasNickname = coder.containsValue(forKey: "nickname")
        nickname = hasNickname ? coder.decodeObject(forKey: "nickname") as? String : "missing"
    }
    func encode(with coder: NSCoder) {}
}
