import Foundation
import Testing
@testable import KeyedArchive

/// The component text AppKit writes (`NSRGB`, `NSComponents`): what parses, what does not.
@Suite("Colour component text")
struct ColorComponentTextTests {
    private func parse(_ text: String) -> [Double]? { ColorComponentText.parse(Data(text.utf8)) }

    @Test("Numbers separated by spaces, tabs and line feeds, NUL-terminated or not")
    func numbers() {
        #expect(parse("1 0.5 0\u{0}") == [1, 0.5, 0])
        #expect(parse("  0.25\t-1e-3\n4 ") == [0.25, -0.001, 4])
        #expect(parse("1 2\u{0}\u{0}\u{0}") == [1, 2])
        #expect(parse(String(repeating: " ", count: 60_000) + "1 1 1 1") == [1, 1, 1, 1])
    }

    @Test("Anything else is refused")
    func refused() {
        #expect(parse("") == nil)
        #expect(parse("   \u{0}") == nil)
        #expect(parse("1 x 2") == nil)
        #expect(parse("1\u{0}2") == nil)
        #expect(parse("1\u{0} ") == nil)
        #expect(parse("1e999") == nil)
        #expect(parse("1..2") == nil)
        #expect(parse(String(repeating: "1", count: 65)) == nil)
        #expect(parse(String(repeating: "1", count: 64)) != nil)
    }
}
