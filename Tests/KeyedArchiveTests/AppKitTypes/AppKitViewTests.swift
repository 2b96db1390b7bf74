import Foundation
import Testing
@testable import KeyedArchive

@Suite("KeyedArchiveView.appKitValue and the tool's json/dump of AppKit values")
struct AppKitViewTests {
    @Test("The view interprets colours, fonts, paragraph styles and attributed text as the decoder does", .requiresCorpus)
    func viewInterprets() throws {
        let view = try KeyedArchiveView(data: try corpusData("apps/instruments/Protobuf.tracetemplate"))
        #expect(view.appKitValue(of: view.objects[10]) == .font(ArchivedFont(name: "Helvetica", size: 12)))
        #expect(view.appKitValue(of: view.objects[8]) == .paragraphStyle(ArchivedParagraphStyle(alignment: 4)))
        guard case .attributedString(let text)? = view.appKitValue(of: view.objects[2]) else {
            Issue.record("object 2 is not read as attributed text")
            return
        }
        #expect(text == (try corpusObject(ArchivedAttributedString.self, "apps/instruments/Protobuf.tracetemplate", 2)))
        #expect(view.appKitValue(of: view.objects[3]) == nil)   // an NSMutableString
        let colors = try KeyedArchiveView(data: try corpusData("apps/color-lists/Stanford.clr"))
        guard case .color(let color)? = colors.appKitValue(of: colors.objects[52]) else {
            Issue.record("object 52 is not read as a colour")
            return
        }
        #expect(color.hexRGBA == "#8C1515FF")
        #expect(ArchivedAppKitValue.color(color).fields.map(\.key) == ["space", "components", "alpha", "hex"])
    }

    @Test("A malformed colour is not interpreted (its fields are shown instead)")
    func malformed() throws {
        let view = try KeyedArchiveView(data: handMadeObject("NSColor", [
            PropertyListEntry(key: "NSColorSpace", value: .integer(1)),
            PropertyListEntry(key: "NSRGB", value: .data(Data("nan 0 0".utf8))),
        ]))
        #expect(view.appKitValue(of: view.objects[1]) == nil)
    }

    @Test("A value holding more than 64 KiB of data is not interpreted, so shared large data costs bounded time")
    func bounded() throws {
        let big = archive([
            dict(["NSColorSpace": .integer(1), "NSRGB": .data(Data("1 0 0".utf8)), "NSComponents": .data(Data("1 0 0 1".utf8)),
                  "NSCustomColorSpace": uid(3), "$class": uid(2)]),
            classEntry("NSColor"),
            dict(["NSID": .integer(7), "NSICC": .data(Data(count: 70_000)), "$class": uid(4)]),
            classEntry("NSColorSpace"),
        ])
        let view = try KeyedArchiveView(data: big)
        #expect(view.appKitValue(of: view.objects[1]) == nil)
        #expect(try ArchiveDecoder().decode(ArchivedColor.self, from: big).colorSpace?.iccProfile?.count == 70_000)
    }

    @Test("keyedarchive json and dump show a colour as its space, components and hex", .requiresCorpus)
    func tool() throws {
        let file = CLI.corpusFile("apple/nskeyedunarchiver-rs/NSMutableAttributedString.plist")
        let json = try CLI.run(["json", file])
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"hex\""))
        #expect(json.stdout.contains("#FF0000FF"))
        #expect(json.stdout.contains("sRGB"))
        let dump = try CLI.run(["dump", file])
        #expect(dump.status == 0)
        #expect(dump.stdout.contains("#FF0000FF"))
    }

    @Test("keyedarchive swift types colour and font fields as ArchivedColor and ArchivedFont", .requiresCorpus)
    func swiftUsesValueTypes() throws {
        let result = try CLI.run(["swift", CLI.corpusFile("apps/core-data-model/CoreDataBooks-layout")])
        #expect(result.status == 0)
        #expect(result.stdout.contains(": ArchivedColor"))
        #expect(result.stdout.contains(": ArchivedFont"))
        #expect(!result.stdout.contains("struct ArchivedNSColor"))
    }
}
