import Foundation
import Testing
@testable import KeyedArchive

// The encoder's object table keeps each object's fields in a scratch level while its value
// is being encoded and stores them as a compact record once it is done; the binary writer
// numbers and sizes the file in one pass over the table and writes it in a second. These
// tests cover the paths ordinary values do not take: containers used after their value
// is done, containers filled in turns, placeholders filled late, and files whose
// references need 2 and 4 bytes.

private struct Key: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Holds a container past the `encode(to:)` that made it.
private final class Stash: @unchecked Sendable {
    var container: KeyedEncodingContainer<Key>?
}

/// Writes `a`, and leaves its container in `stash` for the parent to finish.
private struct LateChild: Encodable {
    let stash: Stash
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key("a"))
        stash.container = container
    }
}

/// Encodes a `LateChild`, then another field, then writes `other` into the child's container
/// (a key it used first, so both archives intern their keys in the same order).
private struct LateParent: Encodable {
    func encode(to encoder: any Encoder) throws {
        let stash = Stash()
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(7, forKey: Key("other"))
        try container.encode(LateChild(stash: stash), forKey: Key("child"))
        try container.encode(8, forKey: Key("last"))
        try stash.container?.encode(2, forKey: Key("other"))
    }
}

/// The same archive written in the usual order.
private struct DirectChild: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key("a"))
        try container.encode(2, forKey: Key("other"))
    }
}

private struct DirectParent: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(7, forKey: Key("other"))
        try container.encode(DirectChild(), forKey: Key("child"))
        try container.encode(8, forKey: Key("last"))
    }
}

/// Fills a nested keyed container, a nested unkeyed one and its own fields in turns.
private struct Interleaved: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var inner = container.nestedContainer(keyedBy: Key.self, forKey: Key("inner"))
        var list = container.nestedUnkeyedContainer(forKey: Key("list"))
        try inner.encode(1, forKey: Key("a"))
        try list.encode("one")
        try container.encode(5, forKey: Key("z"))
        try inner.encode(2, forKey: Key("b"))
        try list.encode("two")
        var deeper = list.nestedUnkeyedContainer()
        try container.encode("after", forKey: Key("y"))
        try deeper.encode(3)
    }
}

private struct InterleavedBack: Decodable, Equatable {
    var inner: [String: Int]
    var list: [AnyScalar]
    var z: Int
    var y: String
}

/// A string, or a list of integers.
private enum AnyScalar: Decodable, Equatable {
    case text(String)
    case numbers([Int])
    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .text(text)
        } else {
            self = .numbers(try decoder.singleValueContainer().decode([Int].self))
        }
    }
}

/// Takes a `superEncoder(forKey:)`, writes another object, then fills the placeholder.
private struct LatePlaceholder: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        let base = container.superEncoder(forKey: Key("base"))
        try container.encode([1, 2, 3], forKey: Key("list"))
        var unkeyed = container.nestedUnkeyedContainer(forKey: Key("more"))
        let element = unkeyed.superEncoder()
        try unkeyed.encode(9)
        var baseFields = base.container(keyedBy: Key.self)
        try baseFields.encode("named", forKey: Key("name"))
        var single = element.singleValueContainer()
        try single.encode("filled")
    }
}

private struct LatePlaceholderBack: Decodable, Equatable {
    struct Base: Decodable, Equatable { var name: String }
    var base: Base
    var list: [Int]
    var more: [TextOrNumber]
}

/// A string or an integer.
private enum TextOrNumber: Decodable, Equatable {
    case text(String)
    case number(Int)
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) { self = .text(text) } else { self = .number(try container.decode(Int.self)) }
    }
}

/// A placeholder in an NSDictionary (a nested keyed container), filled after another entry.
private struct LateDictionaryEntry: Encodable {
    let index: Int
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        var entries = container.nestedContainer(keyedBy: Key.self, forKey: Key("entries"))
        let late = entries.superEncoder(forKey: Key("late"))
        try entries.encode(index, forKey: Key("early"))
        var single = late.singleValueContainer()
        try single.encode("late \(index)")
    }
}

private struct LateDictionaryEntryBack: Decodable, Equatable {
    var entries: [String: TextOrNumber]
}

/// An encoder that names the late and the direct parents and children alike, so that
/// their archives can be compared byte for byte.
private func lateAndDirectEncoder(format: PropertyListFormat) -> ArchiveEncoder {
    let encoder = ArchiveEncoder()
    encoder.outputFormat = format
    encoder.setClassName("Parent", for: LateParent.self)
    encoder.setClassName("Parent", for: DirectParent.self)
    encoder.setClassName("Child", for: LateChild.self)
    encoder.setClassName("Child", for: DirectChild.self)
    return encoder
}

@Suite("Object table storage and the two-pass binary writer")
struct ObjectTableStorageTests {
    @Test("A container used after its value is done writes the same archive as one used in time", arguments: PropertyListFormat.allCases)
    func containerOutlivesItsValue(format: PropertyListFormat) throws {
        let encoder = lateAndDirectEncoder(format: format)
        let late = try encoder.encode(LateParent())
        let direct = try encoder.encode(DirectParent())
        #expect(late == direct)
    }

    @Test("Nested containers filled in turns keep every field", arguments: PropertyListFormat.allCases)
    func interleavedContainers(format: PropertyListFormat) throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let data = try encoder.encode(Interleaved())
        let back = try ArchiveDecoder().decode(InterleavedBack.self, from: data)
        #expect(back == InterleavedBack(inner: ["a": 1, "b": 2], list: [.text("one"), .text("two"), .numbers([3])], z: 5, y: "after"))
    }

    @Test("Placeholders from superEncoder are filled after other objects are written", arguments: PropertyListFormat.allCases)
    func latePlaceholders(format: PropertyListFormat) throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let data = try encoder.encode(LatePlaceholder())
        let back = try ArchiveDecoder().decode(LatePlaceholderBack.self, from: data)
        #expect(back.base.name == "named")
        #expect(back.list == [1, 2, 3])
        #expect(back.more == [.text("filled"), .number(9)])
    }

    // A scratch level holds the objects stored from it one after the other until it is
    // emptied (every 4 KB): many values in a row put the late writes above at every offset.
    @Test("Late writes into objects that follow others at their level", arguments: PropertyListFormat.allCases)
    func lateWritesAfterOtherObjects(format: PropertyListFormat) throws {
        let encoder = lateAndDirectEncoder(format: format)
        let count = 400
        #expect(try encoder.encode(Array(repeating: LateParent(), count: count)) == encoder.encode(Array(repeating: DirectParent(), count: count)))
        let placeholders = try ArchiveDecoder().decode(
            [LatePlaceholderBack].self, from: encoder.encode(Array(repeating: LatePlaceholder(), count: count)))
        #expect(placeholders.count == count)
        #expect(placeholders.allSatisfy { $0.base.name == "named" && $0.list == [1, 2, 3] && $0.more == [.text("filled"), .number(9)] })
        let entries = try ArchiveDecoder().decode(
            [LateDictionaryEntryBack].self, from: encoder.encode((0..<count).map(LateDictionaryEntry.init)))
        #expect(entries == (0..<count).map { LateDictionaryEntryBack(entries: ["late": .text("late \($0)"), "early": .number($0)]) })
    }

    @Test("Files whose references take 1, 2 and 4 bytes read back in Foundation", arguments: [10, 300, 70_000])
    func referenceWidths(count: Int) throws {
        let strings = (0..<count).map { "s\($0)" }
        let data = try ArchiveEncoder().encode(strings)
        #expect(try ArchiveDecoder().decode([String].self, from: data) == strings)
        // An independent reader: Foundation's property-list parser sees every string.
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let objects = (plist as? [String: Any])?["$objects"] as? [Any]
        let found = Set((objects ?? []).compactMap { $0 as? String })
        #expect(found.isSuperset(of: strings))
        let trailer = [UInt8](data.suffix(32))
        let refSize = Int(trailer[7])
        #expect(refSize == (count < 200 ? 1 : count < 60_000 ? 2 : 4))
    }

    @Test("Data shared by content is written once, in fields and as objects")
    func sharedData() throws {
        struct Blobs: Codable, Equatable { var a: Data; var b: Data; var list: [Data]; var ids: [UUID] }
        let blob = Data((0..<40).map { UInt8($0) })
        let id = UUID()
        let value = Blobs(a: blob, b: blob, list: [blob, Data(), Data([1])], ids: [id, id])
        let data = try ArchiveEncoder().encode(value)
        #expect(try ArchiveDecoder().decode(Blobs.self, from: data) == value)
        let occurrences = data.withUnsafeBytes { raw in
            (0...(raw.count - blob.count)).filter { start in raw[start..<(start + blob.count)].elementsEqual(blob) }.count
        }
        #expect(occurrences == 1)
    }
}
