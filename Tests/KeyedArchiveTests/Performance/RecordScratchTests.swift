import Foundation
import Testing
@testable import KeyedArchive

// The open objects' scratch bytes (RecordScratch, issue 30 round 3) against the `[UInt8]`
// they replaced: the same bytes from the same writes, and the encoder's paths through
// them (growth, release of a large buffer, placeholders, dictionaries, reopening) keep
// their values.

/// A keyed object with `count` fields of every inline kind, under keys made at run time.
private struct ManyFields: Codable, Equatable {
    var count: Int
    var blob: Data

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(count: Int, blob: Data = Data()) {
        self.count = count
        self.blob = blob
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(count, forKey: Key(stringValue: "count"))
        try container.encode(blob, forKey: Key(stringValue: "blob"))
        for index in 0..<count {
            try container.encode(index * 1_000_003 - 7, forKey: Key(stringValue: "i\(index)"))
            try container.encode(Double(index) / 4, forKey: Key(stringValue: "d\(index)"))
            try container.encode(index % 2 == 0, forKey: Key(stringValue: "b\(index)"))
            try container.encode("s\(index % 5)", forKey: Key(stringValue: "s\(index)"))
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        count = try container.decode(Int.self, forKey: Key(stringValue: "count"))
        blob = try container.decode(Data.self, forKey: Key(stringValue: "blob"))
        for index in 0..<count {
            guard try container.decode(Int.self, forKey: Key(stringValue: "i\(index)")) == index * 1_000_003 - 7,
                  try container.decode(Double.self, forKey: Key(stringValue: "d\(index)")) == Double(index) / 4,
                  try container.decode(Bool.self, forKey: Key(stringValue: "b\(index)")) == (index % 2 == 0),
                  try container.decode(String.self, forKey: Key(stringValue: "s\(index)")) == "s\(index % 5)"
            else {
                throw DecodingError.dataCorruptedError(forKey: Key(stringValue: "i\(index)"), in: container, debugDescription: "field \(index) differs")
            }
        }
    }
}

/// A value written through `superEncoder(forKey:)` (a placeholder UID filled in later).
private struct WithSuperKey: Codable, Equatable {
    var inner: [Int]
    var name: String

    enum CodingKeys: String, CodingKey { case inner, name }

    init(inner: [Int], name: String) {
        self.inner = inner
        self.name = name
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try inner.encode(to: container.superEncoder(forKey: .inner))
        try container.encode(name, forKey: .name)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        inner = try [Int](from: container.superDecoder(forKey: .inner))
        name = try container.decode(String.self, forKey: .name)
    }
}

/// Keeps its keyed container past its own `encode(to:)` (its object is stored, then
/// opened again to take the later field).
private final class LateWriter: Encodable {
    var kept: KeyedEncodingContainer<WithSuperKey.CodingKeys>?
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WithSuperKey.CodingKeys.self)
        try container.encode([1, 2, 3], forKey: .inner)
        kept = container
    }
}

private struct LateHolder: Encodable {
    let writer: LateWriter
    enum CodingKeys: String, CodingKey { case first, second }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(writer, forKey: .first)
        try writer.kept?.encode("late", forKey: .name)
        try container.encode(7, forKey: .second)
    }
}

@Suite("Open objects' scratch bytes (RecordScratch)")
struct RecordScratchTests {
    /// Every field kind, elements and raw bytes written through `ObjectRecord` into a
    /// scratch and into an array: the same bytes, across many growths of the scratch.
    @Test func sameBytesAsAnArray() {
        var scratch = RecordScratch(capacity: 0)
        var array: [UInt8] = []
        var placeholders: [Int] = []
        for index in 0..<5_000 {
            let key = Int32(index % 300)
            let values: [ObjectBox.Value] = [
                .uid(Int32(index)), .integer(Int64(index) * 99_991), .integer(-Int64(index) - 1),
                .integer(.min), .integer(.max), .real(Double(index) / 3), .float(Float(index) / 7),
                .bool(index % 3 == 0), .data(Data((0..<(index % 40)).map { UInt8($0) })),
            ]
            for value in values {
                let inScratch = ObjectRecord.appendField(key: key, value, to: &scratch)
                let inArray = ObjectRecord.appendField(key: key, value, to: &array)
                #expect(inScratch == inArray)
                if case .uid = value { placeholders.append(inScratch) }
            }
            scratch.appendLE32(UInt32(truncatingIfNeeded: index &* 2_654_435_761))
            array.appendLE32(UInt32(truncatingIfNeeded: index &* 2_654_435_761))
            scratch.appendLE64(UInt64(index) << 40 | 0xAB)
            array.appendLE64(UInt64(index) << 40 | 0xAB)
        }
        // Placeholders filled in, as `superEncoder(forKey:)` fills its field.
        for (number, offset) in placeholders.enumerated() where number % 7 == 0 {
            let value = UInt32(truncatingIfNeeded: number &* 40_503)
            scratch.setLE32(value, at: offset)
            for byte in 0..<4 { array[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }
        #expect(scratch.count == array.count)
        #expect(Array(scratch.bytes(from: 0)) == array)
        #expect(Array(scratch.bytes(from: 1_000)) == Array(array[1_000...]))
        #expect(scratch.bytes(from: scratch.count).isEmpty)
        // Emptied, it is written again from the start.
        scratch.removeAll()
        #expect(scratch.count == 0)
        scratch.appendBytes([9, 8, 7] as [UInt8])
        #expect(Array(scratch.bytes(from: 0)) == [9, 8, 7])
        // (`bytes(from:)` points into the scratch: read while it is alive.)
        let copy = RecordScratch(copying: array)
        withExtendedLifetime(copy) { #expect(Array(copy.bytes(from: 0)) == array) }
    }

    /// A record's header written into room kept before its bytes (as `moveRecord` does)
    /// and UIDs appended in one go: the bytes of appending them one by one.
    @Test func headerRoomAndBulkUIDsMatchAppends() {
        // A class UID (at most 5 bytes) and a count (at most 10): the room holds both.
        for classBits in [0, 127, 128, UInt64(UInt32.max)] {
            for count in [0, 1, 127, 128, 16_384, UInt64(UInt32.max), UInt64.max] {
                var scratch = RecordScratch()
                var array: [UInt8] = []
                scratch.appendUninitialized(OpenObject.headerRoom)
                let start = OpenObject.headerRoom - ObjectRecord.varintSize(classBits) - ObjectRecord.varintSize(count)
                let countAt = scratch.storeVarint(classBits, at: start)
                #expect(scratch.storeVarint(count, at: countAt) == OpenObject.headerRoom)
                ObjectRecord.appendVarint(classBits, to: &array)
                ObjectRecord.appendVarint(count, to: &array)
                #expect(Array(scratch.bytes(from: start)) == array, "\(classBits), \(count)")
            }
        }
        let uids: [Int32] = [0, 1, -1, .max, .min, 123_456_789, 42]
        var bulk = RecordScratch(capacity: 0)
        var single: [UInt8] = []
        bulk.appendLE32s(uids.count) { UInt32(bitPattern: uids[$0]) }
        for uid in uids { single.appendLE32(UInt32(bitPattern: uid)) }
        #expect(Array(bulk.bytes(from: 0)) == single)
    }

    /// Objects larger than the scratch keeps (64 KB: its buffer is released and a new one
    /// made), objects after them at the same level, and small ones: values kept.
    @Test func largeAndSmallObjectsRoundTrip() throws {
        let values = [ManyFields(count: 3), ManyFields(count: 4_000, blob: Data(repeating: 0x5A, count: 70_000)),
                      ManyFields(count: 2), ManyFields(count: 40), ManyFields(count: 0)]
        for format in [ArchiveEncoder.OutputFormat.binary, .xml] {
            let encoder = ArchiveEncoder()
            encoder.outputFormat = format
            let data = try encoder.encode(values)
            #expect(try ArchiveDecoder().decode([ManyFields].self, from: data) == values, "\(format)")
            // Deterministic: a second encode gives the same bytes.
            #expect(try encoder.encode(values) == data)
        }
    }

    /// A placeholder field filled in after its value (`superEncoder(forKey:)`), dictionary
    /// keys and values (two scratch buffers), nested levels.
    @Test func placeholdersDictionariesAndNestingRoundTrip() throws {
        let values = (0..<50).map { WithSuperKey(inner: Array(0..<($0 % 9)), name: "n\($0)") }
        let data = try ArchiveEncoder().encode(values)
        #expect(try ArchiveDecoder().decode([WithSuperKey].self, from: data) == values)
        let dictionaries = (0..<30).map { outer in
            Dictionary(uniqueKeysWithValues: (0..<(outer * 7)).map { ("k\($0)", [outer, $0]) })
        }
        let dictionaryData = try ArchiveEncoder().encode(dictionaries)
        #expect(try ArchiveDecoder().decode([[String: [Int]]].self, from: dictionaryData) == dictionaries)
    }

    /// A container written to after its value is done: its object is stored, then opened
    /// again (its bytes copied back into a scratch) for the late field.
    @Test func reopenedObjectKeepsItsFields() throws {
        let data = try ArchiveEncoder().encode(LateHolder(writer: LateWriter()))
        let decoded = try ArchiveDecoder().decode(LateHolderPlain.self, from: data)
        #expect(decoded.first == WithSuperKeyPlain(inner: [1, 2, 3], name: "late"))
        #expect(decoded.second == 7)
    }
}

/// The plain decoding of ``LateHolder``'s object.
private struct LateHolderPlain: Decodable {
    var first: WithSuperKeyPlain
    var second: Int
}

/// The plain decoding of ``LateWriter``'s object.
private struct WithSuperKeyPlain: Decodable, Equatable {
    var inner: [Int]
    var name: String
}
