import Foundation
import Testing
@testable import KeyedArchive

/// The fast XML reader's shortcuts against the general parser: the cache of recent short
/// strings (``XMLPlistStringRefs``), new strings added from their bytes, the innermost
/// container kept apart from the outer ones, and the builder's one-store-per-reference
/// writing of 4-byte references and offsets.
@Suite("XML fast reader: string cache, containers, wide tables")
struct XMLFastReaderStringCacheTests {
    /// Strings that a cache keyed by two masked words could confuse if it were wrong: every
    /// length around 8 and 16, equal first words, equal first 16 bytes with different
    /// lengths, the empty string, non-ASCII bytes.
    static let lookalikes: [String] = {
        var strings = [""]
        for length in 1...20 { strings.append(String(repeating: "k", count: length)) }
        for length in [7, 8, 9, 15, 16, 17] {
            strings.append(String(repeating: "k", count: length - 1) + "j")
            strings.append("j" + String(repeating: "k", count: length - 1))
        }
        strings += ["abcdefgh", "abcdefghi", "abcdefgh\u{e9}", "abcdefghijklmnop", "abcdefghijklmnoq", "abcdefghijklmnopq",
                    "\u{e9}", "e\u{301}", "\u{65e5}\u{672c}", "$class", "NS.objects", "NS.keys", "CF$UIDs"]
        return strings
    }()

    /// Each string as a key and as a value, several times, interleaved, with the same keys in
    /// other dictionaries: the output is the tree's, byte for byte.
    @Test func lookalikeStringsKeepTheirOwnReferences() throws {
        var body = "<array>"
        for round in 0..<3 {
            body += "<dict>"
            for (index, string) in Self.lookalikes.enumerated() {
                body += "<key>\(string)</key><string>\(Self.lookalikes[(index + round) % Self.lookalikes.count])</string>"
            }
            body += "</dict>"
        }
        body += "</array>"
        try Self.expectFastMatchesTree(body)
    }

    /// More distinct short strings than the cache holds, each seen twice far apart: evicted
    /// strings are found again through the hashed table, with their first reference.
    @Test func evictedStringsAreFoundAgain() throws {
        let keys = (0..<2_000).map { "key\($0)" }
        var body = "<array>"
        for _ in 0..<2 {
            body += "<dict>" + keys.map { "<key>\($0)</key><true/>" }.joined() + "</dict>"
            body += "<array>" + keys.reversed().map { "<string>\($0)</string>" }.joined() + "</array>"
        }
        body += "</array>"
        try Self.expectFastMatchesTree(body)
    }

    /// A few hundred short strings (more than two per set of the cache's 128), used in
    /// patterns that hit the more recent string of a set, the older one (which then moves
    /// first), and push strings out and bring them back: each keeps its first reference.
    @Test func stringsSharingACacheSetKeepTheirReferences() throws {
        let strings = (0..<300).map { "s\($0)" }
        var body = "<array>"
        for stride in [1, 2, 7, 3] {
            body += "<dict>"
            for start in 0..<stride {
                for index in Swift.stride(from: start, to: strings.count, by: stride) {
                    body += "<key>\(strings[index])</key><string>\(strings[(index * 7) % strings.count])</string>"
                }
            }
            body += "</dict><array>"
            for index in 0..<strings.count {
                body += "<string>\(strings[index])</string><string>\(strings[(index + 1) % 5])</string>"
            }
            body += "</array>"
        }
        body += "</array>"
        try Self.expectFastMatchesTree(body)
    }

    /// Containers closing several at a time, empty ones, and dictionaries inside arrays
    /// inside dictionaries: each value lands in its own container.
    @Test func nestedContainersCloseInOrder() throws {
        let bodies = [
            "<dict><key>a</key><array><dict><key>b</key><array/></dict><array><dict/></array></array><key>c</key><integer>1</integer></dict>",
            "<array><array><array><dict><key>x</key><array><string>y</string></array></dict></array></array><integer>2</integer></array>",
            "<dict><key>a</key><dict><key>b</key><dict><key>c</key><dict><key>CF$UID</key><integer>7</integer></dict></dict></dict><key>d</key><false/></dict>",
        ]
        for body in bodies { try Self.expectFastMatchesTree(body) }
    }

    /// The depth limit counts the innermost container too: a document exactly at the limit
    /// is read on the fast path, one level deeper goes to the general parser, which throws.
    @Test func depthLimitCountsEveryOpenContainer() throws {
        let depth = 6
        let atLimit = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        let xml = XMLFastReaderTests.document(atLimit)
        #expect(XMLFastReaderTests.fast(xml, maxDepth: depth) != nil)
        #expect(XMLFastReaderTests.fast(xml, maxDepth: depth - 1) == nil)
        #expect(throws: (any Error).self) { try XMLPropertyListReader.readBinary(xml, maxDepth: depth - 1) }
    }

    /// A file of more than 65,536 objects and 64 KB: references and offsets take four bytes
    /// each (written one store apiece), and the file reads back as the value written.
    @Test func fourByteReferencesAndOffsetsReadBack() throws {
        let value = PropertyListValue.array((0..<70_000).map { .string("s\($0)") } + [.dictionary([PropertyListEntry(key: "k", value: .integer(1))])])
        let bytes = BinaryPropertyListWriter.write(value)
        let trailer = bytes.suffix(32)
        #expect(Array(trailer)[6] == 4)  // offset size
        #expect(Array(trailer)[7] == 4)  // reference size
        let read = try BinaryPropertyList(bytes: bytes)
        #expect(try read.topValue() == value)
    }

    /// A string added from its UTF-8 bytes is the object a `String` gives: ASCII (short and
    /// with a long count), non-ASCII (written as UTF-16), empty.
    @Test func stringsFromUTF8BytesMatchStrings() {
        let strings = ["", "a", "fifteen bytes!!", "sixteen bytes!!!", String(repeating: "long ", count: 40),
                       "\u{e9}", "caf\u{e9} au lait", "\u{65e5}\u{672c}\u{8a9e}", "\u{1F600} emoji"]
        for string in strings {
            var fromString = BinaryPropertyListBuilder()
            var fromBytes = BinaryPropertyListBuilder()
            let top = fromString.appendString(string)
            let bytesTop = Array(string.utf8).withUnsafeBufferPointer { fromBytes.appendString(utf8: $0) }
            #expect(top == bytesTop)
            #expect(fromString.finish(top: top) == fromBytes.finish(top: bytesTop), "\(string)")
        }
    }

    static func expectFastMatchesTree(_ body: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let xml = XMLFastReaderTests.document(body)
        let fast = try #require(XMLFastReaderTests.fast(xml, maxDepth: 64), sourceLocation: sourceLocation)
        #expect(fast == (try XMLFastReaderTests.viaTree(xml)), sourceLocation: sourceLocation)
    }
}
