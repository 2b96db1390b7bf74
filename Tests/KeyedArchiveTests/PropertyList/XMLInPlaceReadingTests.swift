import Foundation
import Testing
@testable import KeyedArchive

/// The XML readers read the caller's bytes in place (``XMLPlistBytes``), so every read must be
/// checked against the end of the bytes they were given, in release builds too. These tests
/// give the readers a window onto a longer buffer whose continuation would complete the
/// document: a reader that looked past the window's end would find valid text there and
/// accept a truncated document (or read memory outside a real input).
@Suite("XML read in place")
struct XMLInPlaceReadingTests {
    struct Item: Codable, Equatable {
        var name: String
        var count: Int
        var ratio: Double
        var tags: [String]
        var blob: Data
        var when: Date
    }

    static let item = Item(name: "a <b> & \"c\"", count: -42, ratio: 0.1, tags: ["x", "x", "y"],
                           blob: Data([0, 1, 2, 250]), when: Date(timeIntervalSinceReferenceDate: 12_345))

    static func archive() throws -> [UInt8] {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = .xml
        return [UInt8](try encoder.encode(Self.item))
    }

    /// A small document with entities, character references, CDATA and a comment in text,
    /// in the general parser's territory (the fast reader gives up on them).
    static let markup = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>k&amp;</key><string>a&lt;b&#x1F600;&#65;<![CDATA[<c>]]>d<!-- e -->f</string>\
        <key>n</key><integer> 7 </integer><key>d</key><data>AA<![CDATA[EC]]></data></dict></plist>
        """.utf8)

    /// Reads `bytes[0..<length]` as a window of `bytes` (the rest of the buffer stays readable
    /// memory just past the window's end).
    static func readPrefix(_ bytes: [UInt8], _ length: Int) throws -> [UInt8] {
        try bytes.withUnsafeBytes { whole in
            try XMLPropertyListReader.readBinary(UnsafeRawBufferPointer(rebasing: whole[0..<length]), maxDepth: 512)
        }
    }

    /// Whether `bytes[length...]` is only white space (cutting it leaves the same document).
    static func onlyWhitespace(after length: Int, in bytes: [UInt8]) -> Bool {
        bytes[length...].allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
    }

    /// Every prefix of a small archive, and of a document full of entities and CDATA, cut at
    /// every byte boundary: each throws, except those that only cut trailing white space,
    /// which read as the whole document.
    @Test(arguments: [0, 1])
    func everyTruncationThrowsOrReadsTheWhole(_ which: Int) throws {
        let bytes = which == 0 ? try Self.archive() : Self.markup
        let whole = try Self.readPrefix(bytes, bytes.count)
        var thrown = 0
        for length in 0..<bytes.count {
            if Self.onlyWhitespace(after: length, in: bytes) {
                #expect(try Self.readPrefix(bytes, length) == whole, "prefix of \(length) bytes")
                continue
            }
            #expect(throws: PropertyListError.self, "prefix of \(length) bytes") { try Self.readPrefix(bytes, length) }
            thrown += 1
        }
        #expect(thrown >= bytes.count - 2)
    }

    /// The same prefixes of the archive through the decoder (and its input sniffing) throw too.
    @Test func everyTruncatedArchiveFailsToDecode() throws {
        let bytes = try Self.archive()
        #expect(try ArchiveDecoder().decode(Item.self, from: Data(bytes)) == Self.item)
        for length in 0..<bytes.count where !Self.onlyWhitespace(after: length, in: bytes) {
            #expect(throws: (any Error).self, "prefix of \(length) bytes") {
                try ArchiveDecoder().decode(Item.self, from: Data(bytes[0..<length]))
            }
        }
    }

    /// Entities, character references, CDATA sections and comments cut at the buffer's end,
    /// where the bytes after the window would complete them.
    @Test(arguments: [
        "<string>a&amp;</string>", "<string>a&#x41;</string>", "<string>a&#65;</string>",
        "<string><![CDATA[x]]></string>", "<string>a<!-- c --></string>", "<string>&lt;</string>",
        "<data>AA<![CDATA[EC]]></data>", "<string>&#x1F600;</string>",
    ])
    func markupCutAtTheEnd(_ element: String) throws {
        let bytes = Array(element.utf8)
        let whole = try Self.readPrefix(bytes, bytes.count)
        #expect(try BinaryPropertyList(bytes: whole).topValue() == XMLPropertyListReader.read(bytes))
        // Cut inside the text: after `<string>`/`<data>` and before the closing tag ends.
        let openEnd = try #require(bytes.firstIndex(of: UInt8(ascii: ">"))) + 1
        for length in openEnd..<bytes.count {
            #expect(throws: PropertyListError.self, "\(element) cut to \(length) bytes") { try Self.readPrefix(bytes, length) }
        }
    }

    /// A `Data` slice whose indices do not start at 0 (a view into a larger buffer) is read
    /// from its own first byte, by the reader and by the decoder.
    @Test func dataSliceWithNonZeroStartIndex() throws {
        let archive = try Self.archive()
        let junk = Array("bplist00 not this".utf8)
        let padded = Data(junk + archive + junk)
        let slice = padded[junk.count..<(junk.count + archive.count)]
        #expect(slice.startIndex == junk.count)
        let binary = try slice.withUnsafeBytes { try XMLPropertyListReader.readBinary($0, maxDepth: 512) }
        #expect(binary == (try XMLPropertyListReader.readBinary(archive, maxDepth: 512)))
        #expect(try ArchiveDecoder().decode(Item.self, from: slice) == Self.item)
        // The general parser (entities), from a slice too.
        let markup = Data(junk + Self.markup)[junk.count...]
        let read = try markup.withUnsafeBytes { try XMLPropertyListReader.readBinary($0, maxDepth: 512) }
        #expect(read == (try XMLPropertyListReader.readBinary(Self.markup, maxDepth: 512)))
    }

    /// The checked reads themselves: outside the bytes they give 0 and clamp, never trap.
    @Test func checkedReadsOutsideTheBytes() {
        let bytes: [UInt8] = Array("<key>abcdefgh</key>".utf8)
        bytes.withUnsafeBytes { raw in
            let whole = XMLPlistBytes(raw)
            let input = whole.slice(5..<13)  // "abcdefgh"
            #expect(input.count == 8)
            #expect(input[0] == UInt8(ascii: "a") && input[7] == UInt8(ascii: "h"))
            #expect(input[8] == 0 && input[-1] == 0 && input[Int.max] == 0 && input[Int.min] == 0)
            #expect(input.word(0) == 0x6867_6665_6463_6261)  // "abcdefgh", little-endian
            #expect(input.word(4) == 0x6867_6665)  // "efgh", zeros past the end
            #expect(input.word(-3) == 0x65_6463_6261 << 24)  // three zeros, then "abcde"
            #expect(input.word(-8) == 0 && input.word(Int.max) == 0 && input.word(Int.min) == 0)
            #expect(input.slice(-5..<100).string == "abcdefgh")
            #expect(input.slice(Int.min..<Int.max).count == 8)
            #expect(whole.slice(0..<4).trimmingWhitespace().string == "<key")
        }
        let empty = XMLPlistBytes(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(empty[0] == 0 && empty.word(0) == 0 && empty.slice(0..<5).count == 0 && empty.string.isEmpty)
    }

    /// The fast reader checks UTF-8 only in the prolog, the text of values and what follows
    /// the root (the markup it matches is ASCII): a bad byte in any of them, in a short text
    /// (read byte by byte) or a long one (eight bytes at a time), makes it give up, and
    /// `readBinary` throws the general parser's error; the same places with valid UTF-8 are
    /// read by the fast path, as the tree reads them.
    @Test(arguments: [
        ("<!-- X -->", "<array><string>a</string></array>", ""),
        ("", "<array><string>X</string></array>", ""),
        ("", "<array><string>long text, then X, then more</string></array>", ""),
        ("", "<dict><key>X</key><string>a</string></dict>", ""),
        ("", "<dict><key>a key longer than eight X</key><string>a</string></dict>", ""),
        ("", "<array><string>a</string></array>", "<!-- X -->"),
    ])
    func utf8IsCheckedWhereTextIs(_ prolog: String, _ body: String, _ epilog: String) throws {
        func document(_ x: [UInt8]) -> [UInt8] {
            let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(prolog)<plist version=\"1.0\">\n\(body)\n</plist>\n\(epilog)"
            var bytes: [UInt8] = []
            for c in text.utf8 { if c == UInt8(ascii: "X") { bytes += x } else { bytes.append(c) } }
            return bytes
        }
        for bad: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
            let xml = document(bad)
            #expect(XMLFastReaderTests.fast(xml, maxDepth: 64) == nil, "\(bad)")
            let error = #expect(throws: PropertyListError.self) { try XMLPropertyListReader.readBinary(xml, maxDepth: 64) }
            #expect(error?.message.contains("UTF-8") == true, "\(error?.message ?? "")")
        }
        for good: [UInt8] in [Array("é".utf8), Array("日本".utf8), Array("😀".utf8)] {
            let xml = document(good)
            let fast = try #require(XMLFastReaderTests.fast(xml, maxDepth: 64))
            #expect(fast == (try XMLFastReaderTests.viaTree(xml)))
        }
    }
}
