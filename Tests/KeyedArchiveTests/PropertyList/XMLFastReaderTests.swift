import Foundation
import Testing
@testable import KeyedArchive

/// The fast XML reader (``XMLPlistFastReader``) against the general parser it stands in front
/// of: where it reads a document it writes the same bytes as reading a tree and writing that;
/// where it does not, it gives up (nil) and `readBinary` still gives the general parser's bytes
/// or error. These tests also check that the usual documents do take the fast path.
@Suite("XML fast reader")
struct XMLFastReaderTests {
    /// The binary property list through the tree: the general parser's meaning.
    static func viaTree(_ xml: [UInt8], maxDepth: Int = 64) throws -> [UInt8] {
        BinaryPropertyListWriter.write(try XMLPropertyListReader.read(xml, maxDepth: maxDepth),
                                        uniquingNumbers: XMLPropertyListReader.uniquesNumbers)
    }

    /// The fast reader on an array's bytes (read in place).
    static func fast(_ xml: [UInt8], maxDepth: Int) -> [UInt8]? {
        xml.withUnsafeBytes { XMLPlistFastReader.read(XMLPlistBytes($0), maxDepth: maxDepth) }
    }

    static func document(_ body: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n\(body)\n</plist>\n".utf8)
    }

    /// Documents in the usual shape: the fast path reads them, with the tree's bytes.
    static let fastCases: [String] = [
        "<dict>\n\t<key>a</key>\n\t<integer>1</integer>\n</dict>",
        "<array><integer>0</integer><integer>-0</integer><integer>-9223372036854775808</integer><integer>9223372036854775807</integer><integer>9223372036854775808</integer><integer>18446744073709551615</integer><integer>007</integer></array>",
        "<array><real>0.1</real><real>-2.5e-3</real><real>0.22138404846191406</real><real>1e400</real><real>nan</real><real>-inf</real><real>.5</real><real>5.</real></array>",
        "<array><string></string><string>a</string><string>a</string><string>日本語</string><string>日本語</string></array>",
        "<array><true/><false/><true/><dict/><array/><dict></dict><array></array></array>",
        "<array><date>2001-01-01T00:00:00Z</date><date>-0044-03-15T12:00:00Z</date><date>2024-02-29T23:59:59.5Z</date></array>",
        "<array><data>AAEC</data><data>\n\tAAEC\n\tAw==\n\t</data><data></data><data>AAEC</data></array>",
        "<dict><key>CF$UID</key><integer>3</integer></dict>",
        "<array><dict><key>CF$UID</key><integer>4294967295</integer></dict><dict>\n<key>CF$UID</key>\n<integer>0</integer>\n</dict></array>",
        "<dict><key>b</key><dict><key>CF$UID</key><integer>1</integer></dict><key>a</key><array><dict/></array></dict>",
        "<string>K</string>",
        "<integer>5</integer>",
        // Whitespace runs of every length around eight, of all four whitespace bytes.
        "<array>\n \t\r\n\t\t\t\t\t\t\t\t\t\t<true/>\r\n\t\t\t\t\t\t\t\t \t<false/>                 <true/>\t\t\t\t\t\t\t<false/></array>",
        "<array><string>an ASCII string longer than eight bytes</string><string>é, then a longer non-ASCII string ü</string></array>",
        "<array><real>0.12345678901234567890123</real><real>1e1000</real><real>1.5E+3</real><real>-.5e-3</real><real>+0.0</real><real>-0</real><real>1e-400</real><real>123456789012345678</real></array>",
    ]

    @Test(arguments: fastCases)
    func fastPathMatchesTree(_ body: String) throws {
        for xml in [Self.document(body), Array(body.utf8)] {
            let fast = try #require(Self.fast(xml, maxDepth: 64), "\(body)")
            let tree = try Self.viaTree(xml)
            #expect(fast == tree, "\(body)")
            let binary = try XMLPropertyListReader.readBinary(xml, maxDepth: 64)
            #expect(binary == fast)
        }
    }

    /// The binary property list read from XML keeps each number as its own object (a
    /// decoder reads it once; uniquing would only cost time), and means the same values as
    /// the uniqued one, on both paths.
    @Test func numbersAreNotUniquedButReadTheSame() throws {
        let body = "<array><integer>7</integer><integer>7</integer><real>0.5</real><real>0.5</real>"
            + "<integer>18446744073709551615</integer><integer>18446744073709551615</integer><string>s</string><string>s</string></array>"
        for xml in [Self.document(body), Self.document(body.replacingOccurrences(of: "<integer>7</integer>", with: "<integer> 7 </integer>"))] {
            let tree = try XMLPropertyListReader.read(xml, maxDepth: 64)
            let read = try BinaryPropertyList(bytes: try XMLPropertyListReader.readBinary(xml, maxDepth: 64))
            let uniqued = try BinaryPropertyList(bytes: BinaryPropertyListWriter.write(tree))
            #expect(try read.topValue() == tree)
            #expect(try uniqued.topValue() == tree)
            #expect(read.objectCount == uniqued.objectCount + 3)  // the second 7, 0.5 and UInt64.max
        }
    }

    /// Unusual forms (and errors): the fast path gives up, the general parser reads them.
    static let fallbackCases: [String] = [
        "<string>a &amp; b</string>",
        "<string><![CDATA[x]]></string>",
        "<array><!-- c --><integer>1</integer></array>",
        "<array><integer> 1 </integer></array>",
        "<array><integer>+1</integer></array>",
        "<array><integer>0x10</integer></array>",
        "<array><integer>-9223372036854775809</integer></array>",
        "<array><integer>340282366920938463463374607431768211455</integer></array>",
        "<array><real> 1.5 </real></array>",
        "<array><string/></array>",
        "<array><key>a</key></array>",
        "<dict><key>CF$UID</key><integer>-1</integer></dict>",
        "<dict><key>CF$UID</key><integer>4294967296</integer></dict>",
        "<dict><key>CF$UID</key><integer>3</integer><key>x</key><integer>3</integer></dict>",
        "<dict><key>CF$UID</key><string>3</string></dict>",
        "<dict ><key>a</key><true/></dict>",
        "<dict><key>a</key></dict>",
        "<dict><key>a</key><key>b</key><true/></dict>",
        "<dict><integer>1</integer></dict>",
        "<array><integer>1</integer></dict>",
        "<array><integer>1x</integer></array>",
        "<array><real>1e</real></array>",
        "<array><real>1e+</real></array>",
        "<array><real>1.2.3</real></array>",
        "<array><real>.</real></array>",
        "<array><real>-</real></array>",
        "<array><real>1e5x</real></array>",
        "<array>\t\t\t\t\t\t\t\t\u{0B}<true/></array>",
        "<array>\n\t\t\u{0C}\t\t\t\t\t\t\t<true/></array>",
        "<array><date>2001-02-30T00:00:00Z</date></array>",
        "<array><data>A</data></array>",
        "<array><true></true></array>",
        "<array><integer>1</integer>",
        "<array>text</array>",
        "<unknown/>",
    ]

    @Test(arguments: fallbackCases)
    func fallbackMatchesTree(_ body: String) {
        for xml in [Self.document(body), Array(body.utf8)] {
            #expect(Self.fast(xml, maxDepth: 64) == nil, "\(body)")
            #expect(FastPathEquivalenceTests.sameConversion(xml) == nil, "\(body)")
        }
    }

    /// Strings are uniqued as `BinaryPropertyListBuilder.string(_:)` uniques them (by their
    /// exact bytes, so canonically equivalent spellings stay two objects), in every order.
    @Test func stringsUniquedAsTheBuilderDoes() throws {
        let spellings = ["K", "\u{212A}", "Stra\u{DF}e", "\u{C0}", "A\u{300}", "\u{E9}t\u{E9}", "e\u{301}te\u{301}", "a", ";", "\u{37E}", "K", "\u{E9}t\u{E9}"]
        var orders = [spellings, spellings.reversed()]
        var state: UInt64 = 7
        for _ in 0..<20 {
            var shuffled = spellings
            for k in stride(from: shuffled.count - 1, to: 0, by: -1) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                shuffled.swapAt(k, Int(state >> 33) % (k + 1))
            }
            orders.append(shuffled)
        }
        for order in orders {
            let body = "<dict>" + order.enumerated().map { "<key>\($1)</key><string>\(order[(order.count - 1) - $0])</string>" }.joined() + "</dict>"
            let xml = Array(body.utf8)
            // Keys repeat, which the tree keeps as written; the binary has the same keys.
            let fast = try #require(Self.fast(xml, maxDepth: 8))
            let tree = try Self.viaTree(xml, maxDepth: 8)
            #expect(fast == tree, "\(order)")
        }
    }

    /// Canonically equivalent spellings ("é" precomposed and "e" + U+0301, the Kelvin sign and
    /// "K") are different strings in an archive: each decodes as it was written, whichever
    /// reader (fast or general) converts the XML.
    @Test func canonicallyEquivalentSpellingsStayDistinct() throws {
        let words = ["caf\u{E9}", "cafe\u{301}", "\u{212A}", "K"]
        let encoder = ArchiveEncoder()
        encoder.outputFormat = .xml
        let xml = try encoder.encode(words)
        let decoded = try ArchiveDecoder().decode([String].self, from: xml)
        #expect(decoded.map { Array($0.unicodeScalars) } == words.map { Array($0.unicodeScalars) })
        // The general parser (a comment sends the document there) gives the same result.
        var text = try #require(String(data: xml, encoding: .utf8))
        text = text.replacingOccurrences(of: "<plist version=\"1.0\">", with: "<plist version=\"1.0\"><!-- general parser -->")
        let general = try ArchiveDecoder().decode([String].self, from: Data(text.utf8))
        #expect(general.map { Array($0.unicodeScalars) } == words.map { Array($0.unicodeScalars) })
    }

    /// Nesting beyond `maxDepth`: the fast path gives up and the general parser throws its error.
    @Test func depthLimitIsTheGeneralParsers() {
        let depth = 20_000
        let deep = Array((String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)).utf8)
        #expect(Self.fast(deep, maxDepth: 512) == nil)
        #expect(throws: PropertyListError.self) { try XMLPropertyListReader.readBinary(deep, maxDepth: 512) }
        // At the limit exactly, both read it, UID dictionaries counting as a level.
        let uid = "<dict><key>CF$UID</key><integer>1</integer></dict>"
        for (levels, readable) in [(3, true), (4, false)] {
            let xml = Array((String(repeating: "<array>", count: levels - 1) + uid + String(repeating: "</array>", count: levels - 1)).utf8)
            #expect((Self.fast(xml, maxDepth: 3) != nil) == readable)
            #expect(FastPathEquivalenceTests.sameConversion(xml) == nil)
            #expect((try? XMLPropertyListReader.readBinary(xml, maxDepth: 3)) != nil || !readable)
        }
    }

    /// Many keys and many repeated strings: the fast path reads them, with the tree's bytes.
    @Test func manyKeys() throws {
        var body = "<dict>"
        for k in 0..<100_000 { body += "<key>k\(k)</key><string>v\(k % 7)</string>" }
        body += "</dict>"
        let xml = Array(body.utf8)
        let fast = try #require(Self.fast(xml, maxDepth: 8))
        let tree = try Self.viaTree(xml, maxDepth: 8)
        #expect(fast == tree)
    }

    /// Archives this package writes take the fast path, with the tree's bytes.
    @Test func archivesTakeTheFastPath() throws {
        struct Record: Codable { var name: String; var values: [Double]; var when: Date; var blob: Data; var id: UUID; var n: Int64; var u: UInt64 }
        var records: [Record] = []
        for k in 0..<50 {
            let values: [Double] = [Double(k) / 3, -1e-300, 0.1]
            let when = Date(timeIntervalSinceReferenceDate: Double(k) * 100_000)
            let n: Int64 = -Int64(k) << 40
            let u: UInt64 = UInt64.max - UInt64(k)
            records.append(Record(name: "r\(k % 9) é", values: values, when: when, blob: Data(repeating: UInt8(k), count: k),
                                  id: UUID(), n: n, u: u))
        }
        let encoder = ArchiveEncoder()
        encoder.outputFormat = .xml
        let xml = [UInt8](try encoder.encode(records))
        let fast = try #require(Self.fast(xml, maxDepth: 512))
        let tree = try Self.viaTree(xml, maxDepth: 512)
        #expect(fast == tree)
    }

    /// Foundation's XML archives in the corpus: the same bytes either way, and the ones in the
    /// usual shape are read by the fast path.
    @Test(.requiresCorpus) func corpusArchivesTakeTheFastPath() throws {
        var fast = 0
        for file in CorpusFile.all(in: "apple/corelibs") {
            let bytes = [UInt8](try file.data())
            guard !bytes.starts(with: Array("bplist".utf8)) else { continue }
            if let binary = Self.fast(bytes, maxDepth: 512) {
                fast += 1
                let tree = try Self.viaTree(bytes, maxDepth: 512)
                #expect(binary == tree, "\(file)")
            }
        }
        #expect(fast > 0)
    }

    /// Reals of up to 19 digits read by Clinger's fast path or Eisel-Lemire give exactly what
    /// `Double(String)` gives: shortest forms of random doubles, random 16- to 19-digit
    /// significands over the whole exponent range, exact halfway cases, and known hard ones.
    @Test func realsWithoutStringsMatchStandardParser() {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
        var texts = ["9007199254740993", "9007199254740995", "2.2250738585072011e-308", "2.2250738585072014e-308",
                     "1.7976931348623157e308", "1.7976931348623158e308", "4.9406564584124654e-324", "5e-324", "1e23",
                     "8.98846567431158e307", "7.2057594037927933e16", "123456789012345678", "9999999999999999999",
                     "0.1000000000000000055511151231257827", "1.00000000000000011102230246251565404236316680908203125",
                     "3.0517578125e-05", "1e-342", "1e308", "1e309", "0e400", "-0.0", "18446744073709551615"]
        for _ in 0..<60_000 {
            let d = Double(bitPattern: next() & 0x7FFF_FFFF_FFFF_FFFF)
            if d.isFinite { texts.append("\(d)") }
            var digits = ""
            for _ in 0..<(16 + Int(next() % 4)) { digits.append(Character(Unicode.Scalar(UInt8(48 + next() % 10)))) }
            texts.append(digits + "e" + String(Int(next() % 700) - 360))
            // Exactly halfway between two doubles: a 53-bit significand, shifted, plus half a unit.
            let shift = 1 + next() % 10
            let halfway = ((next() >> 11) | 1 << 52) << shift + 1 << (shift - 1)
            texts.append(String(halfway))
            texts.append(String(halfway) + "e-" + String(next() % 5))
        }
        var decided = 0
        for text in texts {
            guard let fast = Array(text.utf8).withUnsafeBytes({ XMLPlistDecimal.exactDecimal(XMLPlistBytes($0)) }) else { continue }
            decided += 1
            #expect(fast.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
        #expect(decided > 200_000)
    }

    /// Every prefix of a document and every position overwritten by bytes that matter to the
    /// fast path (markup, whitespace, digits, an entity, a non-ASCII lead byte): the fast path
    /// either gives the general parser's bytes or gives up, and `readBinary` always agrees with
    /// the general parser (bytes or error). This walks the fast path's bounds near every end.
    /// Bytes, or the error's text.
    enum Outcome: Equatable {
        case bytes([UInt8])
        case error(String)

        init(_ body: () throws -> [UInt8]) {
            do { self = .bytes(try body()) } catch { self = .error("\(error)") }
        }
    }

    @Test func truncatedAndMutatedDocuments() throws {
        let body = "<dict>\n\t<key>$top</key>\n\t<dict><key>CF$UID</key><integer>12</integer></dict>\n\t<key>n</key>"
            + "<array><integer>-9</integer><real>0.25</real><true/><false/><string>\u{E9}t\u{E9} x</string>"
            + "<date>2001-01-01T00:00:00Z</date><data>AAEC</data><dict/><array/></array>\n</dict>"
        let fast = Self.expectPrefixesAndChangesAgree(Self.document(body), replacements: [0x3C, 0x3E, 0x2F, 0x20, 0x26, 0x30, 0x39, 0xCC, 0x00, 0x61])
        #expect(fast > 100)
    }

    /// Every prefix of `document`, and `document` with each byte changed to each of
    /// `replacements`: the fast path gives the general parser's bytes or gives up, and
    /// `readBinary` agrees with the general parser (bytes or error). Returns how many of them
    /// the fast path read.
    static func expectPrefixesAndChangesAgree(_ document: [UInt8], replacements: [UInt8],
                                              sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var variants: [[UInt8]] = (0...document.count).map { Array(document[0..<$0]) }
        for position in document.indices {
            for byte in replacements where document[position] != byte {
                var changed = document
                changed[position] = byte
                variants.append(changed)
            }
        }
        var fast = 0
        for xml in variants {
            let tree = Outcome { try Self.viaTree(xml) }
            if let binary = Self.fast(xml, maxDepth: 64) {
                fast += 1
                #expect(tree == .bytes(binary), sourceLocation: sourceLocation)
            }
            #expect(Outcome { try XMLPropertyListReader.readBinary(xml, maxDepth: 64) } == tree, sourceLocation: sourceLocation)
        }
        return fast
    }
}
