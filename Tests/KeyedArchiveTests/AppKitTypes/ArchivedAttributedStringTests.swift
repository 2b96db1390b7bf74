import Foundation
import Testing
@testable import KeyedArchive

@Suite("ArchivedAttributedString: NSAttributedString layouts")
struct ArchivedAttributedStringTests {
    static let rust = "apple/nskeyedunarchiver-rs/NSMutableAttributedString.plist"
    static let protobuf = "apps/instruments/Protobuf.tracetemplate"
    static let nv = "apps/interface-builder/nv-MainMenu.nib"

    @Test("Several runs: NSAttributes array + NSAttributeInfo (nskeyedunarchiver-rs), the colour interpreted", .requiresCorpus)
    func severalRuns() throws {
        let text = try ArchiveDecoder().decode(ArchivedAttributedString.self, from: try corpusData(Self.rust))
        #expect(text.string == "firstsecondthird")
        #expect(text.isMutable)
        #expect(text.runs.map(\.range) == [0..<5, 5..<16])
        guard case .color(let red)? = text.runs[0].attributes["NSColor"] else {
            Issue.record("the first run's NSColor is not a colour: \(text.runs[0].attributes)")
            return
        }
        #expect(red.space == .sRGB && red.components == [1, 0, 0])
        #expect(text.runs[1].attributes.isEmpty)
        // String still reads the text.
        #expect(try ArchiveDecoder().decode(String.self, from: try corpusData(Self.rust)) == "firstsecondthird")
    }

    @Test("One run: NSAttributes a dictionary with a font and paragraph style (Protobuf.tracetemplate object 2)", .requiresCorpus)
    func oneRun() throws {
        let text = try corpusObject(ArchivedAttributedString.self, Self.protobuf, 2)
        #expect(text.runs.count == 1 && text.runs[0].range == 0..<text.string.utf16.count)
        #expect(text.runs[0].attributes["NSFont"] == .font(ArchivedFont(name: "Helvetica", size: 12, flags: 16)))
        #expect(text.runs[0].attributes["NSParagraphStyle"] == .paragraphStyle(ArchivedParagraphStyle(alignment: 4)))
    }

    @Test("Decode → encode writes the object as Foundation wrote it", .requiresCorpus, .requiresPython3,
          arguments: [(rust, 1), (nv, 470), (nv, 482)])
    func rewritten(_ file: String, _ index: Int) throws {
        try expectRewrittenAsArchived(ArchivedAttributedString.self, file, index)
    }

    @Test("Round trip with links, numbers, repeated attributes; deterministic")
    func roundTrip() throws {
        let url = try #require(URL(string: "https://example.com/a"))
        let bold: [String: ArchivedTextAttribute] = ["NSFont": .font(ArchivedFont(name: "Helvetica-Bold", size: 12))]
        try expectRoundTrip(ArchivedAttributedString(string: "ab€cd", runs: [
            .init(range: 0..<1, attributes: bold),
            .init(range: 1..<3, attributes: ["NSLink": .link(url), "NSKern": .number(1.5), "NSUnderline": .number(1)]),
            .init(range: 3..<5, attributes: bold),
        ]))
        try expectRoundTrip(ArchivedAttributedString(string: "plain", isMutable: true))
    }

    @Test("Encoding overlapping or short runs throws")
    func encodingRefusesBadRuns() {
        #expect(throws: EncodingError.self) {
            try ArchiveEncoder().encode(ArchivedAttributedString(string: "abc", runs: [.init(range: 0..<2, attributes: [:]), .init(range: 1..<3, attributes: [:])]))
        }
        #expect(throws: EncodingError.self) {
            try ArchiveEncoder().encode(ArchivedAttributedString(string: "abc", runs: [.init(range: 0..<2, attributes: [:])]))
        }
    }

    /// The rust fixture with its NSAttributeInfo bytes replaced.
    static func withInfo(_ bytes: [UInt8]) throws -> Data {
        guard case .dictionary(var root) = try PropertyListValue(propertyList: try corpusData(rust)),
              let index = root.firstIndex(where: { $0.key == "$objects" }),
              case .array(var objects) = root[index].value,
              case .dictionary(var info) = objects[15],
              let field = info.firstIndex(where: { $0.key == "NS.data" }) else { throw CancellationError() }
        info[field].value = .data(Data(bytes))
        objects[15] = .dictionary(info)
        root[index].value = .array(objects)
        return PropertyListValue.dictionary(root).propertyListData(format: .binary)
    }

    @Test("Runs past the end, short of it, naming a missing dictionary or cut short throw a DecodingError",
          .requiresCorpus,
          arguments: [([5, 0, 12, 1], "ends past"), ([5, 0, 10, 1], "cover"), ([5, 0, 11, 2], "names attributes"),
                      ([5, 0, 11], "pairs"), ([0x85], "pairs")] as [([UInt8], String)])
    func hostileRuns(_ bytes: [UInt8], _ message: String) throws {
        expectDecodingError(ArchivedAttributedString.self, from: try Self.withInfo(bytes), mentioning: message)
    }

    @Test("Attribute dictionaries are read once each and counted against the decoder's work budget")
    func workBudget() throws {
        // 2,000 runs with 2,000 distinct dictionaries: reading them takes more than 500
        // visits, so that limit stops the read; runs are built from the table read once.
        let runs = (0..<2_000).map { ArchivedAttributedString.Run(range: $0..<($0 + 1), attributes: ["NSKern": .number(Double($0))]) }
        let data = try ArchiveEncoder().encode(ArchivedAttributedString(string: String(repeating: "x", count: 2_000), runs: runs))
        #expect(try ArchiveDecoder().decode(ArchivedAttributedString.self, from: data).runs == runs)
        let decoder = ArchiveDecoder()
        decoder.limits = .init(maxObjectVisits: 500)
        #expect {
            try decoder.decode(ArchivedAttributedString.self, from: data)
        } throws: { error in
            decodingErrorMessage(error)?.contains("maxObjectVisits") == true
        }
    }

    @Test("Attributes of unknown classes, booleans and whole reals are kept as archived and written back field for field (hand-made)",
          .requiresPython3)
    func unknownAttributesKept() throws {
        // One run over "ab": an NSTextAttachment object (with a nested NSFileWrapper-like
        // object and inline data), NSKern 2.0 (a real), NSObliqueness true (a boolean).
        let data = archive([
            dict(["NSString": uid(2), "NSAttributes": uid(3), "$class": uid(13)]),
            .string("ab"),
            dict(["NS.keys": .array([uid(4), uid(5), uid(6)]), "NS.objects": .array([uid(7), uid(8), uid(9)]), "$class": uid(12)]),
            .string("NSAttachment"), .string("NSKern"), .string("NSObliqueness"),
            dict(["NSFileWrapper": uid(10), "NSFlags": .integer(3), "NSBounds": .data(Data([1, 2])), "$class": uid(14)]),
            .real(2), .bool(true),
            dict(["NSName": uid(11), "$class": uid(15)]),
            .string("image.png"),
            classEntry("NSDictionary"), classEntry("NSAttributedString"), classEntry("NSTextAttachment"), classEntry("NSFileWrapper"),
        ])
        let text = try ArchiveDecoder().decode(ArchivedAttributedString.self, from: data)
        let run = try #require(text.runs.first)
        #expect(run.attributes == ["NSAttachment": .other(className: "NSTextAttachment"), "NSKern": .number(2), "NSObliqueness": .number(1)])
        #expect(run.archivedValues["NSKern"] == .plain(.real(2)) && run.archivedValues["NSObliqueness"] == .plain(.bool(true)))
        #expect(run.archivedValues["NSAttachment"]?.className == "NSTextAttachment")
        let rewritten = try ArchiveEncoder().encode(text)
        #expect(try archivedGraph(rewritten) == archivedGraph(data))
        // A changed number is written as the new number, not the kept one.
        var changed = text
        changed.runs[0].attributes["NSKern"] = .number(2.5)
        #expect(try ArchiveDecoder().decode(ArchivedAttributedString.self, from: ArchiveEncoder().encode(changed))
            .runs[0].attributes["NSKern"] == .number(2.5))
    }
}
