import Foundation
import Testing
@testable import KeyedArchive

// A string entry's payload carries the string's layout as a binary plist object (issue 30,
// round 9, dictenc): the binary writer's first pass sizes strings from it without reading
// them, and its second writes an ASCII string's bytes without checking them again.

@Suite("String entry payloads")
struct StringEntryPayloadTests {
    /// The layout recorded is the size the writer would compute from the string, and whether
    /// it is all ASCII; the position reads back, small or large.
    @Test func layoutAndPositionReadBack() {
        let strings = ["", "a", "key-1234-567", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop",
                       String(repeating: "x", count: 300), "é", "e\u{301}", "日本語", "emoji🙂",
                       String(repeating: "ü", count: 70), "\u{0}", "tab\tnew\nline\u{7F}"]
        for (index, string) in strings.enumerated() {
            for position in [0, index, 1 << 20, 1 << 39 | index] {
                let payload = StringEntryPayload.make(position: position, of: string)
                #expect(StringEntryPayload.position(payload) == position, "\(string) at \(position)")
                let layout = StringEntryPayload.layout(payload)
                #expect(layout?.size == BinaryPlistEncoding.stringSize(string), "\(string)")
                #expect(layout?.isASCII == string.utf8.allSatisfy { $0 < 0x80 }, "\(string)")
            }
        }
    }

    /// The size rule from the two counts is the one from the bytes: ASCII strings are their
    /// bytes, any other string its UTF-16 units, with the marker's size for either.
    @Test func sizeFromCountsEqualsSizeFromBytes() {
        for string in ["", "plain", String(repeating: "a", count: 14), String(repeating: "a", count: 15),
                       String(repeating: "a", count: 256), "é", String(repeating: "é", count: 15), "🙂🙂", "a🙂"] {
            let ascii = string.utf8.allSatisfy { $0 < 0x80 }
            let units = ascii ? string.utf8.count : string.utf16.count
            let expected = BinaryPlistEncoding.markerSize(count: units) + (ascii ? units : 2 * units)
            #expect(BinaryPlistEncoding.stringSize(utf8Count: string.utf8.count, utf16Count: string.utf16.count) == expected, "\(string)")
            #expect(BinaryPlistEncoding.stringSize(string) == expected, "\(string)")
        }
    }

    /// Strings of the table come back from their entries, and the archive's strings are
    /// written as before: ASCII, non-ASCII and long ones, in binary and XML.
    @Test func tableStringsAndArchivesRoundTrip() throws {
        let table = ArchiveObjectTable()
        let strings = ["key", "clé", String(repeating: "long ", count: 40), "🙂", ""]
        let uids = strings.map { table.string($0) }
        for (uid, string) in zip(uids, strings) {
            guard case .string(let stored) = table.entry(uid) else { Issue.record("\(string): not a string"); continue }
            #expect(stored == string)
        }
        let value = Dictionary(uniqueKeysWithValues: strings.enumerated().map { ($1, $0) })
        for format in PropertyListFormat.allCases {
            let (decoded, _, _) = try roundTrip(value, format: format)
            #expect(decoded == value, "\(format)")
        }
    }
}

@Suite("Chunked arrays: appends to the tail chunk")
struct ChunkedArrayTailTests {
    /// Elements read and written back across chunk boundaries (the tail full, retired, and
    /// partly filled), by subscript and by runs.
    @Test func readsAndWritesAcrossTheTail() {
        var array = ChunkedArray<Int>()
        for count in [0, 1, 8_191, 8_192, 8_193, 16_384, 20_001] {
            array = ChunkedArray()
            for value in 0..<count { array.append(value * 3) }
            #expect(array.count == count)
            #expect(array.indices.allSatisfy { array[$0] == $0 * 3 }, "\(count)")
            for index in stride(from: 0, to: count, by: 997) { array[index] = -index }
            if count > 0 { array[count - 1] = -1 }
            #expect(array.indices.allSatisfy { array[$0] == ($0 == count - 1 ? -1 : $0 % 997 == 0 ? -$0 : $0 * 3) }, "\(count)")
            var start = 0
            var read: [Int] = []
            while start < count {
                let run = array.run(from: start, to: count)
                read += run
                start += run.count
            }
            #expect(read == array.indices.map { array[$0] }, "\(count)")
        }
    }

    /// Releasing chunks below an index keeps every element above it readable, a full tail
    /// included, and appends after a release go on from the count.
    @Test func releaseKeepsTheRestAndAppendsGoOn() {
        var array = ChunkedArray<UInt64>()
        for value in 0..<16_384 { array.append(UInt64(value)) }
        array.release(below: 8_192)
        #expect((8_192..<16_384).allSatisfy { array[$0] == UInt64($0) })
        array.release(below: 16_384)  // the full tail too
        array.append(7)
        array.append(8)
        #expect(array.count == 16_386)
        #expect(array[16_384] == 7 && array[16_385] == 8)
        var bulk = ChunkedArray<UInt64>()
        [UInt64](repeating: 5, count: 9_000).withUnsafeBufferPointer { bulk.append(contentsOf: $0) }
        bulk.release(below: 8_192)
        bulk.append(6)
        #expect(bulk.count == 9_001 && bulk[8_999] == 5 && bulk[9_000] == 6)
    }
}
