import Foundation
import Testing
@testable import KeyedArchive

@Suite("ArchivedColor: NSColor and UIColor layouts")
struct ArchivedColorTests {
    static let coreData = "apps/core-data-model/CoreDataBooks-layout"
    static let stanford = "apps/color-lists/Stanford.clr"
    static let ogreKit = "apps/interface-builder/OgreKit-AdvancedFindPanel-compiled.nib"
    static let attributed = "apple/nskeyedunarchiver-rs/NSMutableAttributedString.plist"

    @Test("NSColorSpace 1 with NSRGB text (CoreDataBooks-layout object 13)", .requiresCorpus)
    func calibratedRGB() throws {
        let color = try corpusObject(ArchivedColor.self, Self.coreData, 13)
        #expect(color == ArchivedColor(space: .calibratedRGB, components: [0.79000002, 0.63108283, 0.6799804], alpha: 1))
        #expect(color.hexRGBA == "#C9A1ADFF")
    }

    @Test("NSColorSpace 3 with NSWhite text (CoreDataBooks-layout object 36)", .requiresCorpus)
    func calibratedWhite() throws {
        let color = try corpusObject(ArchivedColor.self, Self.coreData, 36)
        #expect(color == ArchivedColor(space: .calibratedWhite, components: [1], alpha: 1))
        #expect(color.hexRGBA == "#FFFFFFFF")
    }

    @Test("NSColorSpace 6: a catalog colour with its fallback (CoreDataBooks-layout object 33)", .requiresCorpus)
    func catalog() throws {
        let color = try corpusObject(ArchivedColor.self, Self.coreData, 33)
        let white = ArchivedColor(space: .calibratedWhite, components: [1], alpha: 1)
        #expect(color.space == .catalog(catalog: "System", name: "textBackgroundColor", fallback: white))
        #expect(color.hexRGBA == nil)
    }

    @Test("sRGB: NSComponents and an NSColorSpace with NSID 7 and its ICC profile", .requiresCorpus)
    func sRGB() throws {
        let color = try corpusObject(ArchivedColor.self, Self.stanford, 52)
        #expect(color.space == .sRGB)
        #expect(color.components == [0.5490196347, 0.08235294372, 0.08235294372])
        #expect(color.alpha == 1)
        #expect(color.approximation == [0.4689205885, 0.03505545855, 0.06805618852])
        #expect(color.colorSpace?.identifier == 7)
        #expect(color.colorSpace?.iccProfile?.count == 3144)
        #expect(color.hexRGBA == "#8C1515FF")
        let red = try corpusObject(ArchivedColor.self, Self.attributed, 7)
        #expect(red.components == [1, 0, 0] && red.space == .sRGB)
    }

    @Test("Generic gray: NSWhite, NSComponents and an NSColorSpace with NSID 9 (OgreKit nib object 169)", .requiresCorpus)
    func genericGray() throws {
        let color = try corpusObject(ArchivedColor.self, Self.ogreKit, 169)
        #expect(color.space == .genericGray)
        #expect(color.components == [0.6666666667])
        #expect(color.approximation == [0.602715373])
        #expect(color.colorSpace?.identifier == 9 && color.colorSpace?.model == 0)
        #expect(color.colorSpace?.iccProfile?.count == 4456)
    }

    @Test("Decode → encode writes the object as AppKit wrote it",
          .requiresCorpus, .requiresPython3,
          arguments: [(coreData, 13), (coreData, 36), (coreData, 33), (stanford, 52), (attributed, 7)])
    func rewritten(_ file: String, _ index: Int) throws {
        try expectRewrittenAsArchived(ArchivedColor.self, file, index)
    }

    @Test("Every NSColor object in the corpus's colour lists, nibs and attributed string decodes",
          .requiresCorpus, arguments: [coreData, stanford, ogreKit, attributed, "apps/color-lists/DarkMailTopBar.clr"])
    func allColorsDecode(_ file: String) throws {
        let view = try KeyedArchiveView(data: try corpusData(file))
        let colors = view.objects.filter { $0.className != nil && $0.classes.contains("NSColor") }
        #expect(!colors.isEmpty)
        for object in colors { _ = try corpusObject(ArchivedColor.self, file, object.index) }
    }

    @Test("UIKit's UIRed…UIAlpha, UIWhite and UISystemColorName")
    func uiKit() throws {
        let rgb = handMadeObject("UIColor", [
            PropertyListEntry(key: "UIColorComponentCount", value: .integer(4)),
            PropertyListEntry(key: "UIRed", value: .real(1)), PropertyListEntry(key: "UIGreen", value: .real(0.5)),
            PropertyListEntry(key: "UIBlue", value: .real(0)), PropertyListEntry(key: "UIAlpha", value: .real(0.25)),
        ])
        #expect(try ArchiveDecoder().decode(ArchivedColor.self, from: rgb)
            == ArchivedColor(space: .sRGB, components: [1, 0.5, 0], alpha: 0.25))
        let white = handMadeObject("UIColor", [
            PropertyListEntry(key: "UIWhite", value: .real(0.5)), PropertyListEntry(key: "UIAlpha", value: .real(1)),
        ])
        #expect(try ArchiveDecoder().decode(ArchivedColor.self, from: white).components == [0.5])
        let system = handMadeObject("UIColor", [
            PropertyListEntry(key: "UISystemColorName", value: .string("systemRedColor")),
            PropertyListEntry(key: "UIRed", value: .real(1)), PropertyListEntry(key: "UIAlpha", value: .real(1)),
        ])
        guard case .catalog("UIKit", "systemRedColor", let fallback?) = try ArchiveDecoder().decode(ArchivedColor.self, from: system).space else {
            Issue.record("UISystemColorName did not read as a catalog colour")
            return
        }
        #expect(fallback.components == [1, 0, 0])
    }

    @Test("Round trips in every space, deterministic")
    func roundTrips() throws {
        try expectRoundTrip(ArchivedColor(space: .deviceRGB, components: [0.1, 0.2, 0.3], alpha: 0.5))
        try expectRoundTrip(ArchivedColor(space: .deviceCMYK, components: [0.1, 0.2, 0.3, 0.4], alpha: 1))
        try expectRoundTrip(ArchivedColor(space: .deviceWhite, components: [0.25], alpha: 0.75))
        try expectRoundTrip(ArchivedColor(space: .sRGB, components: [1, 0, 0], alpha: 1,
                                          colorSpace: ArchivedColorSpace(identifier: 7, model: nil, iccProfile: Data([1, 2])),
                                          approximation: [0.9, 0, 0]))
        try expectRoundTrip(ArchivedColor(space: .catalog(catalog: "System", name: "textColor",
                                                          fallback: ArchivedColor(space: .calibratedWhite, components: [0]))
                                          , components: []))
    }

    @Test("Malformed component text, NaN and wrong counts throw a DecodingError naming the field",
          arguments: ["1 x 0", "nan 0 0", "inf 0 0", "1 0", "1 0 0 1 1", "", "1\u{0}2 3"])
    func malformedText(_ text: String) {
        let data = handMadeObject("NSColor", [
            PropertyListEntry(key: "NSColorSpace", value: .integer(1)),
            PropertyListEntry(key: "NSRGB", value: .data(Data(text.utf8))),
        ])
        expectDecodingError(ArchivedColor.self, from: data, mentioning: "NSRGB")
    }

    @Test("NSColorSpace 10: a pattern colour keeps its NSImage as archived and writes it back (hand-made)", .requiresPython3)
    func pattern() throws {
        // A pattern colour {NSColorSpace: 10, NSImage: an NSImage object}; no corpus file has one.
        let data = archive([
            .dictionary([PropertyListEntry(key: "NSColorSpace", value: .integer(10)),
                         PropertyListEntry(key: "NSImage", value: uid(2)), PropertyListEntry(key: "$class", value: uid(5))]),
            .dictionary([PropertyListEntry(key: "NSImageFlags", value: .integer(12_779_520)),
                         PropertyListEntry(key: "NSSize", value: uid(3)), PropertyListEntry(key: "NSData", value: .data(Data([1, 2, 3]))),
                         PropertyListEntry(key: "$class", value: uid(4))]),
            .string("{8, 8}"),
            classEntry("NSImage"), classEntry("NSColor"),
        ])
        let color = try ArchiveDecoder().decode(ArchivedColor.self, from: data)
        guard color.space == .pattern, case .object(let classes, let fields)? = color.patternImage else {
            Issue.record("not a pattern colour with its image: \(color.space)")
            return
        }
        #expect(classes.first == "NSImage" && color.hexRGBA == nil)
        #expect(fields == [ArchivedRawField(key: "NSImageFlags", value: .integer(12_779_520)),
                           ArchivedRawField(key: "NSSize", value: .string("{8, 8}")),
                           ArchivedRawField(key: "NSData", value: .data(Data([1, 2, 3])))])
        let rewritten = try ArchiveEncoder().encode(color)
        #expect(try archivedGraph(rewritten) == archivedGraph(data))
        #expect(try ArchiveDecoder().decode(ArchivedColor.self, from: rewritten) == color)
        var built = color
        built.patternImage = nil
        #expect(throws: EncodingError.self) { try ArchiveEncoder().encode(built) }
    }

    @Test("An unknown NSColorSpace and a UIKit NaN component throw")
    func unknownSpace() {
        expectDecodingError(ArchivedColor.self, from: handMadeObject("NSColor", [
            PropertyListEntry(key: "NSColorSpace", value: .integer(42)),
        ]), mentioning: "NSColorSpace 42")
        expectDecodingError(ArchivedColor.self, from: handMadeObject("UIColor", [
            PropertyListEntry(key: "UIRed", value: .real(.nan)),
        ]), mentioning: "UIRed")
    }

    @Test("Encoding components that do not fit the space throws")
    func encodingRefusesBadComponents() {
        #expect(throws: EncodingError.self) {
            try ArchiveEncoder().encode(ArchivedColor(space: .deviceRGB, components: [1], alpha: 1))
        }
        #expect(throws: EncodingError.self) {
            try ArchiveEncoder().encode(ArchivedColor(space: .deviceRGB, components: [1, .nan, 0], alpha: 1))
        }
        #expect(throws: EncodingError.self) {
            try ArchiveEncoder().encode(ArchivedColor(space: .custom, components: [1, 0, 0], alpha: 1))
        }
    }

    /// The shape `keyedarchive swift` generates for CoreDataBooks-layout's fill style.
    struct FillStyle: Codable {
        var fillColor: ArchivedColor
        var gradientColor: ArchivedColor
        enum CodingKeys: String, CodingKey {
            case fillColor = "XDFillColor"
            case gradientColor = "XDGradientColor"
        }
    }

    @Test("Colour properties of an app's own class decode (CoreDataBooks-layout object 12)", .requiresCorpus)
    func asProperty() throws {
        let style = try corpusObject(FillStyle.self, Self.coreData, 12)
        #expect(style.fillColor.space == .calibratedRGB && style.fillColor.components.count == 3)
        #expect(style.gradientColor.space == .calibratedRGB)
    }

    @Test("Display P3: NSComponents with a colour space holding only a profile named Display P3 (hand-made)", .requiresPython3)
    func displayP3() throws {
        // The profile: any bytes with an mluc description "Display P3" (UTF-16 big-endian).
        var profile = Data("0000mntrRGB XYZ mluc".utf8)
        profile.append(contentsOf: "Display P3".utf8.flatMap { [0, $0] })
        let data = archive([
            dict(["NSColorSpace": .integer(1), "NSRGB": .data(Data("1 0 0\u{0}".utf8)), "NSComponents": .data(Data("1 0.5 0 1".utf8)),
                  "NSCustomColorSpace": uid(3), "$class": uid(2)]),
            classEntry("NSColor"),
            dict(["NSICC": uid(5), "$class": uid(4)]), classEntry("NSColorSpace"),
            dict(["NS.data": .data(profile), "$class": uid(6)]), classEntry("NSMutableData", superclasses: ["NSData", "NSObject"]),
        ])
        let color = try ArchiveDecoder().decode(ArchivedColor.self, from: data)
        #expect(color.space == .custom && color.components == [1, 0.5, 0] && color.colorSpace?.isDisplayP3 == true)
        #expect(ArchivedAppKitValue.color(color).fields.first?.value == .string("displayP3"))
        #expect(try archivedGraph(try ArchiveEncoder().encode(color)) == archivedGraph(data))
        #expect(ArchivedColorSpace(identifier: 7, model: nil, iccProfile: profile).isDisplayP3 == false)
    }
}
