import Foundation
import Testing
@testable import KeyedArchive

/// A keyed container handed out again (`KeyedContainerReuse.swift`) is pointed at its new
/// object in place: its core is not retained, its coding path is exchanged for the new one,
/// and the texts of an NSDictionary's keys are set only when either object has them. Each
/// object must still see its own coding path and its own keys.
@Suite("Keyed containers pointed at their next object")
struct KeyedContainerHandOutTests {
    /// Records the coding path its container reports, and its `name`.
    struct PathRecorder: Decodable, Equatable {
        var path: [String]
        var name: String
        enum CodingKeys: String, CodingKey { case name }
        init(path: [String], name: String) {
            self.path = path
            self.name = name
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = container.codingPath.map(\.stringValue)
            name = try container.decode(String.self, forKey: .name)
        }
    }

    struct Named: Encodable {
        var name: String
    }

    struct Holder: Decodable, Equatable {
        var first: [PathRecorder]
        var second: PathRecorder
        var third: [PathRecorder]
    }

    struct HolderSource: Encodable {
        var first: [Named]
        var second: Named
        var third: [Named]
    }

    @Test("Each object handed the spare of its depth reports its own coding path")
    func codingPaths() throws {
        let source = HolderSource(first: (0..<3).map { Named(name: "f\($0)") }, second: Named(name: "s"),
                                  third: (0..<2).map { Named(name: "t\($0)") })
        let data = try ArchiveEncoder().encode(source)
        let expected = Holder(
            first: (0..<3).map { PathRecorder(path: ["first", "Index \($0)"], name: "f\($0)") },
            second: PathRecorder(path: ["second"], name: "s"),
            third: (0..<2).map { PathRecorder(path: ["third", "Index \($0)"], name: "t\($0)") })
        // Twice: the second decode starts with spares of its own.
        #expect(try ArchiveDecoder().decode(Holder.self, from: data) == expected)
        #expect(try ArchiveDecoder().decode(Holder.self, from: data) == expected)
    }

    /// A dictionary with integer keys or with string keys, encoded as an NSDictionary.
    enum Either: Encodable {
        case numbers([Int: String])
        case names([String: String])
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .numbers(let value): try container.encode(value)
            case .names(let value): try container.encode(value)
            }
        }
    }

    /// The keys and values an NSDictionary's keyed container lists.
    struct Entries: Decodable, Equatable {
        var entries: [String: String]
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) {
                stringValue = "\(intValue)"
                self.intValue = intValue
            }
        }
        init(entries: [String: String]) { self.entries = entries }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            var entries: [String: String] = [:]
            for key in container.allKeys { entries[key.stringValue] = try container.decode(String.self, forKey: key) }
            self.entries = entries
        }
    }

    @Test("Dictionaries with integer keys and with string keys, one after the other, list their own keys")
    func keyTextsFollowTheObject() throws {
        let values: [Either] = [.numbers([1: "one", 2: "two"]), .names(["a": "x"]), .names(["b": "y", "c": "z"]),
                                .numbers([3: "three"]), .numbers([4: "four"]), .names(["d": "w"])]
        let decoded = try ArchiveDecoder().decode([Entries].self, from: try ArchiveEncoder().encode(values))
        #expect(decoded == [Entries(entries: ["1": "one", "2": "two"]), Entries(entries: ["a": "x"]),
                            Entries(entries: ["b": "y", "c": "z"]), Entries(entries: ["3": "three"]),
                            Entries(entries: ["4": "four"]), Entries(entries: ["d": "w"])])
    }
}
