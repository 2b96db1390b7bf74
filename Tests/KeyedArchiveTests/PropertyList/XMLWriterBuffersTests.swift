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
        let third = 0.1 + 0.2, pi = Double.pi
        #expect(Self.text(&texts, of: third) == "0.30000000000000004")
        #expect(Self.text(&texts, of: 2.5) == "2.5")  // quick: not kept
        #expect(Self.text(&texts, of: pi) == "3.141592653589793")
        texts.startReplay()
        #expect(Self.text(&texts, of: pi) == "3.141592653589793")  // out of step
        #expect(Self.text(&texts, of: third) == "0.30000000000000004")
        #expect(Self.text(&texts, of: 2.5) == "2.5")
        #expect(Self.text(&texts, of: pi) == "3.141592653589793")
        #expect(Self.text(&texts, of: 1e300) == "1e+300")  // past the kept ones
    }

    /// Which reals are spelled from their digits (and so neither kept nor given back).
    @Test func quickRealsAreTheWholeAndTheShortDecimals() {
        for quick in [0, -0.0, 7, -12, 999_999_999_999_999, 2.5, -0.125, 0.001, 51.25, 99_999_999_999.5, .nan, .infinity] {
            #expect(XMLPlistRealText.quick(quick) != nil, "\(quick)")
        }
        for slow in [0.1 + 0.2, .pi, 1e15, 1e300, 0.0009, 0.12345, 1e11 + 0.5, .leastNonzeroMagnitude] {
            #expect(XMLPlistRealText.quick(slow) == nil, "\(slow)")
        }
    }

    /// Every real read from a text of one to four decimals (up to 15 significant digits)
    /// between 0.001 and 10^11 passes the cheap check that turns most other reals away before
    /// the quick tries (so no real the tries would take is turned away), and every text is
    /// Swift's. The benchmark's doubles (20 binary decimals) are turned away by the check.
    @Test func theQuickCheckTurnsAwayNoShortDecimal() {
        var state: UInt64 = 0x2545_F491
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 11) % bound
        }
        func expectSwiftsText(_ value: Double) {
            XMLPlistRealText(value).withBytes { #expect(String(decoding: $0, as: UTF8.self) == Self.expectedReal(value)) }
        }
        var powers: [UInt64] = [1]
        for _ in 1...15 { powers.append(powers[powers.count - 1] * 10) }
        var checked = 0
        for _ in 0..<20_000 {
            let decimals = Int(next(4)) + 1
            let digits = Int(next(UInt64(16 - decimals))) + decimals  // decimals...15 significant digits
            let whole = next(powers[digits]) / 10 * 10 + 1 + next(9)  // last digit nonzero
            let value = Double(whole) / Double(powers[decimals])  // one rounding: the text's value
            guard value >= 0.001, value < 1e11 else { continue }
            #expect(XMLPlistRealText.mayHaveFourDecimals(value), "\(whole) / 10^\(decimals)")
            expectSwiftsText(value)
            expectSwiftsText(-value)
            checked += 1
        }
        #expect(checked > 10_000)
        for _ in 0..<20_000 {
            let value = Double(next(1_000_000)) + Double(next(1 << 19) * 2 + 1) / Double(1 << 20)  // exact
            #expect(!XMLPlistRealText.mayHaveFourDecimals(value), "\(value)")
            #expect(XMLPlistRealText.quick(value) == nil, "\(value)")
            expectSwiftsText(value)
        }
    }
}
