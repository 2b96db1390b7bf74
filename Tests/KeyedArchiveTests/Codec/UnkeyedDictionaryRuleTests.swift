import Foundation
import Testing
@testable import KeyedArchive

// Issue 52: an NSDictionary gives its keys and values to an unkeyed container only for a
// type that asks for them (Swift's Dictionary, ArchiveKeyValuePairsDecodable); every other
// type — a generic value probing for an array, a nested container — gets typeMismatch.

/// A generic value that asks for an unkeyed container first, as quicktype's `JSONAny` does.
private indirect enum UnkeyedFirst: Decodable, Equatable {
    case list([UnkeyedFirst])
    case object([String: UnkeyedFirst])
    case text(String)
    case number(Int)

    init(from decoder: any Decoder) throws {
        if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [UnkeyedFirst] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(UnkeyedFirst.self)) }
            self = .list(items)
        } else if let keyed = try? decoder.container(keyedBy: JSONCodingKey.self) {
            var entries: [String: UnkeyedFirst] = [:]
            for key in keyed.allKeys { entries[key.stringValue] = try keyed.decode(UnkeyedFirst.self, forKey: key) }
            self = .object(entries)
        } else if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .text(text)
        } else {
            self = .number(try decoder.singleValueContainer().decode(Int.self))
        }
    }
}

/// The ``ArchiveKeyValuePairsDecodable`` example of the documentation.
private struct OrderedEntries<Key: Hashable & Decodable, Value: Decodable>: ArchiveKeyValuePairsDecodable {
    var entries: [(key: Key, value: Value)] = []

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            let key = try container.decode(Key.self)
            entries.append((key, try container.decode(Value.self)))
        }
    }
}

/// Runs Swift's `Dictionary.init(from:)` on its own decoder without adopting the protocol.
private struct DirectDictionary: Decodable {
    var value: [URL: String]
    init(from decoder: any Decoder) throws { value = try [URL: String](from: decoder) }
}

/// Reads its `info` field through a nested unkeyed container.
private struct NestedList: Decodable {
    enum CodingKeys: String, CodingKey { case info }
    var count: Int
    init(from decoder: any Decoder) throws {
        count = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .info).count ?? -1
    }
}

/// Holds typed dictionaries of the key types that decode each key object.
private struct KeyedByObjects: Codable, Equatable {
    var urls: [URL: Int]
    var ids: [UUID: String]
    var numbers: [Int: String]
    var dates: [Date: Bool]
    var nested: [[URL: Int]]
}

@Suite("Codec: only a type that asks for pairs reads an NSDictionary from an unkeyed container")
struct UnkeyedDictionaryRuleTests {
    @Test("A generic value that tries an unkeyed container first reads a dictionary as a dictionary", arguments: PropertyListFormat.allCases)
    func unkeyedFirstReadsDictionaries(format: PropertyListFormat) throws {
        let data = foundationArchive(NSDictionary(dictionary: ["name": "Ada", "tags": NSArray(array: ["a", "b"]),
                                                               "inner": NSDictionary(dictionary: ["k": "v"])]),
                                     format: format.foundationFormat)
        #expect(try ArchiveDecoder().decode(UnkeyedFirst.self, from: data)
                == .object(["name": .text("Ada"), "tags": .list([.text("a"), .text("b")]), "inner": .object(["k": .text("v")])]))
    }

    @Test("Any other type gets typeMismatch naming the class, the object and the path")
    func otherTypesAreRefused() throws {
        let data = foundationArchive(NSDictionary(dictionary: [URL(string: "a:b")!: "c"]))
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(DirectDictionary.self, from: data) }
        guard case .typeMismatch(_, let context)? = error else { Issue.record("expected typeMismatch, got \(String(describing: error))"); return }
        #expect(context.debugDescription.hasPrefix("Expected an array but found an NSDictionary at object 1"))
        #expect(context.debugDescription.contains("DirectDictionary asked for an unkeyed container"))
        #expect(context.debugDescription.contains("ArchiveKeyValuePairsDecodable"))

        let nested = try archive(["info": ["k": "v"]] as [String: [String: String]], format: .binary)
        let nestedError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(NestedList.self, from: nested) }
        guard case .typeMismatch(_, let nestedContext)? = nestedError else { Issue.record("expected typeMismatch, got \(String(describing: nestedError))"); return }
        #expect(nestedContext.codingPath.map(\.stringValue) == ["info"])
        #expect(nestedContext.debugDescription.contains("path 'info'"))
        #expect(nestedContext.debugDescription.contains("a nested unkeyed container"))
        // Arrays and sets, as before.
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String].self, from: data) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Set<String>.self, from: data) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(ContiguousArray<String>.self, from: data) }
    }

    @Test("A type that adopts ArchiveKeyValuePairsDecodable reads keys and values alternately", arguments: PropertyListFormat.allCases)
    func adoptersReadPairs(format: PropertyListFormat) throws {
        let a = URL(string: "https://example.com/a")!
        let data = try archive([a: 1] as [URL: Int], format: format)
        let read = try ArchiveDecoder().decode(OrderedEntries<URL, Int>.self, from: data)
        #expect(read.entries.map(\.key) == [a])
        #expect(read.entries.map(\.value) == [1])
        // An empty dictionary is no pairs at all.
        #expect(try ArchiveDecoder().decode(OrderedEntries<URL, Int>.self, from: try archive([:] as [URL: Int], format: format)).entries.isEmpty)
        // The traits say so once per type.
        #expect(DecodableTraits.readsPairs(OrderedEntries<URL, Int>.self))
        #expect(DecodableTraits.readsPairs([URL: Int].self))
        #expect(!DecodableTraits.readsPairs([URL].self))
        #expect(!DecodableTraits.readsPairs(UnkeyedFirst.self))
    }

    @Test("[URL: V], [UUID: V], [Int: V] and [Date: V] keep decoding, at the top and nested", arguments: PropertyListFormat.allCases)
    func objectKeyedDictionaries(format: PropertyListFormat) throws {
        let value = KeyedByObjects(urls: [URL(string: "file:///a")!: 1, URL(string: "https://b.example")!: 2],
                                   ids: [UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!: "x"],
                                   numbers: [1: "one", -3: "minus three"],
                                   dates: [Date(timeIntervalSinceReferenceDate: 5): true],
                                   nested: [[URL(string: "file:///c")!: 3], [:]])
        let data = try archive(value, format: format)
        #expect(try ArchiveDecoder().decode(KeyedByObjects.self, from: data) == value)
        #expect(try ArchiveDecoder().decode([URL: Int].self, from: try archive(value.urls, format: format)) == value.urls)
        #expect(try ArchiveDecoder().decode([UUID: String].self, from: try archive(value.ids, format: format)) == value.ids)
        #expect(try ArchiveDecoder().decode([Int: String].self, from: try archive(value.numbers, format: format)) == value.numbers)
        #expect(try ArchiveDecoder().decode([Date: Bool].self, from: try archive(value.dates, format: format)) == value.dates)
    }
}
