import Foundation
import Testing
@testable import KeyedArchive

// Plain binary property lists from libplist's tests (corpus/plain/libplist): every offset
// width and every reference width, plus a UID. Our reader must agree with plistlib.

@Suite("Plain binary property lists (corpus/plain/libplist)", .requiresCorpus)
struct PlainCorpusTests {
    static let files = CorpusFile.all(in: "plain/libplist")

    @Test("The folder holds the offset-width, reference-width and UID files")
    func inventory() {
        let names = Set(Self.files.map(\.name))
        for width in 1...8 {
            let suffix = width == 1 ? "byte" : "bytes"
            #expect(names.contains("off\(width)\(suffix).bplist"))
            #expect(names.contains("dictref\(width)\(suffix).bplist"))
        }
        #expect(names.contains("uid.bplist"))
    }

    @Test("Read exactly: the values libplist's tests expect", arguments: files)
    func expectedValue(file: CorpusFile) throws {
        let value = try BinaryPropertyList(try file.data()).topValue()
        if file.name == "uid.bplist" {
            #expect(value == .uid(7))
        } else {
            #expect(value == .dictionary([PropertyListEntry(key: "A", value: .string("B"))]))
        }
    }

    @Test("Our reading equals python3 plistlib's", .requiresPython3, arguments: files)
    func matchesPlistlib(file: CorpusFile) throws {
        let ours = try BinaryPropertyList(try file.data()).topValue().canonicalJSON
        let theirs = try plistlibJSON(contentsOf: file.url)
        #expect(ours == theirs)
    }

    @Test("PropertyListValue(propertyList:) agrees with BinaryPropertyList", arguments: files)
    func generalEntryPoint(file: CorpusFile) throws {
        let data = try file.data()
        #expect(try PropertyListValue(propertyList: data) == BinaryPropertyList(data).topValue())
    }

    @Test("Foundation's PropertyListSerialization reads the same", arguments: files.filter { $0.name != "uid.bplist" })
    func matchesFoundation(file: CorpusFile) throws {
        let plist = try PropertyListSerialization.propertyList(from: try file.data(), options: [], format: nil)
        #expect((plist as? [String: String]) == ["A": "B"])
    }

    @Test("The UID file is read as a UID, not as an integer or a dictionary")
    func uid() throws {
        let value = try BinaryPropertyList(try corpusData("plain/libplist/uid.bplist")).topValue()
        guard case .uid(let uid) = value else {
            Issue.record("expected .uid, got \(value)")
            return
        }
        #expect(uid == 7)
        #expect(value.canonicalJSON == #"{"UID":7}"#)
    }
}
