import Foundation
import Testing
@testable import KeyedArchive

// Round 6 (decdict): `[Key: Value]` from an NSDictionary inserts each entry with
// `updateValue(_:forKey:)` and builds a key's coding path only when its key is not a short
// plain string. These tests pin what must not change: the last of two keys with one text
// wins (no trap), a key with no text still throws with the entry's path, and large and
// nested string-keyed dictionaries read back whole.
@Suite("Codec: string-keyed dictionaries from NSDictionary")
struct StringKeyedDictionaryDecodeTests {
    @Test("Two keys with one text (the string \"1\" and the number 1) give one entry, without a trap")
    func sameTextTwice() throws {
        let data = foundationArchive(NSDictionary(dictionary: ["1": "string", 1: "number"]), format: .binary)
        let decoded = try ArchiveDecoder().decode([String: String].self, from: data)
        #expect(decoded.count == 1)
        #expect(decoded["1"] == "string" || decoded["1"] == "number")
    }

    @Test("A key with no text throws typeMismatch whose path is the entry's index")
    func keyWithoutTextNamesItsEntry() throws {
        let data = try renamedFoundationArchive(
            NSDictionary(dictionary: [FoundationGraphicID(7): 1, "plain": 2]),
            names: [(FoundationGraphicID.self, ["XDGraphicID", "NSObject"])])
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String: Int].self, from: data) }
        guard case .typeMismatch(_, let context)? = error else { Issue.record("expected typeMismatch, got \(String(describing: error))"); return }
        #expect(context.codingPath.count == 1)
        #expect(context.codingPath.first?.intValue != nil)
        #expect(context.debugDescription.contains("'XDGraphicID'"))
    }

    @Test("Large and nested [String: Int] dictionaries read back whole", arguments: PropertyListFormat.allCases)
    func largeAndNested(format: PropertyListFormat) throws {
        var counts: [String: Int] = [:]
        for i in 0..<3_000 { counts["key-\(i)-with-a-long-tail-\(i % 7)"] = i * 31 }
        var nested: [String: [String: Int]] = [:]
        for o in 0..<40 { nested["group-\(o)"] = Dictionary(uniqueKeysWithValues: (0..<12).map { ("field\($0)", o * 100 + $0) }) }
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        #expect(try ArchiveDecoder().decode([String: Int].self, from: try encoder.encode(counts)) == counts)
        #expect(try ArchiveDecoder().decode([String: [String: Int]].self, from: try encoder.encode(nested)) == nested)
    }
}
