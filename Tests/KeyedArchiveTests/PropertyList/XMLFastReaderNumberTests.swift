import Foundation
import Testing
@testable import KeyedArchive

/// The fast XML reader's integers, its UID form and the whitespace between tags (runs
/// matched against an earlier one before a byte loop), against the general parser.
@Suite("XML fast reader: numbers, UIDs and whitespace runs")
struct XMLFastReaderNumberTests {
    /// Integers and UIDs of every digit count, signs, leading zeros, at the end of the input.
    static let numberCases: [String] = {
        var cases: [String] = []
        var digits = ""
        for length in 1...20 {
            digits += String((length * 7) % 10)
            // Only values within 64 bits (wider ones are the general parser's).
            for text in [digits, "-" + digits, "1" + digits.dropFirst()] where Int64(text) != nil || UInt64(text) != nil {
                cases.append("<array><integer>\(text)</integer><true/></array>")
                cases.append("<integer>\(text)</integer>")
            }
            if length <= 10, let uid = UInt64(digits), uid <= UInt64(UInt32.max) {
                cases.append("<array><dict><key>CF$UID</key><integer>\(digits)</integer></dict></array>")
            }
        }
        cases.append("<array><integer>00000000000000000001</integer><integer>12345678</integer><integer>-87654321</integer></array>")
        cases.append("<dict><key>CF$UID</key><integer>0000000003</integer></dict>")
        return cases
    }()

    @Test(arguments: numberCases)
    func numbersMatchTree(_ body: String) throws {
        try Self.expectSameAsTree(body)
    }

    /// UID dictionaries whose whitespace runs are, or are not, the run after `<dict>` (and
    /// one byte shorter before `</dict>`): every form reads as the general parser reads it.
    static let uidWhitespaceCases: [String] = {
        let runs = ["", "\n", "\n\t", "\n\t\t\t\t\t", "\n\t\t\t\t\t\t", "\n\t\t\t\t\t\t\t", "\n\t\t\t\t\t\t\t\t\t", " ", "  \r\n", "\t \t"]
        var cases: [String] = []
        for a in runs {
            for b in [a, String(a.dropLast()), a + "\t", "\n", ""] {
                for c in [a, String(a.dropLast()), String(a.dropLast(2)), a + " ", ""] {
                    cases.append("<array><dict>\(a)<key>CF$UID</key>\(b)<integer>42</integer>\(c)</dict>\(c)<true/></array>")
                }
            }
        }
        return cases
    }()

    @Test func uidWhitespaceRunsMatchTree() throws {
        for body in Self.uidWhitespaceCases {
            try Self.expectSameAsTree(body)
        }
    }

    /// Runs between tags that repeat the last run, differ from it in a byte (same length),
    /// are shorter, longer, eight bytes or more, or empty (the reader first tries the last
    /// run it skipped).
    @Test func siblingWhitespaceRunsMatchTree() throws {
        let runs = ["\n\t\t", "\n\t\t", "\t\n\t", "\n\t", "", "\n\t\t\t\t\t\t\t", "\n\t\t\t\t\t\t\t\t\t", " ", " ", "\r\n \t", "\n\t\t"]
        for rotation in 0..<runs.count {
            let order = Array(runs[rotation...] + runs[..<rotation])
            let items = order.map { "\($0)<string>v</string>" }.joined()
            let keyed = order.enumerated().map { "\($1)<key>k\($0)</key>\($1)<integer>\($0)</integer>" }.joined()
            try Self.expectSameAsTree("<array>\(items)\(order[0])<dict>\(keyed)\(order[1])</dict>\(order[2])</array>")
            // UIDs after each run, their key indented by that run and one more byte (or not).
            let uids = order.enumerated().map { index, run in
                let inner = [run + String(run.last ?? "\t"), run + " ", run, String(run.dropLast())][index % 4]
                return "\(run)<dict>\(inner)<key>CF$UID</key>\(inner)<integer>\(index)</integer>\(run)</dict>"
            }.joined()
            try Self.expectSameAsTree("<array>\(uids)\(order[3])</array>")
        }
    }

    /// A UID key followed by something other than the UID form still falls back.
    @Test func brokenUIDFormsFallBack() {
        for body in ["<dict>\n\t<key>CF$UID</key>\n\t<string>4</string>\n</dict>",
                     "<dict>\n\t<key>CF$UID</key>\n\t<integer>4</integer>\n\t<key>x</key><true/>\n</dict>",
                     "<dict>\n\t<key>CF$UID</key>\n\t<integer>4</integer>\n\t\u{0B}</dict>",
                     "<dict>\n\t<key>CF$UID</key>\n\t<integer>4</integer>\n"] {
            #expect(XMLFastReaderTests.fast(XMLFastReaderTests.document(body), maxDepth: 64) == nil, "\(body)")
        }
    }

    /// The fast path reads `body` (alone and in a document) with the tree's bytes.
    static func expectSameAsTree(_ body: String) throws {
        for xml in [XMLFastReaderTests.document(body), Array(body.utf8)] {
            let fast = try #require(XMLFastReaderTests.fast(xml, maxDepth: 64), "\(body.debugDescription)")
            #expect(fast == (try XMLFastReaderTests.viaTree(xml)), "\(body.debugDescription)")
        }
    }
}
