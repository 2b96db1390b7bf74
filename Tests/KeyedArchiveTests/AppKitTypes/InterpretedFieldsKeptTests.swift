import Foundation
import Testing
@testable import KeyedArchive

// Issue 52, item 3: json and dump show the fields of interpreted AppKit values that the
// interpretation does not model: a paragraph style's (a bulleted list's NSTextLists →
// NSTextList with NSMarkerFormat "{disc}"), on its own and inside attributed text, and a
// font's. uid, dict, classEntry
// and archive(_:) are in Support/HandBuiltArchive.swift.

/// Bulleted text: an attributed string (object 1) whose one run has a paragraph style
/// (object 7) with a text list (object 11) whose marker format is "{disc}".
private let bulletedText = archive([
    dict(["$class": uid(2), "NSString": uid(3), "NSAttributes": uid(4)]),                       // 1
    classEntry("NSMutableAttributedString", superclasses: ["NSAttributedString", "NSObject"]),  // 2
    .string("item"),                                                                           // 3
    dict(["$class": uid(5), "NS.keys": .array([uid(6)]), "NS.objects": .array([uid(7)])]),     // 4
    classEntry("NSDictionary"),                                                                 // 5
    .string("NSParagraphStyle"),                                                                // 6
    dict(["$class": uid(8), "NSAlignment": .integer(4), "NSTextLists": uid(9)]),                // 7
    classEntry("NSMutableParagraphStyle", superclasses: ["NSParagraphStyle", "NSObject"]),      // 8
    dict(["$class": uid(10), "NS.objects": .array([uid(11)])]),                                // 9
    classEntry("NSArray"),                                                                      // 10
    dict(["$class": uid(12), "NSMarkerFormat": uid(13), "NSTextListFlags": .integer(0)]),      // 11
    classEntry("NSTextList"),                                                                   // 12
    .string("{disc}"),                                                                          // 13
])

/// A font (object 1) with a field its interpretation does not model.
private let fontWithExtra = archive([
    dict(["$class": uid(2), "NSName": uid(3), "NSSize": .real(12), "NSfFlags": .integer(16), "NSFeatureSettings": uid(4)]),
    classEntry("NSFont"), .string("Helvetica"), .string("liga-off"),
])

/// Every string in a value, keys of inline dictionaries included.
private func strings(in value: ArchivedValue) -> Set<String> {
    switch value {
    case .string(let text): return [text]
    case .array(let items): return items.reduce(into: []) { $0.formUnion(strings(in: $1)) }
    case .dictionary(let fields): return fields.reduce(into: []) { $0.insert($1.key); $0.formUnion(strings(in: $1.value)) }
    default: return []
    }
}

@Suite("Interpreted AppKit values keep the fields their interpretation does not model")
struct InterpretedFieldsKeptTests {
    @Test("A paragraph style's fields show its text lists, on its own and in attributed text")
    func paragraphStyleFields() throws {
        let view = try KeyedArchiveView(data: bulletedText)
        let style = try #require(view.appKitValue(of: view.objects[7]))
        #expect(style.fields.map(\.key) == ["alignment", "NSTextLists"])
        #expect(strings(in: .dictionary(style.fields)).isSuperset(of: ["NSTextList", "{disc}"]))
        let text = try #require(view.appKitValue(of: view.objects[1]))
        #expect(strings(in: .dictionary(text.fields)).isSuperset(of: ["item", "NSTextLists", "{disc}"]))
    }

    @Test("A font's field the interpretation does not model is shown beside it")
    func unmodelledFontField() throws {
        let view = try KeyedArchiveView(data: fontWithExtra)
        let font = try #require(view.appKitValue(of: view.objects[1]))
        #expect(view.unmodelledFields(of: view.objects[1], value: font).map(\.key) == ["NSFeatureSettings"])
        var interpretations = AppKitInterpretations(view: view)
        #expect(try interpretations.shownFields(of: view.objects[1], in: view)?.map(\.key) == ["name", "size", "NSFeatureSettings"])
    }

    @Test("keyedarchive json and dump show the marker format and the font's other field")
    func toolShowsIt() throws {
        let bulleted = try CLI.temporaryFile(bulletedText, name: "bulleted.plist")
        let font = try CLI.temporaryFile(fontWithExtra, name: "font.plist")
        for command in ["json", "dump"] {
            let run = try CLI.run([command, bulleted])
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(run.stdout.contains("{disc}"), "\(command) drops the text list: \(run.stdout)")
            #expect(run.stdout.contains("NSTextLists"))
            let fontRun = try CLI.run([command, font])
            #expect(fontRun.status == 0, "\(command): \(fontRun.stderr)")
            #expect(fontRun.stdout.contains("liga-off"), "\(command) drops the font's field: \(fontRun.stdout)")
            #expect(fontRun.stdout.contains("Helvetica"))
        }
    }
}
