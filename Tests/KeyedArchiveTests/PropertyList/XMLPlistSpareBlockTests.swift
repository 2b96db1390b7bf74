import Foundation
import Testing
@testable import KeyedArchive

// A large XML document's block goes back to XMLPlistSpareBlock when its Data is freed, and the
// next large document is written into it (XMLPlistSpareBlock.swift). These tests use spares of
// their own, not the shared one, so that tests running at the same time do not take their
// blocks.

@Suite("XML writer: the spare block of large documents")
struct XMLPlistSpareBlockTests {
    /// A sink from `spares` that writes `pieces` (each a run of one byte), and its `Data`.
    private static func write(_ pieces: [(byte: UInt8, count: Int)], capacity: Int, spares: XMLPlistSpareBlock) -> Data? {
        var sink = XMLPlistGrowingSink(capacity: capacity, spares: spares)
        for piece in pieces {
            sink.append(count: piece.count) { start in start.update(repeating: piece.byte, count: piece.count) }
        }
        return sink.takeData()
    }

    private static func expected(_ pieces: [(byte: UInt8, count: Int)]) -> Data {
        Data(pieces.flatMap { repeatElement($0.byte, count: $0.count) })
    }

    @Test func aFreedDocumentsBlockIsKeptAndWrittenOverByTheNext() throws {
        let spares = XMLPlistSpareBlock(limit: 1 << 20)
        let first: [(byte: UInt8, count: Int)] = [(1, 5_000), (2, 3_000)]
        do {
            let data = try #require(Self.write(first, capacity: 10_000, spares: spares))
            withExtendedLifetime(data) {
                #expect(data == Self.expected(first))
                #expect(spares.isEmpty, "the block is the Data's while it lives")
            }
        }
        #expect(!spares.isEmpty, "the freed Data gave its block back")
        // Shorter than the first: none of the first document's bytes show through.
        let second: [(byte: UInt8, count: Int)] = [(3, 100), (4, 2_000)]
        let again = try #require(Self.write(second, capacity: 1_000, spares: spares))
        #expect(spares.isEmpty, "the second document took the kept block")
        #expect(again == Self.expected(second))
    }

    @Test func aKeptBlockTooSmallIsGrown() throws {
        let spares = XMLPlistSpareBlock(limit: 1 << 20)
        _ = Self.write([(7, 10)], capacity: 16, spares: spares)  // freed at once
        #expect(!spares.isEmpty)
        let pieces: [(byte: UInt8, count: Int)] = [(5, 40_000), (6, 90_000)]
        let data = try #require(Self.write(pieces, capacity: 50_000, spares: spares))
        #expect(data == Self.expected(pieces))
    }

    @Test func aBlockOverTheLimitOrASecondOneIsFreed() throws {
        let spares = XMLPlistSpareBlock(limit: 4_096)
        _ = Self.write([(1, 10_000)], capacity: 10_000, spares: spares)
        #expect(spares.isEmpty, "a block larger than the limit is not kept")
        do {
            let one = try #require(Self.write([(2, 100)], capacity: 1_000, spares: spares))
            let two = try #require(Self.write([(3, 100)], capacity: 1_000, spares: spares))
            #expect(one != two)
            // Both are freed at the end of this scope: the first freed is kept, the other freed.
        }
        let kept = try #require(spares.take())
        #expect(spares.isEmpty, "one block at most is kept")
        free(kept.block)
    }
}
