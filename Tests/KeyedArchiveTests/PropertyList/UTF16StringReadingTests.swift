import Foundation
import Testing
@testable import KeyedArchive

/// The UTF-16 string reader transcodes straight into UTF-8: every length of UTF-8 form,
/// surrogate pairs, short and long bodies, and each way a surrogate can be unpaired.
@Suite("UTF-16 string bodies")
struct UTF16StringReadingTests {
    /// A binary property list whose one object is a UTF-16 string of `units`.
    static func utf16Plist(_ units: [UInt16]) -> Data {
        var object: [UInt8] = units.count < 15 ? [0x60 | UInt8(units.count)] : [0x6F, 0x11, UInt8(units.count >> 8), UInt8(units.count & 0xFF)]
        for unit in units { object += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        return handmade(objects: [object], offsetSize: 2)
    }

    static let texts = [
        "", "a", "\u{0}x", "café", "naïve", "Straße", "日本語", "emoji🙂", "Ελληνικά", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}",
        "\u{10000}\u{10FFFF}", "🙂🙃😀", String(repeating: "Ωμέγα 日本 🙂 ", count: 40),
    ]

    @Test("Valid UTF-16 reads as the text Swift and Foundation read", arguments: texts)
    func validText(text: String) throws {
        let data = Self.utf16Plist(Array(text.utf16))
        let plist = try BinaryPropertyList(data)
        #expect(try plist.string(0) == text)
        #expect(try plist.string(0) == String(decoding: Array(text.utf16), as: UTF16.self))
        // (Foundation refuses an empty UTF-16 string object; we read it as "", as before.)
        if !text.isEmpty {
            let foundation = try PropertyListSerialization.propertyList(from: data, format: nil) as? String
            #expect(foundation == text)
        }
    }

    @Test("An unpaired surrogate throws, wherever it is", arguments: [
        [0xD800] as [UInt16], [0x61, 0xD83D], [0xD83D, 0x61], [0xDE42], [0x61, 0xDE42, 0x62], [0xD83D, 0xD83D, 0xDE42],
        Array("long enough for the long form".utf16) + [0xDBFF],
    ])
    func unpairedSurrogate(units: [UInt16]) throws {
        let plist = try BinaryPropertyList(Self.utf16Plist(units))
        #expect(throws: PropertyListError.self) { try plist.string(0) }
    }

    @Test("The decoder reads UTF-16 words, short (its fast path) and long (shared per object)")
    func decoderReadsUTF16() throws {
        let words = ["café", "日本語", "emoji🙂", String(repeating: "Ελληνικά ", count: 30)]
        let archive = try ArchiveEncoder().encode(words)
        #expect(try ArchiveDecoder().decode([String].self, from: archive) == words)
    }
}
