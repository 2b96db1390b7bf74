import Foundation
import Testing
@testable import KeyedArchive

// The table's record chunks made at full size with each record copied into its place, the
// file sink's one-store references, the writer's loop over fields made per reference width,
// and the encoder's key caches kept per level (issue 30 round 3, flatenc).

/// A record with fields of several kinds and a nested record of another Key type.
private struct Outer: Codable, Equatable {
    struct Inner: Codable, Equatable {
        var label: String
        var size: Int
    }
    var name: String
    var number: Int
    var ratio: Double
    var flag: Bool
    var inner: Inner?
    var blob: Data
}

private func outers(_ count: Int) -> [Outer] {
    (0..<count).map { i in
        Outer(name: "n\(i)", number: i * 7 - 3, ratio: Double(i) / 8, flag: i % 2 == 0,
              inner: i % 3 == 2 ? nil : Outer.Inner(label: "l\(i % 50)", size: i % 11),
              blob: Data([UInt8(truncatingIfNeeded: i), 1, 2]))
    }
}

@Suite("Record arena and per-width fields")
struct RecordArenaTests {
    @Test("Records copied into chunks read back byte for byte, across chunk boundaries and past a chunk's size")
    func recordsReadBack() {
        var arena = ChunkedBytes()
        var expected: [(address: UInt64, bytes: [UInt8])] = []
        // Small records fill the growing chunks (1 KB, 2 KB, …); one of 100,000 bytes gets its own.
        let sizes = (0..<3_000).map { 1 + $0 % 97 } + [100_000] + (0..<50).map { 2 + $0 }
        for (index, size) in sizes.enumerated() {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            let address = arena.append(size: size, reader: index) { place in
                #expect(place.count == size)
                place.copyBytes(from: bytes)
            }
            expected.append((address, bytes))
        }
        #expect(arena.chunks.count > 7)
        for record in expected {
            let cursor = arena.cursor(at: record.address)
            #expect(Array(cursor.bytes[cursor.position..<(cursor.position + record.bytes.count)]) == record.bytes)
        }
    }

    @Test("Releasing frees each chunk once no later entry reads it, the last chunk too")
    func releaseByLastReader() {
        var arena = ChunkedBytes()
        // Readers out of order, as nested objects are stored before the objects that hold them.
        var readers: [Int] = []
        for index in 0..<2_000 { readers.append(index % 2 == 0 ? index : 4_000 - index) }
        for reader in readers {
            _ = arena.append(size: 40, reader: reader) { place in _ = place.initializeMemory(as: UInt8.self, repeating: 1) }
        }
        let chunkCount = arena.chunks.count
        #expect(chunkCount > 2)
        arena.release(readBy: 1_999)
        // Every chunk holds an odd index's record, read by an entry above 2,000.
        #expect(arena.chunks.allSatisfy { !$0.isEmpty })
        arena.release(readBy: 4_000)
        #expect(arena.chunks.count == chunkCount)
        #expect(arena.chunks.allSatisfy { $0.isEmpty })
    }

    @Test("The file sink's references and numbers equal the protocol's byte-by-byte form", arguments: [1, 2, 3, 4, 8])
    func bigEndianWidths(size: Int) {
        let values: [UInt64] = [0, 1, 0x7F, 0xFF, 0x1234, 0xFFFF, 0x12_3456, 0xDEAD_BEEF, 0x0102_0304_0506_0708, .max]
        for value in values {
            var reference: [UInt8] = []
            reference.putBigEndian(value, size: size)
            var bytes = [UInt8](repeating: 0xAA, count: size + 2)
            bytes.withUnsafeMutableBufferPointer { buffer in
                var sink = FileSink(buffer, at: 1)
                sink.putBigEndian(value, size: size)
                #expect(sink.position == 1 + size)
            }
            #expect(Array(bytes[1..<(1 + size)]) == reference)
            #expect(bytes.first == 0xAA && bytes.last == 0xAA)
        }
    }

    @Test("Keyed objects in files whose references take 1, 2 and 4 bytes read back, in Foundation too",
          arguments: [3, 400, 20_000])
    func fieldsAtEveryWidth(count: Int) throws {
        let values = outers(count)
        let data = try ArchiveEncoder().encode(values)
        #expect(try ArchiveDecoder().decode([Outer].self, from: data) == values)
        let trailer = [UInt8](data.suffix(32))
        #expect(Int(trailer[7]) == (count < 10 ? 1 : count < 1_000 ? 2 : 4))
        // An independent reader: Foundation's parser finds every record's fields.
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let objects = (plist as? [String: Any])?["$objects"] as? [Any] ?? []
        let records = objects.compactMap { $0 as? [String: Any] }.filter { $0["name"] != nil }
        #expect(records.count == count)
        #expect(records.allSatisfy { $0.count == 7 && $0["number"] is NSNumber && $0["flag"] != nil })
    }

    @Test("Key caches per level: records and the records they nest alternate, each keeps its keys")
    func alternatingKeyTypes() throws {
        struct Leaf: Codable, Equatable { var z: Int; var y: String }
        struct Middle: Codable, Equatable { var leaf: Leaf; var b: Int; var other: Leaf? }
        struct Top: Codable, Equatable { var middle: Middle; var a: String; var leaf: Leaf }
        let values = (0..<50).map { i in
            Top(middle: Middle(leaf: Leaf(z: i, y: "y\(i)"), b: -i, other: i % 2 == 0 ? Leaf(z: 2 * i, y: "o") : nil),
                a: "a\(i)", leaf: Leaf(z: i + 1, y: "t"))
        }
        let data = try ArchiveEncoder().encode(values)
        #expect(try ArchiveDecoder().decode([Top].self, from: data) == values)
        // Each type's keys, as Foundation reads them.
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let objects = (plist as? [String: Any])?["$objects"] as? [Any] ?? []
        let dictionaries = objects.compactMap { $0 as? [String: Any] }
        let keySets = Set(dictionaries.filter { $0["$classes"] == nil && $0["NS.objects"] == nil }.map { Set($0.keys) })
        #expect(keySets == [["$class", "z", "y"], ["$class", "leaf", "b", "other"], ["$class", "middle", "a", "leaf"]])
    }
}
