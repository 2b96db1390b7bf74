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
    /// `[String: Int]`, `[String: String]` and `[String: Double]` are read by code specialized
    /// for them (`Dictionary._archiveDecode`); any other value type by the generic code. Both
    /// read the same entries from every layout: Foundation's NSDictionary, ours in binary and
    /// XML, an object's fields, and an NSCountedSet (objects and their counts).
    @Test("Specialized value types decode as the generic path, from every layout")
    func specializedEqualsGeneric() throws {
        let names = (0..<300).map { $0 % 7 == 0 ? "a longer key, past fifteen bytes \($0)" : "k\($0)" }
        let ints = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 * 7 - 1_000) })
        let strings = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, "value \($0)") })
        let reals = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, Double($0) / 4) })
        var archives: [(String, Data)] = [
            ("Foundation ints", foundationArchive(NSDictionary(dictionary: ints))),
            ("Foundation strings", foundationArchive(NSDictionary(dictionary: strings))),
            ("Foundation reals", foundationArchive(NSDictionary(dictionary: reals))),
            ("fields", try ArchiveEncoder().encode(FieldsRecord(first: 1, second: 2))),
            ("counted set", foundationArchive(NSCountedSet(array: ["x", "y", "y", "z", "z", "z"]))),
        ]
        for format in PropertyListFormat.allCases {
            let encoder = ArchiveEncoder()
            encoder.outputFormat = format
            archives += [("ints \(format)", try encoder.encode(ints)), ("strings \(format)", try encoder.encode(strings)),
                         ("reals \(format)", try encoder.encode(reals))]
        }
        let decoder = ArchiveDecoder()
        var decodedAny = 0
        for (name, data) in archives {
            // The specialized and generic readings agree, including on which archives throw.
            let int = try? decoder.decode([String: Int].self, from: data)
            #expect(int == (try? decoder.decode([String: Plain<Int>].self, from: data))?.mapValues(\.value), "\(name) as Int")
            let string = try? decoder.decode([String: String].self, from: data)
            #expect(string == (try? decoder.decode([String: Plain<String>].self, from: data))?.mapValues(\.value), "\(name) as String")
            let real = try? decoder.decode([String: Double].self, from: data)
            #expect(real == (try? decoder.decode([String: Plain<Double>].self, from: data))?.mapValues(\.value), "\(name) as Double")
            decodedAny += [int == nil, string == nil, real == nil].filter { !$0 }.count
        }
        #expect(try decoder.decode([String: Int].self, from: archives[0].1) == ints)
        #expect(try decoder.decode([String: String].self, from: archives[1].1) == strings)
        #expect(try decoder.decode([String: Double].self, from: archives[2].1) == reals)
        #expect(try decoder.decode([String: Int].self, from: archives[3].1) == ["first": 1, "second": 2])
        #expect(try decoder.decode([String: Int].self, from: archives[4].1) == ["x": 1, "y": 2, "z": 3])
        #expect(decodedAny >= archives.count)
    }

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

/// A value read through a single-value container: `[String: Plain<V>]` takes the generic
/// dictionary path where `[String: V]` takes the specialized one.
private struct Plain<Value: Decodable & Equatable>: Decodable, Equatable {
    var value: Value
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
}

/// A keyed object whose fields read as a `[String: Int]`.
private struct FieldsRecord: Codable {
    var first: Int
    var second: Int
}
