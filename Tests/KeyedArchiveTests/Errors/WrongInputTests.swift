import Foundation
@testable import KeyedArchive
import Testing

/// Input that is not a keyed archive is named for what it is, by one sniffing helper, in
/// the decoder, ``KeyedArchiveView``, ``ArchiveStore`` and the tool.
@Suite("Errors: input that is not an archive")
struct WrongInputTests {
    /// The first bytes of each kind the sniffer knows, and what the error says.
    static let kinds: [(name: String, bytes: [UInt8], says: String)] = [
        ("JPEG", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8), "not a property list (it looks like a JPEG image)"),
        ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], "not a property list (it looks like a PNG image)"),
        ("GIF", Array("GIF89a".utf8) + [1, 0, 1, 0], "not a property list (it looks like a GIF image)"),
        ("PDF", Array("%PDF-1.7\n%".utf8), "not a property list (it looks like a PDF document)"),
        ("ZIP", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], "not a property list (it looks like a ZIP archive)"),
        ("gzip", [0x1F, 0x8B, 0x08, 0x00], "not a property list (it looks like gzip-compressed data)"),
        ("SQLite", Array("SQLite format 3\0".utf8) + [0x10, 0x00], "not a property list (it looks like an SQLite database)"),
        ("JSON", Array(" {\"name\": \"Ada\"}".utf8), "not a property list (it looks like JSON)"),
        ("UTF-16", [0xFF, 0xFE, 0x3C, 0x00], "not a property list (it looks like UTF-16 text; XML property lists are read in UTF-8 only)"),
        ("empty", [], "not a property list (the data is empty)"),
        ("text", Array("hello, world".utf8), "not a property list (it looks like text, starting \"hello, world\")"),
        ("long text", Array("Dear diary,\ntoday I tried to open a note with the archive decoder.".utf8),
         "not a property list (it looks like text, starting \"Dear diary,\\ntoday I trie\")"),
        ("text cut in a character", Array("naïve ".utf8) + Array(repeating: UInt8(ascii: "x"), count: 56) + [0xC3, 0xAF, 0x21],
         "not a property list (it looks like text, starting \"naïve xxxxxxxxxxxxxxxxxx\")"),
        ("unknown", [0x00, 0x01, 0x02, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x21], "not a property list (it starts with neither 'bplist' nor '<' and is not text, but with 00 01 02 68 65 6c 6c 6f)"),
        ("invalid UTF-8", [0x68, 0x69, 0xFF, 0x21], "not a property list (it starts with neither 'bplist' nor '<' and is not text, but with 68 69 ff 21)"),
    ]

    @Test("the sniffer names each kind", arguments: kinds.map(\.name))
    func sniffer(name: String) throws {
        let kind = try #require(Self.kinds.first { $0.name == name })
        #expect(InputKind(sniffing: kind.bytes).notAPropertyListReason == kind.says)
        #expect(!InputKind(sniffing: kind.bytes).isPropertyList)
    }

    @Test("property lists are recognised")
    func propertyLists() throws {
        let value = PropertyListValue.dictionary([.init(key: "a", value: .integer(1))])
        #expect(InputKind(sniffing: value.propertyListData(format: .binary)) == .binaryPropertyList)
        #expect(InputKind(sniffing: value.propertyListData(format: .xml)) == .xmlPropertyList)
        #expect(InputKind(sniffing: Array("\u{FEFF}\n <plist version=\"1.0\"><true/></plist>".utf8)) == .xmlPropertyList)
        #expect(InputKind(sniffing: Array("<!-- note --><plist/>".utf8)) == .markup)
    }

    @Test("the decoder says what the data looks like", arguments: kinds.map(\.name))
    func decoder(name: String) throws {
        let kind = try #require(Self.kinds.first { $0.name == name })
        do {
            _ = try ArchiveDecoder().decode([String].self, from: Data(kind.bytes))
            Issue.record("decoded \(name)")
        } catch let error as DecodingError {
            guard case .dataCorrupted(let context) = error else { Issue.record("\(error)"); return }
            #expect(context.debugDescription == "The data is " + kind.says)
            #expect(context.underlyingError?.localizedDescription == "The data is " + kind.says)
            // Printed: the debug description, then the underlying error with the same text.
            let printed = "\(error)"
            #expect(printed.components(separatedBy: kind.says).count == 3, "\(printed)")
            #expect(printed.hasSuffix("Underlying error: The data is " + kind.says), "\(printed)")
        }
    }

    @Test("KeyedArchiveView and PropertyListValue throw the same PropertyListError", arguments: kinds.map(\.name))
    func view(name: String) throws {
        let kind = try #require(Self.kinds.first { $0.name == name })
        let error = #expect(throws: PropertyListError.self) { try KeyedArchiveView(data: Data(kind.bytes)) }
        #expect(error?.description == kind.says)
        #expect(error?.localizedDescription == kind.says)
        let plainError = #expect(throws: PropertyListError.self) { try PropertyListValue(propertyList: Data(kind.bytes)) }
        #expect(plainError?.description == kind.says)
    }

    @Test("topLevelKeys(in:) names text as text")
    func topLevelKeysOfText() throws {
        do {
            _ = try ArchiveDecoder().topLevelKeys(in: Data("hello".utf8))
            Issue.record("read keys of text")
        } catch {
            #expect(KeyedArchiveError.message(of: error) == "The data is not a property list (it looks like text, starting \"hello\")")
        }
    }

    @Test("a plain property list is named as one")
    func plainPropertyList() throws {
        let dictionary = PropertyListValue.dictionary([.init(key: "name", value: .string("plain"))])
        for data in [dictionary.propertyListData(format: .binary), dictionary.propertyListData(format: .xml),
                     PropertyListValue.array([.integer(1)]).propertyListData(format: .binary)] {
            let viewError = #expect(throws: KeyedArchiveError.self) { try KeyedArchiveView(data: data) }
            #expect(viewError?.description == "a plain property list, not a keyed archive")
            do {
                _ = try ArchiveDecoder().decode([String: String].self, from: data)
                Issue.record("decoded a plain property list")
            } catch let DecodingError.dataCorrupted(context) {
                #expect(context.debugDescription == "The data is a plain property list, not a keyed archive")
            }
        }
        // An envelope with one key missing is a damaged archive, not a plain property list.
        let damaged = PropertyListValue.dictionary([.init(key: "$version", value: .integer(100_000))])
        let error = #expect(throws: KeyedArchiveError.self) { try KeyedArchiveView(data: damaged.propertyListData(format: .binary)) }
        #expect(error?.description == "key '$archiver': missing $archiver")
    }

    @Test("a malformed property list keeps the parser's reason")
    func malformed() throws {
        do {
            _ = try ArchiveDecoder().decode(Int.self, from: Data("<plist><dict><key>a</key></plist>".utf8))
            Issue.record("decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.hasPrefix("The data is not a valid keyed archive: invalid property list: "))
        }
    }

    @Test("ArchiveStore's corrupt-file error names the kind")
    func store() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            for kind in Self.kinds where !kind.bytes.isEmpty {
                try Data(kind.bytes).write(to: folder.appendingPathComponent("photo"))
                let error = #expect(throws: ArchiveStoreError.self) { try store.load(String.self, named: "photo") }
                #expect(error?.code == .corruptFile)
                #expect(error?.cause == kind.says)
                #expect(error?.localizedDescription.hasSuffix("(left unchanged): " + kind.says) == true)
                #expect(try Data(contentsOf: folder.appendingPathComponent("photo")) == Data(kind.bytes))
            }
            let plain = PropertyListValue.dictionary([.init(key: "a", value: .integer(1))]).propertyListData(format: .xml)
            try plain.write(to: folder.appendingPathComponent("settings"))
            let error = #expect(throws: ArchiveStoreError.self) { try store.load(String.self, named: "settings") }
            #expect(error?.cause == "a plain property list, not a keyed archive")
        }
    }

    @Test("a Bool read of 0 or 1 names the Linux strategy")
    func booleanHint() throws {
        struct Flag: Codable { var on: Int }
        struct Asked: Codable { var on: Bool }
        let data = try ArchiveEncoder().encode(Flag(on: 1))
        do {
            _ = try ArchiveDecoder().decode(Asked.self, from: data)
            Issue.record("decoded 1 as Bool")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.debugDescription.contains("booleanDecodingStrategy = .numbersAreBooleans"))
            #expect(context.debugDescription.contains("Foundation on Linux"))
        }
        let decoder = ArchiveDecoder()
        decoder.booleanDecodingStrategy = .numbersAreBooleans
        #expect(try decoder.decode(Asked.self, from: data).on == true)
        // An integer the strategy would not turn into a Bool gets no such hint.
        let two = try ArchiveEncoder().encode(Flag(on: 2))
        do {
            _ = try ArchiveDecoder().decode(Asked.self, from: two)
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(!context.debugDescription.contains("numbersAreBooleans"))
        }
        // A number asked of a Boolean gets it too.
        struct Yes: Codable { var on: Bool }
        do {
            _ = try ArchiveDecoder().decode(Flag.self, from: try ArchiveEncoder().encode(Yes(on: true)))
            Issue.record("decoded true as Int")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.debugDescription.contains(".numbersAreBooleans"))
        }
    }

    @Test("a corrupt object's message is its own, and its underlying error's")
    func corruptOnce() throws {
        // An object whose $class is missing: the decoder's message and place, no repeat.
        let objects: [PropertyListValue] = [.string("$null"), .dictionary([.init(key: "name", value: .string("x"))])]
        let envelope = PropertyListValue.dictionary([
            .init(key: "$archiver", value: .string("NSKeyedArchiver")),
            .init(key: "$version", value: .integer(100_000)),
            .init(key: "$objects", value: .array(objects)),
            .init(key: "$top", value: .dictionary([.init(key: "root", value: .uid(1))])),
        ])
        struct Named: Codable { var name: String }
        do {
            _ = try ArchiveDecoder().decode(Named.self, from: envelope.propertyListData(format: .binary))
            Issue.record("decoded")
        } catch {
            // Once in the debug description, once as the underlying error; the reader's
            // own error is not chained under it.
            let printed = "\(error)"
            #expect(printed.components(separatedBy: "no $class").count == 3, "\(printed)")
            #expect(KeyedArchiveError.message(of: error).components(separatedBy: "no $class").count == 2)
        }
    }
}
