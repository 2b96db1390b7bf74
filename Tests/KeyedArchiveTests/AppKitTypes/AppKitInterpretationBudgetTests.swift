import Foundation
import HostileArchives
@testable import KeyedArchive
@testable import KeyedArchiveCodegen
import Testing

/// Issue 53 §1: colours sharing one long component text (or one fallback colour) were each
/// interpreted with a fresh decoder and a fresh budget, so `render()`, `json`, `dump` and
/// `swift` did colours × text work. Now every interpretation of an operation is charged to
/// one budget and each object is interpreted once. (Counted, not timed: the benchmark's
/// `--hostile` families `sharedColorText` and `sharedColorFallback` print the time.)
@Suite("AppKit interpretations: one budget per operation")
struct AppKitInterpretationBudgetTests {
    static let families: [AmplificationFamily] = [.sharedColorText, .sharedColorFallback]

    /// 300 colours sharing a 20,000-byte text, in about 25 KB: interpreting each one reads
    /// 6 MB of text, more than the document's budget allows.
    static func manyColours(_ family: AmplificationFamily) -> Data { family.archive(references: 300, length: 20_000) }

    @Test("render() charges each colour's text to its one budget, and stops with the visits error", arguments: families)
    func renderStops(family: AmplificationFamily) throws {
        let view = try KeyedArchiveView(data: Self.manyColours(family))
        var out = ""
        let error = #expect(throws: KeyedArchiveError.self) { try view.render(options: .init(), to: &out) }
        #expect(error?.message.contains("ArchiveDecoder.Limits.maxObjectVisits") == true, "\(String(describing: error))")
        let shown = out.components(separatedBy: "hex = \"#804020FF\"").count - 1
        #expect(shown > 0 && shown < 300, "\(shown) colours shown")
    }

    @Test("A few colours sharing the text are all interpreted", arguments: families)
    func fewColours(family: AmplificationFamily) throws {
        let view = try KeyedArchiveView(data: family.archive(references: 5, length: 20_000))
        let text = view.render()
        #expect(!text.contains("… stopped"))
        #expect(text.components(separatedBy: "hex = \"#804020FF\"").count - 1 == 5, "\(text)")
    }

    @Test("Interpretations of one operation charge the text each colour reads, once per object")
    func chargedOncePerObject() throws {
        let view = try KeyedArchiveView(data: AmplificationFamily.sharedColorText.archive(references: 10, length: 20_000))
        let colours = view.objects.filter { $0.className == "NSColor" }
        #expect(colours.count == 10)
        var interpretations = AppKitInterpretations(view: view)
        for colour in colours {
            guard case .color(let color)? = try interpretations.value(of: colour, in: view) else {
                Issue.record("object \(colour.index) is not read as a colour")
                continue
            }
            #expect(color.hexRGBA == "#804020FF")
        }
        let spent = interpretations.unitsSpent
        // Copied out, made and parsed: at least a unit per 4 bytes of text, for each colour.
        #expect(spent >= 10 * 20_000 / 4, "\(spent) units")
        for colour in colours { _ = try interpretations.value(of: colour, in: view) }
        #expect(interpretations.interpretedCount == 10)
        #expect(interpretations.unitsSpent == spent, "asking again interprets again")
        // The public call has a budget of its own each time.
        #expect(view.appKitValue(of: colours[0]) != nil)
    }

    @Test("keyedarchive swift's inference charges the colours to one budget", arguments: families)
    func inferenceStops(family: AmplificationFamily) throws {
        var inference = SchemaInference(view: try KeyedArchiveView(data: Self.manyColours(family)))
        let error = #expect(throws: CodegenError.self) { try inference.infer() }
        #expect(error?.message.contains("ArchiveDecoder.Limits.maxObjectVisits") == true)
        var few = SchemaInference(view: try KeyedArchiveView(data: family.archive(references: 5, length: 20_000)))
        let schema = try few.infer()
        #expect(schema.top.first?.type == .array(.value(.archivedColor)))
    }

    @Test("keyedarchive json, dump and swift stop with the visits error", arguments: ["json", "dump", "swift"])
    func toolStops(command: String) throws {
        let path = try CLI.temporaryFile(Self.manyColours(.sharedColorText), name: "colours.plist")
        let run = try CLI.run([command, path], timeout: 120)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("maxObjectVisits"), "\(run.stderr)")
        let few = try CLI.run([command, try CLI.temporaryFile(AmplificationFamily.sharedColorText.archive(references: 5, length: 20_000),
                                                              name: "few.plist")])
        #expect(few.status == 0, "\(few.stderr)")
        #expect(few.stdout.contains(command == "swift" ? "ArchivedColor" : "#804020FF"))
    }

    @Test("keyedarchive swift interprets a colour that a cycle meets again once, not at each meeting")
    func inferenceCycleInterpretsOnce() throws {
        // A colour subclass whose fields do not make a colour (so it is a generated class)
        // with 400 children that each point back at it: the walk meets it again 400 times.
        var graph = ArchiveGraph()
        let swatch = graph.reserveEntry()
        let back = graph.uid(swatch)
        let children = (0..<400).map { _ in graph.uid(graph.addObject(className: "Child", fields: [("owner", back)])) }
        let className = graph.string("Swatch")
        let chain = graph.plist.add(.array([className, graph.string("NSColor"), graph.string("NSObject")]))
        let classUID = graph.addEntry(graph.plist.add(.dictionary(keys: [graph.string("$classname"), graph.string("$classes")],
                                                                  values: [className, chain])))
        let fields = children.enumerated().map { (graph.string("child\($0.offset)"), $0.element) }
        graph.plist.set(graph.ref(of: swatch), .dictionary(keys: [graph.string("$class")] + fields.map(\.0),
                                                           values: [graph.uid(classUID)] + fields.map(\.1)))
        let view = try KeyedArchiveView(data: graph.data(root: swatch))
        var inference = SchemaInference(view: view)
        let schema = try inference.infer()
        #expect(schema.classes["Swatch"] != nil && schema.classes["Child"] != nil)
        // One interpretation of the swatch copies out it and its 400 children (about 1,200
        // units); one at each of the 400 meetings would be 400 times that.
        #expect(inference.appKit.unitsSpent < 5_000, "\(inference.appKit.unitsSpent) units")
        #expect(inference.appKit.interpretedCount <= view.objects.count)
    }
}

/// Issue 53 §6: `dump` and `render()` of an array of half a million references to one data value.
@Suite("A data value referenced from many places")
struct SharedDataRenderTests {
    @Test("render() shows each reference as its size and first 16 bytes, within the output limit")
    func eachReferenceIsOneShortLine() throws {
        let data = AmplificationFamily.sharedData.archive(references: 50_000, length: 5_000)
        let view = try KeyedArchiveView(data: data)
        let text = view.render()
        #expect(!text.contains("… stopped"))
        let line = "  [49999] = <5000 bytes: 001f3e5d7c9bbad9f81736557493b2d1…>\n"
        #expect(text.hasSuffix(line), "\(text.suffix(200))")
        #expect(text.utf8.count < 50_000 * line.utf8.count + 1_000)
        #expect(text.utf8.count <= view.limits.outputBudget(forInputSize: data.count))
    }
}
