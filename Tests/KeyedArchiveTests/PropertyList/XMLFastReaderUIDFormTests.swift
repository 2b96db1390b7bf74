import Foundation
import Testing
@testable import KeyedArchive

/// The fast XML reader's UIDs in the form writers indent them (``XMLPlistUIDForms``: words
/// compared against the bytes expected after the run before `<dict>`), against the general
/// parser: every run length the forms cover and beyond, runs of spaces, mixed runs, and
/// every prefix and single-byte change of such a document.
@Suite("XML fast reader: UIDs in the writers' form")
struct XMLFastReaderUIDFormTests {
    /// A UID after `run`, indented as writers do: key and integer one level deeper, `</dict>` at `run`.
    static func uid(_ value: String, after run: String) -> String {
        let deeper = run + String(run.last ?? "\t")
        return "\(run)<dict>\(deeper)<key>CF$UID</key>\(deeper)<integer>\(value)</integer>\(run)</dict>"
    }

    static let runs = ["\n", "\n\t", "\n\t\t", "\n\t\t\t", "\n\t\t\t\t", "\n\t\t\t\t\t", "\n\t\t\t\t\t\t", "\n\t\t\t\t\t\t\t",
                       " ", "  ", "\n    ", "\n      ", "\r\n\t", "\t\n "]

    /// UIDs after every run (each several times, and runs alternating, so that a form made
    /// for one run is met again after others), values from 0 to `UInt32.max`: the tree's bytes.
    @Test func everyRunReadsAsTheTree() throws {
        let values = ["0", "7", "42", "4294967295", "0000000003", "123456789"]
        var items: [String] = []
        for round in 0..<3 {
            for (index, run) in Self.runs.enumerated() {
                items.append(Self.uid(values[(index + round) % values.count], after: run))
                items.append(Self.uid(values[index % values.count], after: Self.runs[(index + 5) % Self.runs.count]))
            }
        }
        try XMLFastReaderNumberTests.expectSameAsTree("<array>" + items.joined() + "\n</array>")
        // In a dictionary, after keys, as an archive's object holds them.
        let fields = Self.runs.enumerated().map { "\($1)<key>f\($0)</key>" + Self.uid(String($0), after: $1) }.joined()
        try XMLFastReaderNumberTests.expectSameAsTree("<dict>" + fields + "\n</dict>")
    }

    /// Digits the UID form does not take (too many, too large, none, a sign): the general
    /// path decides, as before.
    @Test func digitsOutsideTheFormReadAsBefore() throws {
        for value in ["4294967296", "00000000003", "", "-1", "+1", "1 ", " 1", "99999999999"] {
            let xml = XMLFastReaderTests.document("<array>" + Self.uid(value, after: "\n\t\t") + "\n</array>")
            let tree = XMLFastReaderTests.Outcome { try XMLFastReaderTests.viaTree(xml) }
            if let binary = XMLFastReaderTests.fast(xml, maxDepth: 64) { #expect(tree == .bytes(binary), "\(value)") }
            #expect(XMLFastReaderTests.Outcome { try XMLPropertyListReader.readBinary(xml, maxDepth: 64) } == tree, "\(value)")
        }
    }

    /// Every prefix of a document of indented UIDs and every byte changed to one that matters
    /// to the form (whitespace, markup, digits): the fast path gives the general parser's
    /// bytes or gives up, and `readBinary` always agrees with the general parser.
    @Test func truncatedAndMutatedUIDs() throws {
        let body = "<array>" + Self.uid("12", after: "\n\t") + Self.uid("3", after: "\n\t") + "\n\t<true/>" + Self.uid("45", after: "\n\t") + "\n</array>"
        let fast = XMLFastReaderTests.expectPrefixesAndChangesAgree(XMLFastReaderTests.document(body),
                                                                    replacements: [0x3C, 0x2F, 0x20, 0x09, 0x0A, 0x30, 0x39, 0x61])
        #expect(fast > 100)
    }
}
