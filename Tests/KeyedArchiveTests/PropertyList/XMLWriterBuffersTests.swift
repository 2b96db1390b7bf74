import Foundation
import Testing
@testable import KeyedArchive

// What the XML writer's two passes share: the reals' texts (XMLPlistRealTexts), against
// independent spellings.

@Suite("XML writer: real texts kept between the passes")
struct XMLWriterBuffersTests {
    /// A real's text from `description` (no trailing `.0`), as Foundation writes it.
    private static func expectedReal(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-infinity" : "+infinity" }
        let text = d.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    private static func text(_ texts: inout XMLPlistRealTexts, of value: Double) -> String {
        texts.withText(of: value) { String(decoding: $0, as: UTF8.self) }
    }

    /// Every real of a document, repeated ones and NaNs included, is written with its own
    /// text when the writing pass takes the texts the counting pass kept.
    @Test func documentRealsAreEachTheirOwnText() {
        var state: UInt64 = 0x9E37_79B9
        var values: [Double] = [0, -0.0, 1.5, 1.5, .nan, -.nan, .infinity, -.infinity, 0.1, 1e300, .leastNonzeroMagnitude]
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Double(bitPattern: state))
        }
        let written = String(decoding: XMLPropertyListWriter.write(.array(values.map { .real($0) })), as: UTF8.self)
        let expected = values.map { "\t<real>\(Self.expectedReal($0))</real>\n" }.joined()
        #expect(written.contains("<array>\n" + expected + "</array>\n"))
    }

    /// Kept texts are given back in order; a real that is not the next kept one (never, in a
    /// document) is formatted afresh rather than given another real's text.
    @Test func keptTextsOutOfStepAreFormattedAfresh() {
        var texts = XMLPlistRealTexts()
        #expect(Self.text(&texts, of: 1.5) == "1.5")
        #expect(Self.text(&texts, of: 0.25) == "0.25")
        texts.startReplay()
        #expect(Self.text(&texts, of: 0.25) == "0.25")  // out of step
        #expect(Self.text(&texts, of: 1.5) == "1.5")
        #expect(Self.text(&texts, of: 0.25) == "0.25")
        #expect(Self.text(&texts, of: 7) == "7")  // past the kept ones
    }
}
