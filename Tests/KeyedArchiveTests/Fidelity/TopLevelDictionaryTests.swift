import Foundation
import KeyedArchive
import Testing

/// `encode(topLevel:)` takes a dictionary built at run time, and writes its keys in
/// sorted order, so the same entries always give the same bytes.
@Suite("Fidelity: encode(topLevel:) with a run-time dictionary")
struct TopLevelDictionaryTests {
    struct Person: Codable, Equatable { var name: String; var age: Int }

    static let people = [Person(name: "Ada", age: 36), Person(name: "Grace", age: 45), Person(name: "Linus", age: 28)]

    /// The entries inserted in the given order of indices.
    static func entries(insertedIn order: [Int]) -> [String: any Encodable] {
        var entries: [String: any Encodable] = [:]
        for index in order { entries["person\(index)"] = people[index] }
        entries["count"] = people.count
        return entries
    }

    @Test("a run-time dictionary encodes, in sorted key order, the same bytes whatever its insertion order",
          arguments: PropertyListFormat.allCases)
    func runTimeDictionary(format: PropertyListFormat) throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let first = try encoder.encode(topLevel: Self.entries(insertedIn: [0, 1, 2]))
        let second = try encoder.encode(topLevel: Self.entries(insertedIn: [2, 0, 1]))
        #expect(first == second)
        #expect(try ArchiveDecoder().topLevelKeys(in: first) == ["count", "person0", "person1", "person2"])
        for (index, person) in Self.people.enumerated() {
            #expect(try ArchiveDecoder().decode(Person.self, forKey: "person\(index)", from: first) == person)
        }
        // The same bytes as KeyValuePairs given in sorted order.
        let pairs: KeyValuePairs<String, any Encodable> = [
            "count": 3, "person0": Self.people[0], "person1": Self.people[1], "person2": Self.people[2],
        ]
        #expect(try encoder.encode(topLevel: pairs) == first)
        // Foundation's unarchiver finds every key.
        #expect((try foundationUnarchive(first, key: "count") as? NSNumber)?.intValue == 3)
    }

    @Test("KeyValuePairs keep the order given")
    func pairsKeepOrder() throws {
        let pairs: KeyValuePairs<String, any Encodable> = ["zeta": 1, "alpha": "two"]
        #expect(try ArchiveDecoder().topLevelKeys(in: try ArchiveEncoder().encode(topLevel: pairs)) == ["zeta", "alpha"])
        // A literal passed straight in is a Dictionary: sorted.
        let literal = try ArchiveEncoder().encode(topLevel: ["zeta": 1, "alpha": "two"])
        #expect(try ArchiveDecoder().topLevelKeys(in: literal) == ["alpha", "zeta"])
    }
}
