import Foundation
import Testing
@testable import KeyedArchive

// A `[String: V]`'s entries are gathered in one pass straight into arrays of the
// dictionary's size (SpecialEncodable.swift, `gatheredEntries`), and its keys' sort keys
// written in place (ASCIIPrefixKeySort.swift, `stringSortKeys`). Values of any type,
// reference-counted ones included, must come out as before: the specialized value types
// and the generic path give the same bytes, and an error thrown by a value leaves nothing
// behind and names its key.

/// A value encoded through a single-value container: the generic `[String: V]` path.
private struct Wrapped<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
    init(_ value: Value) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// Throws when its value is negative, at the encoder's coding path.
private struct Picky: Encodable {
    var value: Int
    func encode(to encoder: any Encoder) throws {
        if value < 0 {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "refused"))
        }
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// A class value: its instances are reference-counted.
private final class GatherNode: Codable, Equatable {
    let name: String
    let children: [String]
    init(name: String, children: [String]) {
        self.name = name
        self.children = children
    }
    static func == (lhs: GatherNode, rhs: GatherNode) -> Bool { lhs.name == rhs.name && lhs.children == rhs.children }
}

/// Keys around the radix sort's size, shared heads, some past 16 bytes, some not ASCII.
private func keys(_ count: Int) -> [String] {
    (0..<count).map { index in
        let key = index % 4 == 0 ? "com.example.long.shared.head.\(index)" : "key-\(index * 7_919 % 10_007)-\(index)"
        return index % 61 == 30 ? key + "é" : key
    }
}

@Suite("String-keyed dictionaries: entries gathered in one pass")
struct StringKeyedGatherTests {
    /// `[String: Int]` and `[String: String]` (their specialized paths) give the bytes the
    /// generic path gives for the same values, in binary and XML.
    @Test("Specialized value types encode as the generic path", arguments: [0, 1, 17, 64, 65, 1_000])
    func specializedEqualsGeneric(count: Int) throws {
        let names = keys(count)
        let ints = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 % 37) })
        let strings = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, "value \($0 % 41) of a long string") })
        for format in PropertyListFormat.allCases {
            let encoder = ArchiveEncoder()
            encoder.outputFormat = format
            #expect(try encoder.encode(ints) == encoder.encode(ints.mapValues(Wrapped.init)), "\(count) ints, \(format)")
            #expect(try encoder.encode(strings) == encoder.encode(strings.mapValues(Wrapped.init)), "\(count) strings, \(format)")
        }
    }

    /// Values that are reference-counted (long strings, arrays, class instances, nested
    /// dictionaries) round-trip, keys in `<` order, and the encode is deterministic.
    @Test("Reference-counted values round-trip in key order", arguments: [3, 64, 500])
    func referenceCountedValues(count: Int) throws {
        let names = keys(count)
        let nodes = Dictionary(uniqueKeysWithValues: names.enumerated().map { index, name in
            (name, GatherNode(name: "node \(index) with a name longer than fifteen bytes", children: names.prefix(index % 5).map { $0 }))
        })
        let nested = Dictionary(uniqueKeysWithValues: names.enumerated().map { index, name in
            (name, ["inner \(index % 3)": [name, name + " again"]])
        })
        for format in PropertyListFormat.allCases {
            let (decodedNodes, _, raw) = try roundTrip(nodes, format: format)
            #expect(decodedNodes == nodes)
            guard case .array(let list)? = raw.root?["NS.keys"] else { Issue.record("no keys"); continue }
            let stored = list.compactMap { key -> String? in
                if case .string(let name)? = raw.resolve(key) { return name }
                return nil
            }
            #expect(stored == names.sorted(), "\(count) keys, \(format)")
            let (decodedNested, _, _) = try roundTrip(nested, format: format)
            #expect(decodedNested == nested)
        }
    }

    /// The keys, and values of a trivial type, are moved into key order out of the encoder's
    /// own gathered copies (`movedInOrder`): the caller's dictionary is as it was (its long
    /// keys are reference-counted strings, moved without a retain), a second encode gives the
    /// same bytes, and trivial values other than `Int` (`Double`, `Bool`) decode to the same.
    @Test("Entries moved into key order leave the dictionary as it was", arguments: [2, 64, 65, 700])
    func movedEntriesLeaveDictionary(count: Int) throws {
        let names = keys(count)
        func reals() -> [String: Double] { Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, Double($0) / 8) }) }
        func flags() -> [String: Bool] { Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 % 3 == 0) }) }
        let (realValues, flagValues) = (reals(), flags())
        for format in PropertyListFormat.allCases {
            let encoder = ArchiveEncoder()
            encoder.outputFormat = format
            let first = try encoder.encode(realValues)
            #expect(try encoder.encode(realValues) == first, "\(count) reals, \(format)")
            #expect(try ArchiveDecoder().decode([String: Double].self, from: first) == reals())
            let flagData = try encoder.encode(flagValues)
            #expect(try ArchiveDecoder().decode([String: Bool].self, from: flagData) == flags())
        }
        #expect(realValues == reals() && flagValues == flags())
        #expect(realValues.keys.sorted() == names.sorted())
    }

    /// A value that throws stops the encode with its error, at its key's path, whichever
    /// entry it is; the same encoder then encodes the dictionary without it.
    @Test("An entry's error names its key", arguments: [1, 20, 64, 300])
    func errorNamesKey(count: Int) throws {
        let names = keys(count)
        let failing = names[count / 2]
        var value = Dictionary(uniqueKeysWithValues: names.map { ($0, Picky(value: $0.count)) })
        value[failing] = Picky(value: -1)
        let encoder = ArchiveEncoder()
        do {
            _ = try encoder.encode(value)
            Issue.record("encoded a refused value")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == [failing], "\(count) entries")
        }
        value[failing] = Picky(value: 1)
        let data = try encoder.encode(value)
        let decoded = try ArchiveDecoder().decode([String: Int].self, from: data)
        #expect(decoded == value.mapValues(\.value))
    }
}
