import Foundation
import Testing
@testable import KeyedArchive

@Suite("ArchivedFont and ArchivedParagraphStyle: NSFont, UIFont, NSParagraphStyle layouts")
struct ArchivedFontParagraphTests {
    static let protobuf = "apps/instruments/Protobuf.tracetemplate"
    static let coreData = "apps/core-data-model/CoreDataBooks-layout"
    static let nv = "apps/interface-builder/nv-MainMenu.nib"

    @Test("NSFont {NSName, NSSize, NSfFlags} (Protobuf.tracetemplate object 10, CoreDataBooks-layout object 30)", .requiresCorpus)
    func appKitFont() throws {
        #expect(try corpusObject(ArchivedFont.self, Self.protobuf, 10) == ArchivedFont(name: "Helvetica", size: 12, flags: 16))
        #expect(try corpusObject(ArchivedFont.self, Self.coreData, 30) == ArchivedFont(name: "LucidaGrande", size: 11, flags: 16))
    }

    @Test("Decode → encode writes fonts and paragraph styles as AppKit wrote them", .requiresCorpus, .requiresPython3,
          arguments: [(protobuf, 10), (coreData, 30)])
    func fontRewritten(_ file: String, _ index: Int) throws {
        try expectRewrittenAsArchived(ArchivedFont.self, file, index)
    }

    @Test("NSParagraphStyle {NSAlignment, NSTabStops: $null} (Protobuf.tracetemplate object 8, nv-MainMenu.nib object 551)",
          .requiresCorpus, .requiresPython3)
    func paragraphStyle() throws {
        #expect(try corpusObject(ArchivedParagraphStyle.self, Self.protobuf, 8) == ArchivedParagraphStyle(alignment: 4))
        try expectRewrittenAsArchived(ArchivedParagraphStyle.self, Self.protobuf, 8)
        try expectRewrittenAsArchived(ArchivedParagraphStyle.self, Self.nv, 551)
    }

    @Test("UIFont's UIFontName and UIFontPointSize")
    func uiKitFont() throws {
        let data = handMadeObject("UIFont", [
            PropertyListEntry(key: "UIFontName", value: .string(".SFUI-Regular")),
            PropertyListEntry(key: "UIFontPointSize", value: .real(17)),
            PropertyListEntry(key: "UISystemFont", value: .bool(true)),
        ])
        #expect(try ArchiveDecoder().decode(ArchivedFont.self, from: data)
            == ArchivedFont(name: ".SFUI-Regular", size: 17, isSystemFont: true))
    }

    @Test("Unknown numeric fields and tab stops are kept and written back")
    func paragraphFieldsKept() throws {
        let data = handMadeObject("NSParagraphStyle", [
            PropertyListEntry(key: "NSAlignment", value: .integer(2)),
            PropertyListEntry(key: "NSLineSpacing", value: .real(3.5)),
            PropertyListEntry(key: "NSSomeFutureField", value: .real(7)),
            PropertyListEntry(key: "NSLineBreakMode", value: .integer(4)),
        ])
        let style = try ArchiveDecoder().decode(ArchivedParagraphStyle.self, from: data)
        #expect(style == ArchivedParagraphStyle(alignment: 2, numbers: ["NSLineSpacing": 3.5, "NSSomeFutureField": 7, "NSLineBreakMode": 4]))
        #expect(style.lineSpacing == 3.5)
        try expectRoundTrip(ArchivedParagraphStyle(alignment: 1, tabStops: [ArchivedTextTab(location: 28), ArchivedTextTab(location: 56, alignment: 2)],
                                                   numbers: ["NSHeadIndent": 10, "NSLineBreakMode": 0]))
        try expectRoundTrip(ArchivedFont(name: "Menlo-Regular", size: 11))
    }

    @Test("A NaN font size or paragraph field throws a DecodingError")
    func hostile() {
        expectDecodingError(ArchivedFont.self, from: handMadeObject("NSFont", [
            PropertyListEntry(key: "NSName", value: .string("X")), PropertyListEntry(key: "NSSize", value: .real(.nan)),
        ]), mentioning: "size")
        expectDecodingError(ArchivedParagraphStyle.self, from: handMadeObject("NSParagraphStyle", [
            PropertyListEntry(key: "NSLineSpacing", value: .real(.infinity)),
        ]), mentioning: "NSLineSpacing")
        expectTypeMismatch(ArchivedFont.self, from: handMadeObject("NSParagraphStyle", []))
    }
}
