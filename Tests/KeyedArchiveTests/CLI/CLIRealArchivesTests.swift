import Foundation
import Testing
@testable import KeyedArchive

/// Issue 27: archivers that subclass NSKeyedArchiver, values stored inline in `$top`, and the
/// numbered collection layouts such archivers write.
@Suite("Real archives: archiver names, inline $top values, numbered layouts")
struct CLIRealArchivesTests {
    /// A small Foundation-shaped archive (an NSArray of one string) with `$archiver` set to
    /// `archiver`, and `extraTop` stored inline in `$top`.
    static func archive(archiver: String, extraTop: [PropertyListEntry] = [], numbered: Bool = false) -> Data {
        let elements: [PropertyListEntry] = numbered
            ? [.init(key: "NS.object.0", value: .uid(3)), .init(key: "NS.object.1", value: .uid(4))]
            : [.init(key: "NS.objects", value: .array([.uid(3), .uid(4)]))]
        let root = PropertyListValue.dictionary([
            .init(key: "$archiver", value: .string(archiver)),
            .init(key: "$version", value: .integer(100_000)),
            .init(key: "$top", value: .dictionary([.init(key: "root", value: .uid(1))] + extraTop)),
            .init(key: "$objects", value: .array([
                .string("$null"),
                .dictionary([.init(key: "$class", value: .uid(2))] + elements),
                CLIFixtures.classEntry("NSArray"),
                .string("hello"),
                .string("world"),
            ])),
        ])
        return root.propertyListData(format: .binary)
    }

    @Test("A name ending in KeyedArchiver reads like NSKeyedArchiver: decoder, view, json, verify (with a note)")
    func subclassArchiver() throws {
        let data = Self.archive(archiver: "SCNKeyedArchiver")
        #expect(try ArchiveDecoder().decode([String].self, from: data) == ["hello", "world"])
        #expect(try KeyedArchiveView(data: data).archiverName == "SCNKeyedArchiver")
        #expect(try KeyedArchiveView(data: Self.archive(archiver: "NSKeyedArchiver")).archiverName == "NSKeyedArchiver")
        let file = try CLI.temporaryFile(data)
        let json = try CLI.run(["json", file])
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"world\""))
        let verify = try CLI.run(["verify", file])
        #expect(verify.status == 0)
        #expect(verify.stderr.contains("note: $archiver: is 'SCNKeyedArchiver'"))
        #expect(verify.stdout.contains(": OK (5 objects, 1 note)"))
    }

    @Test("Any other archiver name is still refused", arguments: ["NSArchiver", "DummyArchiver", "KeyedArchiverX"])
    func otherArchiverRefused(name: String) throws {
        let data = Self.archive(archiver: name)
        #expect(throws: (any Error).self) { try ArchiveDecoder().decode([String].self, from: data) }
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveView(data: data) }
        let verify = try CLI.run(["verify", try CLI.temporaryFile(data)])
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("expected 'NSKeyedArchiver' or a name ending in 'KeyedArchiver'"))
    }

    @Test("Numbers and booleans stored directly under $top are sound, and decode")
    func inlineTopValues() throws {
        let data = Self.archive(archiver: "NSKeyedArchiver", extraTop: [
            .init(key: "IB.systemFontUpdateVersion", value: .integer(1)),
            .init(key: "usePixelGrid", value: .bool(true)),
            .init(key: "ratio", value: .real(0.5)),
        ])
        let verify = try CLI.run(["verify", try CLI.temporaryFile(data)])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stderr.isEmpty)
        #expect(try ArchiveDecoder().decode(Int.self, forKey: "IB.systemFontUpdateVersion", from: data) == 1)
        #expect(try ArchiveDecoder().decode(Bool.self, forKey: "usePixelGrid", from: data))
    }

    @Test("An NSArray in the numbered layout (NS.object.0, …) reads in the decoder, the view and verify")
    func numberedArray() throws {
        let data = Self.archive(archiver: "SCNKeyedArchiver", numbered: true)
        #expect(try ArchiveDecoder().decode([String].self, from: data) == ["hello", "world"])
        let view = try KeyedArchiveView(data: data)
        #expect(view.foundationValue(of: view.objects[1]) == .array([.reference(3), .reference(4)]))
        #expect(view.addedFields(of: view.objects[1]).isEmpty)
        let verify = try CLI.run(["verify", try CLI.temporaryFile(data)])
        #expect(verify.status == 0, "\(verify.stderr)")
    }

    @Test("An NSDictionary in the numbered layout (NS.key.0, NS.object.0, …) is shown by the view and json")
    func numberedDictionary() throws {
        let root = PropertyListValue.dictionary([
            .init(key: "$archiver", value: .string("SCNKeyedArchiver")),
            .init(key: "$version", value: .integer(100_000)),
            .init(key: "$top", value: .dictionary([.init(key: "root", value: .uid(1))])),
            .init(key: "$objects", value: .array([
                .string("$null"),
                CLIFixtures.object(2, [("NS.key.0", .uid(3)), ("NS.object.0", .uid(4))]),
                CLIFixtures.classEntry("NSMutableDictionary"),
                .string("name"),
                .string("fox"),
            ])),
        ])
        let data = root.propertyListData(format: .binary)
        let view = try KeyedArchiveView(data: data)
        #expect(view.foundationValue(of: view.objects[1]) == .dictionary(keys: [.reference(3)], values: [.reference(4)]))
        let json = try CLI.run(["json", "--compact", try CLI.temporaryFile(data)])
        #expect(json.stdout == "{\"name\":\"fox\"}\n")
        #expect(try CLI.run(["verify", try CLI.temporaryFile(data)]).status == 0)
    }
}
