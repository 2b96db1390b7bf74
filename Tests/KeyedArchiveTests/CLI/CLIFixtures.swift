import Foundation
import KeyedArchive
import Testing

// Archives for the CLI tests, made here by Foundation's own NSKeyedArchiver, and raw
// property lists for archives that no archiver would write (for `verify`).

/// A person with one field of each kind the tool shows specially. On Linux, NSCoding
/// classes must be top-level classes; they archive as `KeyedArchiveTests.CLIPerson`.
final class CLIPerson: NSObject, NSCoding {
    let name: String
    let age: Int
    let height: Double
    let birthday: Date
    let photo: Data
    let homepage: URL
    let id: UUID
    let tags: [String]
    var friend: CLIPerson?

    init(name: String, age: Int, height: Double, birthday: Date, homepage: URL, id: UUID, tags: [String]) {
        self.name = name
        self.age = age
        self.height = height
        self.birthday = birthday
        self.photo = Data(name.utf8)
        self.homepage = homepage
        self.id = id
        self.tags = tags
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(age, forKey: "age")
        coder.encode(height, forKey: "height")
        coder.encode(birthday as NSDate, forKey: "birthday")
        coder.encode(photo as NSData, forKey: "photo")
        coder.encode(homepage as NSURL, forKey: "homepage")
        coder.encode(id as NSUUID, forKey: "id")
        coder.encode(tags as NSArray, forKey: "tags")
        coder.encode(friend, forKey: "friend")
    }

    required init?(coder: NSCoder) { nil }  // the tests never decode
}

enum CLIFixtures {
    /// `[ada, grace, ada]`: Ada and Grace are each other's friend (a cycle) and Ada
    /// appears twice (a shared object). Ada's homepage is relative to a base URL.
    static func team() throws -> Data {
        let base = try #require(URL(string: "https://example.com/people/"))
        let ada = CLIPerson(
            name: "Ada", age: 36, height: 1.65, birthday: Date(timeIntervalSince1970: -4_861_728_000),
            homepage: try #require(URL(string: "ada", relativeTo: base)),
            id: try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")), tags: ["math", "engines"])
        let grace = CLIPerson(
            name: "Grace", age: 85, height: 1.7, birthday: Date(timeIntervalSince1970: -2_005_948_800.25),
            homepage: try #require(URL(string: "https://example.com/grace")),
            id: try #require(UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34")), tags: ["cobol"])
        ada.friend = grace
        grace.friend = ada
        return try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: [ada, grace, ada]), requiringSecureCoding: false)
    }

    /// A dictionary of Foundation values whose JSON forms the tests check one by one.
    static func values() throws -> Data {
        let dictionary: NSDictionary = [
            "date": NSDate(timeIntervalSinceReferenceDate: 600_000_000.5),
            "big": NSNumber(value: UInt64.max),
            "small": NSNumber(value: Int64.min),
            "pi": NSNumber(value: Double.pi),
            "tenth": NSNumber(value: 0.1),
            "infinity": NSNumber(value: Double.infinity),
            "nan": NSNumber(value: Double.nan),
            "numberKeys": NSDictionary(dictionary: [NSNumber(value: 1): "one", NSNumber(value: 2.5): "two and a half"]),
            "text": "tab\there \"quoted\" é ✓",
            "bytes": NSData(data: Data([0, 1, 2, 255])),
            "set": NSSet(array: ["only"]),
            "null": NSNull(),
        ]
        return try NSKeyedArchiver.archivedData(withRootObject: dictionary, requiringSecureCoding: false)
    }

    // MARK: Raw archives

    /// An archive envelope around `objects` (index 0, `$null`, is added).
    static func raw(_ objects: [PropertyListValue], top: [(String, UInt64)] = [("root", 1)]) -> Data {
        let root = PropertyListValue.dictionary([
            .init(key: "$archiver", value: .string("NSKeyedArchiver")),
            .init(key: "$version", value: .integer(100_000)),
            .init(key: "$top", value: .dictionary(top.map { .init(key: $0.0, value: .uid($0.1)) })),
            .init(key: "$objects", value: .array([.string("$null")] + objects)),
        ])
        return root.propertyListData(format: .binary)
    }

    /// An object of the class entry at `classUID` with `fields`.
    static func object(_ classUID: UInt64, _ fields: [(String, PropertyListValue)]) -> PropertyListValue {
        .dictionary([.init(key: "$class", value: .uid(classUID))] + fields.map { .init(key: $0.0, value: $0.1) })
    }

    /// A class entry.
    static func classEntry(_ name: String) -> PropertyListValue {
        .dictionary([
            .init(key: "$classname", value: .string(name)),
            .init(key: "$classes", value: .array([.string(name), .string("NSObject")])),
        ])
    }
}
