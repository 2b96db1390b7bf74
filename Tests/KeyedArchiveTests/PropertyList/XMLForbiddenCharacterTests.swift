import Foundation
@testable import KeyedArchive
import Testing

/// XML 1.0 cannot hold most C0 controls, U+FFFE or U+FFFF: XML output refuses a string or
/// key holding one (naming it, its path and object), unless the encoder is told to write it
/// raw as Foundation does; the default output is one every XML reader parses.
@Suite("XML output: characters XML 1.0 cannot represent")
struct XMLForbiddenCharacterTests {
    struct Item: Codable, Equatable { var title: String; var note: String }
    struct Menu: Codable, Equatable { var name: String; var items: [Item] }

    static func xmlEncoder() -> ArchiveEncoder {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = .xml
        return encoder
    }

    @Test("every forbidden character is refused, naming the path", arguments:
          Array(0x00...0x08) + [0x0B, 0x0C] + Array(0x0E...0x1F) + [0xFFFE, 0xFFFF])
    func refused(code: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(code))
        let menu = Menu(name: "Edit", items: [Item(title: "Copy", note: ""), Item(title: "Back\(Character(scalar))space", note: "")])
        do {
            _ = try Self.xmlEncoder().encode(menu)
            Issue.record("wrote U+\(String(code, radix: 16)) into XML")
        } catch let EncodingError.invalidValue(value, context) {
            #expect(value as? String == "Back\(Character(scalar))space")
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index 1", "title"])
            let hex = String(format: "%04X", code)
            #expect(context.debugDescription.contains("at 'items[1].title' holds U+\(hex)"), "\(context.debugDescription)")
            #expect(context.debugDescription.contains("outputFormat = .binary"))
            #expect(context.debugDescription.contains("invalidXMLCharacterStrategy = .writeRaw"))
            #expect(context.debugDescription.contains("(object "))
        }
    }

    @Test("tab, line feed, carriage return and other characters are written")
    func allowed() throws {
        let text = "a\tb\nc\rd é \u{FFFD} \u{FEFF} \u{FFEF} 😀 <&>"
        let data = try Self.xmlEncoder().encode(Item(title: text, note: "\u{EFFF}\u{F000}"))
        #expect(try ArchiveDecoder().decode(Item.self, from: data) == Item(title: text, note: "\u{EFFF}\u{F000}"))
    }

    @Test("a forbidden character in a field key or a dictionary key is refused too")
    func keys() throws {
        do {
            _ = try Self.xmlEncoder().encode(["ok": 1, "b\u{1}d": 2])
            Issue.record("wrote a dictionary key with U+0001")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.debugDescription.hasPrefix("Cannot write XML: the key \"b\\u{"), "\(context.debugDescription)")
            #expect(context.debugDescription.contains("holds U+0001"))
        }
        struct Weird: Encodable {
            struct Key: CodingKey {
                var stringValue: String
                init(stringValue: String) { self.stringValue = stringValue }
                var intValue: Int? { nil }
                init?(intValue: Int) { nil }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: Key(stringValue: "x\u{7}"))
            }
        }
        do {
            _ = try Self.xmlEncoder().encode(Weird())
            Issue.record("wrote a field key with U+0007")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.debugDescription.hasPrefix("Cannot write XML: the key \"x\\u{"), "\(context.debugDescription)")
            #expect(!context.debugDescription.contains("\u{7}"), "the message shows the character escaped")
            #expect(context.codingPath.last?.stringValue == "x\u{7}")
        }
    }

    @Test("binary output holds any string")
    func binary() throws {
        let item = Item(title: "Back\u{8}space", note: "\u{FFFF}")
        let data = try ArchiveEncoder().encode(item)
        #expect(try ArchiveDecoder().decode(Item.self, from: data) == item)
    }

    @Test(".writeRaw writes the characters as Foundation does, and reads back")
    func writeRaw() throws {
        let encoder = Self.xmlEncoder()
        encoder.invalidXMLCharacterStrategy = .writeRaw
        let item = Item(title: "Back\u{8}space", note: "ok")
        let data = try encoder.encode(item)
        #expect(data.contains(0x08))
        #expect(try ArchiveDecoder().decode(Item.self, from: data) == item)
        // The same bytes Foundation's archiver would put there: the character itself.
        #expect(String(decoding: data, as: UTF8.self).contains("<string>Back\u{8}space</string>"))
    }

    @Test("prettyPrinted output is refused the same way")
    func prettyPrinted() throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormatting = .prettyPrinted
        #expect(throws: EncodingError.self) { try encoder.encode(Item(title: "\u{0}", note: "")) }
    }

    @Test("our default XML output parses with python3's plistlib", .requiresPython3)
    func plistlibParses() throws {
        let menu = Menu(name: "Edit <&>", items: [Item(title: "Delete\tall", note: "line\none \u{FFFD} 😀")])
        let data = try Self.xmlEncoder().encode(menu)
        let json = try plistlibJSON(of: data)
        #expect(json.contains("\"Edit <&>\""), "\(json)")
        #expect(json.contains("Delete\\tall"), "\(json)")
        // What .writeRaw gives is rejected by plistlib: the reason for the default.
        let raw = Self.xmlEncoder()
        raw.invalidXMLCharacterStrategy = .writeRaw
        let rawData = try raw.encode(Item(title: "Back\u{8}space", note: ""))
        #expect(throws: Python3Error.self) { try plistlibJSON(of: rawData) }
    }

    @Test("the scan's flag agrees with the exact check on every byte")
    func scan() {
        for byte in 0...255 {
            let bytes = [UInt8(byte)]
            bytes.withUnsafeBufferPointer { text in
                let exact = XMLPlistEscaping.hasForbiddenCharacter(text)
                if exact { #expect(XMLPlistEscaping.scan(text).mayBeForbidden, "byte \(byte)") }
            }
        }
        for text in ["\u{FFFE}", "\u{FFFF}", "x\u{FFFF}y"] {
            #expect(XMLPlistEscaping.firstForbiddenCharacter(in: text) != nil, "\(text.unicodeScalars.map(\.value))")
        }
        for text in ["\u{FFFD}", "\u{FFEF}", "\u{F000}", "\u{FEFF}"] {
            #expect(XMLPlistEscaping.firstForbiddenCharacter(in: text) == nil, "\(text.unicodeScalars.map(\.value))")
        }
    }
}
