import Foundation
import Testing
@testable import KeyedArchive

// `XMLPlistDocument.data` writes a document in one pass into a block that grows
// (XMLPlistGrowingSink.swift); `bytes` and `countedData` count first and write into a buffer
// of the exact size. These tests check that both ways give the same bytes, across the
// growing block's doublings, for pieces larger than a doubling, and for reals (formatted
// where they are written in one pass, kept from the counting pass in two).

@Suite("XML writer: one pass into a growing block")
struct XMLWriterOnePassTests {
    /// A document of one value.
    private struct One: XMLPlistDocumentWriter {
        let value: PropertyListValue
        func write<Sink: XMLPlistByteSink>(into output: inout XMLPlistOutput<Sink>) {
            output.beginDocument()
            output.value(value, indent: 0)
            output.endDocument()
        }
    }

    /// The three ways agree, byte for byte.
    private static func expectSameBytes(_ value: PropertyListValue, _ comment: Comment) {
        let document = One(value: value)
        let onePass = XMLPlistDocument.data(document)
        let counted = XMLPlistDocument.countedData(document)
        #expect(onePass == counted, comment)
        #expect(onePass == Data(XMLPlistDocument.bytes(document)), comment)
        #expect(onePass == Data(XMLPropertyListWriter.write(value)), comment)
    }

    @Test func smallDocumentsMatchTheCountedOnes() {
        let values: [PropertyListValue] = [
            .array([]), .string(""), .string("a & <b>"), .integer(.min), .unsignedInteger(.max), .real(-0.0),
            .float(0.1), .bool(false), .date(-63_114_076_800), .data(Data([0, 1, 2])), .uid(4_294_967_295),
            XMLPropertyListTests.dict([("k&", .real(.nan)), ("", .array([.real(.infinity), .real(1e300)]))]),
        ]
        for value in values { Self.expectSameBytes(value, "\(value)") }
    }

    @Test func documentsAcrossManyDoublingsMatchTheCountedOnes() {
        // About 3 MB of small lines: the block doubles from 64 KB several times.
        var state: UInt64 = 0x9E37_79B9
        var items: [PropertyListValue] = []
        for k in 0..<60_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            switch k % 5 {
            case 0: items.append(.real(Double(bitPattern: state)))
            case 1: items.append(.integer(Int64(bitPattern: state)))
            case 2: items.append(.string("s<\(state)>&"))
            case 3: items.append(.uid(state >> 40))
            default: items.append(.real(Double(Int64(bitPattern: state) >> 30) / 8))
            }
        }
        Self.expectSameBytes(.array(items), "60,000 items")
    }

    @Test func aPieceLargerThanADoublingIsWrittenWhole() {
        // One string line of 1 MB (16 times the first block), between small lines.
        let long = String(repeating: "x<&>", count: 1 << 18)
        Self.expectSameBytes(.array([.integer(1), .string(long), .integer(2)]), "a 1 MB line")
        // Base64 of 700 KB: many lines, each appended as one piece.
        let data = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        Self.expectSameBytes(.array([.array([.data(data)])]), "700 KB of data")
    }

    @Test func theGrowingSinkKeepsEveryPieceInOrder() {
        var sink = XMLPlistGrowingSink()
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
        var sink = XMLPlistGrowingSink()
        #expect(sink.takeData() == Data())
    }
}
