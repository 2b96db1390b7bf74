import Foundation
import Testing
@testable import KeyedArchive

@Suite("PersonNameComponents (NSPersonNameComponents) and NSAttributedString as String")
struct PersonNameAttributedTests {
    static var names: [PersonNameComponents] {
        var ada = PersonNameComponents()
        ada.givenName = "Ada"
        ada.familyName = "Lovelace"
        ada.nickname = "A"
        var phonetic = PersonNameComponents()
        phonetic.givenName = "エイダ"
        var withPhonetic = ada
        withPhonetic.namePrefix = "Countess"
        withPhonetic.phoneticRepresentation = phonetic
        return [ada, withPhonetic, PersonNameComponents()]
    }

    /// Whether Foundation on this machine writes Apple's nested layout (it does on Apple
    /// platforms; Foundation on Linux writes the name parts on the object itself).
    static var foundationWritesNestedLayout: Bool {
        var name = PersonNameComponents()
        name.givenName = "x"
        let data = foundationArchive(name as NSPersonNameComponents, format: .xml)
        return String(decoding: data, as: UTF8.self).contains("NS.nameComponentsPrivate")
    }

    @Test("NSKeyedUnarchiver reads our NSPersonNameComponents", arguments: names)
    func foundationReadsUs(_ name: PersonNameComponents) throws {
        if Self.foundationWritesNestedLayout {
            for read in try foundationReads(name, as: NSPersonNameComponents.self) {
                #expect(read as PersonNameComponents == name)
            }
            return
        }
        // Foundation on Linux reads the name parts only from its own flat layout and
        // decodes each key unconditionally: Apple's nested layout (which we write) fails
        // there with a missing key, or would come back as an empty name.
        for format in PropertyListFormat.allCases {
            do {
                let read = try #require(try foundationUnarchive(archive(name, format: format)) as? NSPersonNameComponents)
                #expect(read.givenName == nil && read.familyName == nil && read.nickname == nil)
            } catch let error as FoundationUnarchiveError {
                #expect(error.description.contains("No value found for key"), "\(error)")
            }
        }
    }

    @Test("NSKeyedArchiver's NSPersonNameComponents decodes as Foundation reads it back", arguments: names)
    func weReadFoundation(_ name: PersonNameComponents) throws {
        // The oracle is Foundation's own round trip (Foundation on Linux does not archive
        // the phonetic representation).
        let archived = foundationArchive(name as NSPersonNameComponents)
        let own = try #require(try foundationUnarchive(archived) as? NSPersonNameComponents) as PersonNameComponents
        #expect(try weRead(PersonNameComponents.self, fromFoundationArchiveOf: name as NSPersonNameComponents) == [own, own])
        #expect(own.givenName == name.givenName && own.familyName == name.familyName && own.nickname == name.nickname)
    }

    @Test("Apple's nested layout: NS.nameComponentsPrivate → _NSPersonNameComponentsData", .requiresPython3)
    func appleLayout() throws {
        let graph = try archivedGraph(archive(Self.names[0], format: .binary))
        #expect(graph == #"{"$class": ["NSPersonNameComponents", "NSObject"], "NS.nameComponentsPrivate": {"$class": ["_NSPersonNameComponentsData", "NSObject"], "NS.familyName": "Lovelace", "NS.givenName": "Ada", "NS.middleName": null, "NS.namePrefix": null, "NS.nameSuffix": null, "NS.nickname": "A", "NS.phoneticRepresentation": null}}"#)
    }

    @Test("Round trip inside a struct, and deterministic")
    func roundTrip() throws {
        struct Contact: Codable, Equatable {
            var name: PersonNameComponents
            var aliases: [PersonNameComponents]
        }
        let contact = Contact(name: Self.names[1], aliases: Self.names)
        try expectRoundTrip(contact)
    }

    @Test("A phonetic representation that contains itself is refused as a cycle")
    func phoneticCycle() throws {
        // Point the phonetic representation of Linux's flat layout back at the object.
        var name = PersonNameComponents()
        name.givenName = "Loop"
        var phonetic = PersonNameComponents()
        phonetic.givenName = "x"
        name.phoneticRepresentation = phonetic
        guard case .dictionary(var root) = try PropertyListValue(propertyList: archive(name, format: .binary)),
              let index = root.firstIndex(where: { $0.key == "$objects" }),
              case .array(var objects) = root[index].value else { throw CancellationError() }
        for (i, object) in objects.enumerated() {
            guard case .dictionary(var entries) = object,
                  let p = entries.firstIndex(where: { $0.key == "NS.phoneticRepresentation" }),
                  entries[p].value != .uid(0) else { continue }
            entries[p].value = .uid(UInt64(i))
            objects[i] = .dictionary(entries)
        }
        root[index].value = .array(objects)
        let data = PropertyListValue.dictionary(root).propertyListData(format: .binary)
        #expect {
            try ArchiveDecoder().decode(PersonNameComponents.self, from: data)
        } throws: { error in
            decodingErrorMessage(error)?.contains("cycle") == true
        }
    }

    @Test("A phonetic chain 20,000 deep stops at the depth limit")
    func deepPhoneticChain() throws {
        // Linux's flat layout: object i's phonetic representation is object i + 1.
        let depth = 20_000
        var objects: [PropertyListValue] = [.string("$null"), .dictionary([
            PropertyListEntry(key: "$classes", value: .array([.string("NSPersonNameComponents"), .string("NSObject")])),
            PropertyListEntry(key: "$classname", value: .string("NSPersonNameComponents")),
        ])]
        for i in 0..<depth {
            let next: UInt64 = i == depth - 1 ? 0 : UInt64(objects.count + 1)
            objects.append(.dictionary([
                PropertyListEntry(key: "$class", value: .uid(1)),
                PropertyListEntry(key: "NS.phoneticRepresentation", value: .uid(next)),
            ]))
        }
        let archive = PropertyListValue.dictionary([
            PropertyListEntry(key: "$version", value: .integer(100_000)),
            PropertyListEntry(key: "$archiver", value: .string("NSKeyedArchiver")),
            PropertyListEntry(key: "$top", value: .dictionary([PropertyListEntry(key: "root", value: .uid(2))])),
            PropertyListEntry(key: "$objects", value: .array(objects)),
        ])
        #expect {
            try ArchiveDecoder().decode(PersonNameComponents.self, from: archive.propertyListData(format: .binary))
        } throws: { error in
            decodingErrorMessage(error)?.contains("deeper than the decoder's limit") == true
        }
    }

    @Test("NSAttributedString and NSMutableAttributedString read as their text")
    func attributedText() throws {
        let plain = NSAttributedString(string: "hello, world")
        #expect(try weRead(String.self, fromFoundationArchiveOf: plain) == ["hello, world", "hello, world"])
        let mutable = NSMutableAttributedString(string: "first")
        mutable.append(NSAttributedString(string: "second", attributes: [.init("k"): "v"]))
        #expect(try weRead(String.self, fromFoundationArchiveOf: mutable) == ["firstsecond", "firstsecond"])
        // An object of another class with an NSString field is not text.
        expectTypeMismatch(String.self, from: foundationArchive(NSIndexSet(index: 3)))
    }

    @Test("The rust corpus's NSMutableAttributedString reads as its text", .requiresCorpus)
    func attributedCorpus() throws {
        let data = try corpusData("apple/nskeyedunarchiver-rs/NSMutableAttributedString.plist")
        #expect(try ArchiveDecoder().decode(String.self, from: data) == "firstsecondthird")
    }

    @Test("Other objects asked for as PersonNameComponents throw typeMismatch")
    func wrongClass() throws {
        expectTypeMismatch(PersonNameComponents.self, from: try archive(Locale(identifier: "en"), format: .binary))
        expectTypeMismatch(PersonNameComponents.self, from: try archive(["givenName": "Ada"], format: .binary))
    }
}
