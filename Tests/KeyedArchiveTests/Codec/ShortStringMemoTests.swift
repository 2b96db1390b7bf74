import Foundation
import Testing
@testable import KeyedArchive

// The decoder's fast path remembers the short strings it made by UID (ShortStringMemo) and
// copies one when its object is referenced again. These tests pin down that a remembered
// string is the same value and costs the same work as one made again, that the memo's
// entries are shared by placement without mixing strings up, and that a decoder kept past
// its decode still reads nothing.

/// An NSArray (object 1, class entry object 2) of the objects `elements` (UIDs), then `strings`
/// as objects 3, 4, …
private func stringList(_ elements: [UInt64], _ strings: [String]) -> Data {
    archive([dict(["$class": uid(2), "NS.objects": .array(elements.map { uid($0) })]), classEntry("NSArray")]
            + strings.map { PropertyListValue.string($0) })
}

private struct Named: Codable, Equatable {
    var name: String
    var nickname: String
}

/// Keeps the decoder of its `name` field, to use it after the decode has returned.
private struct KeepsDecoder: Decodable {
    let name: String
    let again: String
    let nameDecoder: any Decoder

    enum CodingKeys: String, CodingKey { case name, nickname }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nameDecoder = try container.superDecoder(forKey: .name)
        name = try nameDecoder.singleValueContainer().decode(String.self)
        again = try nameDecoder.singleValueContainer().decode(String.self)
    }
}

@Suite("Short string memo")
struct ShortStringMemoTests {
    /// Texts of every charging class: inline (< 16 bytes), charged (16–63 bytes), UTF-16
    /// (charged by their UTF-8 bytes), and long (made once per object by the general reader).
    static let texts = ["tea", "a string of 20 bytes", "naïve café 日本語 🙂", String(repeating: "x", count: 63),
                        String(repeating: "long ", count: 20)]

    @Test("A string referenced again is the same value and costs what a string made again costs", arguments: texts)
    func sameValueSameWork(text: String) throws {
        // Texts of one length, distinct (the property-list writer stores equal strings once).
        let texts = (0..<5).map { "\(text)\($0)" }
        let shared = stringList([3, 3, 3, 3, 3], [texts[0]])
        let distinct = stringList([3, 4, 5, 6, 7], texts)
        #expect(try ArchiveDecoder().decode([String].self, from: shared) == Array(repeating: texts[0], count: 5))
        #expect(try ArchiveDecoder().decode([String].self, from: distinct) == texts)
        let sharedWork = try decodeWork([String].self, shared), distinctWork = try decodeWork([String].self, distinct)
        let bytes = texts[0].utf8.count
        if texts[0].utf16.count < SharedLeafValues.sharedLength {
            // Each reference is made (or copied) and charged again.
            #expect(sharedWork.units == distinctWork.units)
            #expect(sharedWork.bytes == distinctWork.bytes)
            #expect(sharedWork.bytes == (bytes >= SharedLeafValues.inlineStringBytes ? 5 * bytes : 0))
        } else {
            // A long string is made once per object (the general reader's sharing).
            #expect(sharedWork.bytes == bytes)
            #expect(distinctWork.bytes == 5 * bytes)
        }
    }

    @Test("Each more reference to a remembered string costs its value, its element and its bytes")
    func workGrowsWithReferences() throws {
        let text = "twenty-byte string!!"  // 20 bytes: charged one unit per 4 bytes at each use
        let few = try decodeWork([String].self, stringList(Array(repeating: 3, count: 10), [text]))
        let many = try decodeWork([String].self, stringList(Array(repeating: 3, count: 1_010), [text]))
        #expect(many.units - few.units == 1_000 * (2 + text.utf8.count / ArchiveWorkBudget.bytesPerUnitMade))
        #expect(many.bytes - few.bytes == 1_000 * text.utf8.count)
    }

    @Test("The smallest budget that decodes remembered strings is the one that decodes strings made anew")
    func budgetExhaustion() throws {
        let texts = (0..<50).map { "a string of 20 bytes\($0 % 10)" }
        let shared = stringList(Array(repeating: 3, count: 50), [texts[0]])
        let distinct = stringList((0..<50).map { UInt64($0 + 3) }, texts)
        let smallest = try smallestDecodingBudget([String].self, shared)
        #expect(smallest == (try smallestDecodingBudget([String].self, distinct)))
        let decoder = ArchiveDecoder()
        decoder.limits = .init(maxObjectVisits: smallest - 1)
        #expect(throws: (any Error).self) { try decoder.decode([String].self, from: shared) }
    }

    @Test("More strings than the memo has entries, each referenced in turn, decode to their own texts")
    func entriesReplaced() throws {
        let count = ShortStringMemo.maxEntries + 300
        let strings = (0..<count).map { "s\($0)" }
        // Every string twice, the second pass backwards, so entries are replaced in between.
        let uids = (0..<count).map { UInt64($0 + 3) }
        let data = stringList(uids + uids.reversed(), strings)
        #expect(try ArchiveDecoder().decode([String].self, from: data) == strings + strings.reversed())
    }

    @Test("Strings read again after more strings than the memo's first entries decode to their own texts")
    func entriesGrown() throws {
        let count = 3 * ShortStringMemo.initialEntries + 100
        let strings = (0..<count).map { "s\($0)" }
        // Forward (first reads), then twice backwards (read again: remembered, the memo grows).
        let uids = (0..<count).map { UInt64($0 + 3) }
        let data = stringList(uids + uids.reversed() + uids.reversed(), strings)
        #expect(try ArchiveDecoder().decode([String].self, from: data) == strings + strings.reversed() + strings.reversed())
    }

    @Test("Only a string at or behind the furthest UID read so far is read again")
    func frontier() {
        var memo = ShortStringMemo()
        let behind = [5, 3, 5, 6, 4].map { memo.isBehindFrontier($0) }
        #expect(behind == [false, true, true, false, true])
    }

    @Test("The memo grows while it remembers more strings than it holds, up to the archive's objects and its maximum")
    func growthBounded() {
        var small = ShortStringMemo()
        for uid in 1...20_000 { small.remember("s\(uid)", uid: uid, objectCount: 5_000) }
        #expect(small.entryCount == 8_192)  // the power of two at or above 5,000 objects
        #expect(small.string(uid: 20_000) == "s20000")
        #expect(small.string(uid: 20_000 - 8_192) == nil)  // its entry was taken
        var large = ShortStringMemo()
        for uid in 1...(2 * ShortStringMemo.initialEntries) { large.remember("s\(uid)", uid: uid, objectCount: 1 << 30) }
        // Grew at the (initialEntries + 2)th string (the first made the entries), keeping what
        // they held: UID 1's entry was taken by UID initialEntries + 1 before, UID 2's was not.
        #expect(large.entryCount == 2 * ShortStringMemo.initialEntries)
        #expect(large.string(uid: 1) == nil)
        #expect(large.string(uid: 2) == "s2")
        #expect(large.string(uid: ShortStringMemo.initialEntries + 2) == "s\(ShortStringMemo.initialEntries + 2)")
        for uid in 1...(4 * ShortStringMemo.maxEntries) { large.remember("", uid: uid, objectCount: 1 << 30) }
        #expect(large.entryCount == ShortStringMemo.maxEntries)
    }

    @Test("Strings of keyed fields are remembered too: a shared name decodes in every object")
    func keyedFields() throws {
        let people = (0..<50).map { Named(name: "Person \($0 % 7)", nickname: $0 % 2 == 0 ? "even" : "an odd nickname!") }
        let data = try ArchiveEncoder().encode(people)
        #expect(try ArchiveDecoder().decode([Named].self, from: data) == people)
    }

    @Test("A non-string element, nil and an NSString object among remembered strings read as the general reader reads them")
    func otherElements() throws {
        // Objects: 3 "tea", 4 an integer, 5 an NSMutableString object of 6 "mutable", 7 its class.
        let objects: [PropertyListValue] = [
            .string("tea"), .integer(4),
            dict(["$class": uid(7), "NS.string": uid(6)]), .string("mutable"),
            classEntry("NSMutableString", superclasses: ["NSString", "NSObject"]),
        ]
        func list(_ elements: [UInt64]) -> Data {
            archive([dict(["$class": uid(2), "NS.objects": .array(elements.map { uid($0) })]), classEntry("NSArray")] + objects)
        }
        #expect(try ArchiveDecoder().decode([String].self, from: list([3, 5, 3, 5, 3])) == ["tea", "mutable", "tea", "mutable", "tea"])
        #expect(try ArchiveDecoder().decode([String?].self, from: list([3, 0, 3])) == ["tea", nil, "tea"])
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String].self, from: list([3, 3, 4])) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String].self, from: list([3, 0, 3])) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String].self, from: list([3, 3, 99])) }
    }

    @Test("A decoder kept past its decode throws for a string it read before")
    func keptDecoder() throws {
        let data = try ArchiveEncoder().encode(Named(name: "kept", nickname: "other"))
        let kept = try ArchiveDecoder().decode(KeepsDecoder.self, from: data)
        #expect(kept.name == "kept" && kept.again == "kept")
        _ = [UInt8](repeating: 0xAB, count: 1 << 16)  // reuse freed memory
        #expect(throws: (any Error).self) { try kept.nameDecoder.singleValueContainer().decode(String.self) }
    }
}
