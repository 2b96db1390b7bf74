import Foundation
import Testing
@testable import KeyedArchive

/// The fast XML reader's UIDs that the writers' form (``XMLPlistUIDForms``) does not match:
/// the dictionary is opened as any other and its first key `CF$UID` reads the rest of the
/// UID, or hands the document to the general parser when the dictionary is more than one.
/// Every case against the general parser.
@Suite("XML fast reader: UIDs found by their first key")
struct XMLFastReaderUIDKeyTests {
    /// Whitespace around the UID's tags that is not the writers' form: read by the fast path,
    /// with the tree's bytes, alone, in arrays, after other keys and nested.
    @Test func otherWhitespaceReadsAsTheTree() throws {
        let shapes = [
            "<dict><key>CF$UID</key><integer>7</integer></dict>",
            "<dict> <key>CF$UID</key> <integer>7</integer> </dict>",
            "<dict>\r\n<key>CF$UID</key>\t\t<integer>4294967295</integer>\n\n</dict>",
            "<dict>\n\t\t\t\t\t\t\t\t<key>CF$UID</key>\n\t\t\t\t\t\t\t\t<integer>12</integer>\n\t\t\t\t\t\t\t</dict>",
            "<dict>\n\t<key>CF$UID</key><integer>0</integer>\n\t\t</dict>",
            "<dict><key>CF$UID</key>\n<integer>0000000003</integer></dict>",
        ]
        for shape in shapes {
            try XMLFastReaderNumberTests.expectSameAsTree(shape)
            try XMLFastReaderNumberTests.expectSameAsTree("<array>\n\t" + shape + "\n\t" + shape + "<true/></array>")
            try XMLFastReaderNumberTests.expectSameAsTree("<dict><key>a</key>" + shape + "\n<key>b</key>\t" + shape + "</dict>")
            try XMLFastReaderNumberTests.expectSameAsTree("<array><array>" + shape + "</array><dict><key>x</key>" + shape + "</dict></array>")
        }
    }

    /// First keys that only look like `CF$UID` (longer, shorter, another case, a space, an
    /// entity) and `CF$UID` after another key: ordinary dictionaries, as the tree reads them.
    @Test func otherKeysAreDictionaries() throws {
        for key in ["CF$UIDx", "CF$UI", "cf$uid", "CF$UID ", " CF$UID", "CF$UIDCF$UID"] {
            let body = "<dict>\n\t<key>\(key)</key>\n\t<integer>7</integer>\n</dict>"
            try XMLFastReaderNumberTests.expectSameAsTree(body)
            try XMLFastReaderNumberTests.expectSameAsTree("<array>\n\t" + body + "\n</array>")
        }
        try XMLFastReaderNumberTests.expectSameAsTree("<dict><key>a</key><true/><key>CF$UID</key><integer>1</integer></dict>")
        // An entity in the key: the general parser reads it (the fast path gives up).
        let entity = XMLFastReaderTests.document("<array><dict><key>CF&#36;UID</key><integer>1</integer></dict></array>")
        #expect(XMLFastReaderTests.fast(entity, maxDepth: 64) == nil)
        #expect(try XMLPropertyListReader.readBinary(entity, maxDepth: 64) == (try XMLFastReaderTests.viaTree(entity)))
    }

    /// A first key `CF$UID` in a dictionary that is not a UID (another value, more keys,
    /// digits the UID does not take, no end): the fast path gives up, and `readBinary` gives
    /// the general parser's bytes or error.
    @Test func dictionariesThatOnlyStartLikeAUIDGoToTheGeneralParser() throws {
        let bodies = [
            "<dict> <key>CF$UID</key> <string>4</string> </dict>",
            "<dict> <key>CF$UID</key> <integer>4</integer> <key>x</key><true/> </dict>",
            "<dict> <key>CF$UID</key> <integer>4</integer> <true/> </dict>",
            "<dict> <key>CF$UID</key> <integer>4294967296</integer> </dict>",
            "<dict> <key>CF$UID</key> <integer>-1</integer> </dict>",
            "<dict> <key>CF$UID</key> <integer> 1</integer> </dict>",
            "<dict> <key>CF$UID</key> <integer></integer> </dict>",
            "<dict> <key>CF$UID</key> <integer>0x1</integer> </dict>",
            "<dict> <key>CF$UID</key> </dict>",
            "<dict> <key>CF$UID</key> <integer>4</integer> \u{0B}</dict>",
            "<dict> <key>CF$UID</key> <integer>4</integer>",
        ]
        for body in bodies {
            for xml in [XMLFastReaderTests.document("<array>" + body + "</array>"), Array(body.utf8)] {
                #expect(XMLFastReaderTests.fast(xml, maxDepth: 64) == nil, "\(body.debugDescription)")
                let tree = XMLFastReaderTests.Outcome { try XMLFastReaderTests.viaTree(xml) }
                #expect(XMLFastReaderTests.Outcome { try XMLPropertyListReader.readBinary(xml, maxDepth: 64) } == tree,
                        "\(body.debugDescription)")
            }
        }
    }

    /// Every prefix of a document of UIDs in other whitespace, and every byte changed to one
    /// that matters to them: the fast path gives the general parser's bytes or gives up.
    @Test func truncatedAndMutatedUIDs() throws {
        let body = "<dict><key>a</key><dict> <key>CF$UID</key> <integer>12</integer> </dict>"
            + "<key>b</key><dict><key>CF$UID</key><integer>3</integer></dict></dict>"
        let fast = XMLFastReaderTests.expectPrefixesAndChangesAgree(XMLFastReaderTests.document(body),
                                                                    replacements: [0x3C, 0x2F, 0x20, 0x0A, 0x30, 0x39, 0x78])
        #expect(fast > 100)
    }
}
