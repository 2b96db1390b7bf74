import Foundation
import Testing
@testable import KeyedArchive

// A `Data` of 32 MB or more (`XMLPlistDocument.largeDocumentBytes`) is written into a block
// that grows (XMLPlistGrowingSink.swift), after a counting pass that stops formatting reals
// at that size; the writing pass takes the kept texts while they last and formats the rest.
// These tests lower that size so small documents take the same path, and check that every
// way of writing gives the same bytes: past the limit at every point, across the block's
// doublings, and for a piece larger than a doubling.

@Suite("XML writer: large documents")
struct XMLWriterLargeDocumentTests {
    /// Written as a large document from `large` bytes on, it is the same as written exactly.
    private static func expectSameBytes(_ value: PropertyListValue, large: Int, _ comment: Comment) {
        let document = XMLPropertyListWriter.TreeDocument(value: value)
        let exact = Data(XMLPlistDocument.bytes(document))
        #expect(XMLPlistDocument.data(document, large: large) == exact, comment)
        #expect(XMLPlistDocument.data(document) == exact, comment)
        #expect(exact == Data(XMLPropertyListWriter.write(value)), comment)
    }

    /// Reals (some repeated, NaNs and whole numbers among them) between other lines.
    private static func mixed(_ count: Int) -> PropertyListValue {
        var state: UInt64 = 0x9E37_79B9
        var items: [PropertyListValue] = []
        for k in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            switch k % 6 {
            case 0: items.append(.real(Double(bitPattern: state)))
            case 1: items.append(.integer(Int64(bitPattern: state)))
            case 2: items.append(.string("s<\(state)>&"))
            case 3: items.append(.real(k % 12 == 3 ? .nan : Double(Int64(bitPattern: state) >> 30) / 8))
            case 4: items.append(.uid(state >> 40))
            default: items.append(.real(1.5))
            }
        }
        return .array(items)
    }

    @Test func theLimitFallingAnywhereGivesTheSameBytes() {
        let value = Self.mixed(300)
        let size = XMLPlistDocument.bytes(XMLPropertyListWriter.TreeDocument(value: value)).count
        for large in stride(from: 1, through: size + 1, by: 37) {
            Self.expectSameBytes(value, large: large, "large from \(large) of \(size) bytes")
        }
    }

    @Test func aDocumentAcrossManyDoublingsGivesTheSameBytes() {
        // About 2 MB, most of it reals past a limit of 4 KB: the block grows from 5 KB.
        Self.expectSameBytes(Self.mixed(60_000), large: 4_096, "60,000 items")
    }

    @Test func aPieceLargerThanADoublingIsWrittenWhole() {
        let long = String(repeating: "x<&>", count: 1 << 18)  // a 1 MB line
        Self.expectSameBytes(.array([.real(0.1), .string(long), .real(0.2)]), large: 64, "a 1 MB line")
        let data = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        Self.expectSameBytes(.array([.array([.data(data)]), .real(3)]), large: 64, "700 KB of data")
    }

    @Test func theCounterStopsCountingRealsAtItsLimit() {
        let reals = PropertyListValue.array((0..<100).map { .real(Double($0) + 0.5) })
        let exact = XMLPlistDocument.size(of: XMLPropertyListWriter.TreeDocument(value: reals)).count
        let limited = XMLPlistDocument.size(of: XMLPropertyListWriter.TreeDocument(value: reals), limit: 400).count
        #expect(limited >= 400)
        #expect(limited < exact)
    }

    @Test func theGrowingSinkKeepsEveryPieceInOrder() {
        var sink = XMLPlistGrowingSink(capacity: 10)
        var expected: [UInt8] = []
        // Sizes from 0 to past several doublings; each piece is filled with its own byte.
        for (k, size) in [0, 1, 7, 65_535, 1, 200_000, 3, 1 << 20, 0, 5].enumerated() {
            let byte = UInt8(k + 1)
            sink.append(count: size) { start in start.update(repeating: byte, count: size) }
            expected += repeatElement(byte, count: size)
        }
        #expect(!sink.failed)
        #expect(sink.position == expected.count)
        #expect(sink.takeData() == Data(expected))
    }

    @Test func anEmptyGrowingSinkGivesEmptyData() {
        var sink = XMLPlistGrowingSink(capacity: 0)
        #expect(sink.takeData() == Data())
    }
}
