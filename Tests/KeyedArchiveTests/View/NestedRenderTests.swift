import Foundation
import KeyedArchive
import Testing

/// `RenderOptions.expandsNestedPropertyLists` and ``NestedPropertyLists``: data that holds
/// an archive or a property list, opened within the one depth and work limits.
@Suite("KeyedArchiveView: nested property lists")
struct NestedRenderTests {
    /// Foundation's archive of a dictionary whose `payload` is another Foundation archive
    /// and whose `settings` is an XML property list.
    private func fixture() throws -> (outer: Data, inner: Data) {
        let inner = try NSKeyedArchiver.archivedData(withRootObject: ["title": "inner"] as NSDictionary, requiringSecureCoding: false)
        let plist = try PropertyListSerialization.data(fromPropertyList: ["mode": "dark"], format: .xml, options: 0)
        let outer = try NSKeyedArchiver.archivedData(
            withRootObject: ["payload": NSData(data: inner), "settings": NSData(data: plist)] as NSDictionary,
            requiringSecureCoding: false)
        return (outer, inner)
    }

    @Test("nested archives and property lists are shown in place, only on request")
    func expands() throws {
        let (outer, inner) = try fixture()
        let view = try KeyedArchiveView(data: outer)
        var out = ""
        let report = try view.render(options: .init(expandsNestedPropertyLists: true), to: &out)
        #expect(report.unexpandedPropertyLists == 0)
        #expect(out.contains(" = keyed archive, \(inner.count) bytes\n    root: NSDictionary #1 (1 entry)\n      \"title\" = \"inner\"\n"), "\(out)")
        #expect(out.contains(" = property list, "))
        #expect(out.contains("    plist = 1 entry\n      mode = \"dark\"\n"), "\(out)")
        let plain = view.render()
        #expect(!plain.contains("keyed archive") && plain.contains("bytes: 62706c697374"), "data stays bytes by default")
    }

    @Test("the byte budget is the document's work budget: what does not fit is counted, not opened")
    func budget() throws {
        // An archive of an archive of an archive of a string.
        let level2 = try ArchiveEncoder().encode("core")
        let level1 = try ArchiveEncoder().encode(level2)
        let outer = try ArchiveEncoder().encode(level1)
        func render(visits: Int) throws -> (text: String, report: KeyedArchiveView.RenderReport) {
            let view = try KeyedArchiveView(data: outer, limits: .init(maxObjectVisits: visits))
            var out = ""
            let report = try view.render(options: .init(expandsNestedPropertyLists: true), to: &out)
            return (out, report)
        }
        let none = try render(visits: level1.count - 1)
        #expect(none.report.unexpandedPropertyLists == 1)
        #expect(!none.text.contains("keyed archive"))
        let one = try render(visits: level1.count)
        #expect(one.report.unexpandedPropertyLists == 1, "the second level no longer fits")
        #expect(one.text.components(separatedBy: "keyed archive").count - 1 == 1, "\(one.text)")
        let all = try render(visits: level1.count + level2.count)
        #expect(all.report.unexpandedPropertyLists == 0)
        #expect(all.text.contains("\"core\""), "\(all.text)")
    }

    @Test("nesting deeper than maxDepth is counted and left as data")
    func depth() throws {
        var nested = NestedPropertyLists(inputSize: 1_000, limits: .init(maxDepth: 2))
        let data = try ArchiveEncoder().encode("core")
        #expect(nested.open(data, level: 2) != nil)
        #expect(nested.open(data, level: 3) == nil)
        #expect(nested.skipped == 1)
        #expect(nested.open(Data("not a plist".utf8), level: 1) == nil)
        #expect(nested.skipped == 1, "data that is no property list is not counted")
    }
}
