import Foundation
import Testing
@testable import KeyedArchive

/// The fast XML reader's proof that no dictionary lists a key twice
/// (``XMLPlistKeyRepeatCheck``), which lets the decoder skip the check of the converted
/// property list: it must never claim "no repeat" for a document that has one, and (for the
/// speed) should claim it for the usual documents. The check of the binary property list is
/// the reference.
@Suite("XML fast reader: repeated keys")
struct XMLFastReaderKeyRepeatTests {
    /// The fast reader's answer, and the exact check's on the same bytes (whether it finds
    /// any repeated key), and whether the fast reader's bytes are the general parser's.
    static func proofAndCheck(_ body: String) throws -> (proved: Bool, repeats: Bool) {
        let xml = XMLFastReaderTests.document(body)
        let read = try #require(xml.withUnsafeBytes { XMLPlistFastReader.readProvingKeys(XMLPlistBytes($0), maxDepth: 64) },
                                "the fast path reads \(body.prefix(60))")
        #expect(read.binary == (try XMLFastReaderTests.viaTree(xml)))
        let repeats = try read.binary.withUnsafeBytes { raw in
            try BinaryPropertyList(borrowing: raw).resolvingDuplicateKeys(keepingFirst: false) { !$0.duplicateKeys.isEmpty }
        }
        return (read.keysDistinct, repeats)
    }

    static func dict(_ keys: [String]) -> String {
        "<dict>" + keys.enumerated().map { "<key>\($1)</key><integer>\($0)</integer>" }.joined() + "</dict>"
    }

    /// Documents with a key repeated in one dictionary: never proved distinct.
    static let repeating: [String] = [
        dict(["a", "b", "a"]),
        dict(["a", "a"]),
        // Far apart in a large dictionary, after more than 64 objects (the marks' second word).
        dict((0..<200).map { "k\($0)" } + ["k3"]),
        // After other dictionaries that used the same keys once each (their marks cleared).
        "<array>" + dict(["x", "y"]) + dict(["y", "x"]) + dict(["x", "y", "x"]) + "</array>",
        // In a dictionary nested in another, and in the outer one after the inner closed.
        "<dict><key>a</key>" + dict(["b", "b"]) + "<key>c</key><true/></dict>",
        "<dict><key>a</key>" + dict(["b", "c"]) + "<key>b</key><true/><key>a</key><false/></dict>",
        // A repeated `CF$UID` key after another key (not the UID form).
        "<dict><key>z</key><true/><key>CF$UID</key><integer>1</integer><key>CF$UID</key><integer>2</integer></dict>",
        // Keys the cache of recent short strings does not hold: long, not ASCII, and one
        // repeated after thousands of others.
        dict([String(repeating: "L", count: 200), "b", String(repeating: "L", count: 200)]),
        dict(["\u{e9}t\u{e9}", "b", "\u{e9}t\u{e9}"]),
        dict((0..<3_000).map { "key\($0)" } + ["key17"]),
    ]

    @Test(arguments: repeating)
    func repeatedKeyIsNeverProvedDistinct(_ body: String) throws {
        let (proved, repeats) = try Self.proofAndCheck(body)
        #expect(!proved)
        #expect(repeats)
    }

    /// Documents with no repeated key: proved distinct (and the exact check agrees).
    static let distinct: [String] = [
        dict(["a", "b", "c"]),
        "<array>" + dict(["x", "y"]) + dict(["y", "x"]) + dict(["x"]) + "<dict/>" + dict([]) + "</array>",
        dict((0..<300).map { "k\($0)" }),
        // The same key in a dictionary and in the one nested in it.
        "<dict><key>a</key>" + dict(["a", "b"]) + "<key>b</key>" + dict(["b", "a"]) + "</dict>",
        // Canonically equivalent but different bytes: two keys for CoreFoundation and for us.
        dict(["\u{e9}", "e\u{301}"]),
        // UIDs (not dictionaries once read) among the values.
        "<dict><key>a</key><dict><key>CF$UID</key><integer>1</integer></dict><key>b</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>",
    ]

    @Test(arguments: distinct)
    func distinctKeysAreProved(_ body: String) throws {
        let (proved, repeats) = try Self.proofAndCheck(body)
        #expect(proved)
        #expect(!repeats)
    }

    /// Archives as this package and Foundation write them are proved (the speed relies on it).
    @Test func archivesAreProved() throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = .xml
        let xml = try encoder.encode(["a": [1, 2], "b": [3]] as [String: [Int]])
        let read = try #require(xml.withUnsafeBytes { XMLPlistFastReader.readProvingKeys(XMLPlistBytes($0), maxDepth: 512) })
        #expect(read.keysDistinct)
        let foundation = try NSKeyedArchiver.archivedData(withRootObject: ["k": "v", "n": 1] as NSDictionary, requiringSecureCoding: false)
        let foundationXML = try PropertyListSerialization.data(
            fromPropertyList: try PropertyListSerialization.propertyList(from: foundation, options: [], format: nil), format: .xml, options: 0)
        let readFoundation = try #require(foundationXML.withUnsafeBytes { XMLPlistFastReader.readProvingKeys(XMLPlistBytes($0), maxDepth: 512) })
        #expect(readFoundation.keysDistinct)
    }

    /// The decoder still keeps the last occurrence of a repeated key in XML (the unproved path).
    @Test func decoderKeepsTheLastOccurrence() throws {
        let data = DuplicateKeyTests.xml
        let read = try #require(data.withUnsafeBytes { XMLPlistFastReader.readProvingKeys(XMLPlistBytes($0), maxDepth: 512) })
        #expect(!read.keysDistinct)
        #expect(try ArchiveDecoder().decode(DuplicateKeyTests.NameFirst.self, from: data).name == "second")
    }
}
