import Foundation
import KeyedArchive
@testable import KeyedArchiveCodegen
import Testing

/// `keyedarchive swift` on archives with cycles: the types on a cycle the archive closes
/// become two-phase classes (`ArchiveReferenceCodable`), back edges `weak` where the archive
/// shows their objects are owned elsewhere; acyclic types are written as before. The
/// generated code is compiled and decodes its archives in Scripts/check-generated-code.sh.
@Suite("Codegen: cycles give two-phase classes")
struct CodegenCyclesTests {
    /// Generates code for one Foundation-written fixture.
    private func generate(_ name: String) throws -> String {
        let data = try #require(try CodegenFixtures.all().first(where: { $0.name == name })?.data)
        let result = try CLI.run(["swift", try CLI.temporaryFile(data, name: name)])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return result.stdout
    }

    @Test("two objects that refer to each other: a two-phase class with initial values")
    func mutualFriends() throws {
        let code = try generate("foundation-cycle.archive")
        #expect(code.contains("final class CodegenPerson: ArchiveReferenceCodable, ArchivedClass {\n"))
        #expect(code.contains("    var age: Int = 0\n    var friend: CodegenPerson?\n    var name: String = \"\"\n"))
        #expect(code.contains("\n    init() {}\n"))
        #expect(code.contains("    func decodeFields(from decoder: any Decoder) throws {\n        let container = try decoder.container(keyedBy: CodingKeys.self)\n"))
        // Every object has a friend: the key is required, though the property starts as nil.
        #expect(code.contains("        self.friend = try container.decode(CodegenPerson.self, forKey: .friend)\n"))
        #expect(code.contains("        self.age = try container.decode(Int.self, forKey: .age)\n"))
        #expect(!code.contains("weak var"), "`friend` is no owner, and no array holds the other side")
        #expect(!code.contains("init(from"), "the protocol's init(from:) is used")
    }

    @Test("parent and children: `parent` is weak, as the children array owns the nodes")
    func parentAndChildren() throws {
        let code = try generate("foundation-tree.archive")
        #expect(code.contains("final class CodegenNode: ArchiveReferenceCodable, ArchivedClass {\n"))
        #expect(code.contains("    var children: [CodegenNode] = []\n"))
        #expect(code.contains("    weak var parent: CodegenNode?\n"))
        #expect(code.contains("        self.parent = try container.decodeIfPresent(CodegenNode.self, forKey: .parent)\n"))
    }

    @Test("the single side of a pair is weak only where the object lists this one: `menu` yes, `submenu` no")
    func pairMembership() throws {
        let code = try generate("foundation-menus.archive")
        #expect(code.contains("final class CodegenMenuItem: ArchiveReferenceCodable, ArchivedClass {\n"))
        #expect(code.contains("    weak var menu: CodegenMenu?\n"))
        #expect(code.contains("    var submenu: CodegenMenu?\n"))
        #expect(code.contains("    var items: [CodegenMenuItem] = []\n"))
    }

    @Test("a weak edge never loses its object: from a leaf, `parent` is all that holds the nodes above")
    func parentOwnsWhenDecodedFromLeaf() throws {
        let code = try generate("foundation-tree-from-leaf.archive")
        #expect(code.contains("final class CodegenNode: ArchiveReferenceCodable, ArchivedClass {\n"))
        #expect(code.contains("    var parent: CodegenNode?\n"))
        #expect(!code.contains("weak var"))
    }

    @Test("back edges are found in the generated decode order: a subview reached before its owner through `NSNextResponder`")
    func backEdgesInDecodeOrder() throws {
        // Panel { rootView: owner, activeView: child }, the owner's NSSubviews [child], the
        // child's NSNextResponder the owner. Archive order walks owner → child → owner (only
        // NSNextResponder closes the cycle); the generated code reads `activeView` first, so
        // child → owner → NSSubviews → child, still being filled.
        var builder = CodegenArchiveBuilder()
        let view = builder.classEntry("View")
        let panel = builder.classEntry("Panel")
        let entry = CodegenArchiveBuilder.entry
        let owner = PropertyListValue.uid(4), child = PropertyListValue.uid(5)
        _ = builder.add(.dictionary([entry("$class", panel), entry("rootView", owner), entry("activeView", child)]))
        _ = builder.add(.dictionary([entry("$class", view), entry("NSSubviews", .uid(6))]))
        _ = builder.add(.dictionary([entry("$class", view), entry("NSNextResponder", owner)]))
        _ = builder.add(.dictionary([entry("$class", .uid(7)), entry("NS.objects", .array([child]))]))
        _ = builder.classEntry("NSArray")
        let data = builder.data(top: [entry("root", .uid(3))])
        let result = try CLI.run(["swift", try CLI.temporaryFile(data, name: "responders.archive")])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("    weak var nsNextResponder: View?\n"))
        #expect(result.stdout.contains("    /// Strong (`nsSubviews`): break such cycles (set them to nil) when you are done with the graph.\n"))
        #expect(result.stdout.contains("    static var archiveBackEdges: [any CodingKey] { [CodingKeys.nsNextResponder, CodingKeys.nsSubviews] }\n"))
        // The same shape written by Foundation (decoded by its generated code in
        // Scripts/check-generated-code.sh): whatever order Foundation stores the keys in.
        let code = try generate("foundation-responders.archive")
        #expect(code.contains("    weak var nextResponder: CodegenView?\n"))
        #expect(code.contains("    static var archiveBackEdges: [any CodingKey] { [CodingKeys.nextResponder, CodingKeys.subviews] }\n"))
    }

    @Test("types the archive never cycles through are unchanged: a chain of one type, shared objects")
    func acyclicUnchanged() throws {
        for name in ["foundation-chain.archive", "foundation-shared.archive", "foundation-shapes.archive", "foundation-record.archive"] {
            let code = try generate(name)
            #expect(!code.contains("ArchiveReferenceCodable"), "\(name)")
            #expect(!code.contains("decodeFields"), "\(name)")
        }
        #expect(try generate("foundation-chain.archive").contains("final class CodegenPerson: Codable, ArchivedClass {\n"))
    }

    @Test("an array that contains itself: a list class over an unkeyed container", .requiresCorpus)
    func selfContainingArray() throws {
        let result = try CLI.run(["swift", CLI.corpusFile("apple/nskeyedunarchiver-rs/circularReference.plist")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("typealias Root = ArchivedNSMutableArray\n"))
        #expect(result.stdout.contains("final class ArchivedNSMutableArray: ArchiveReferenceCodable {\n    var items: [ArchivedNSMutableArray] = []\n"))
        #expect(result.stdout.contains("        var container = try decoder.unkeyedContainer()\n"))
        #expect(result.stdout.contains("        var container = encoder.unkeyedContainer()\n"))
    }

    @Test("the cyclic archives of real apps give two-phase classes", .requiresCorpus,
          arguments: [
            "apps/core-data-model/TopSongs-elements", "apps/core-data-model/CoreDataBooks-layout",
            "apps/scenekit/particles.scn", "apps/interface-builder/nv-MainMenu.nib",
            "apps/documents/PaintCode-SampleStyleKit.pcvd",
          ])
    func appArchives(file: String) throws {
        let result = try CLI.run(["swift", CLI.corpusFile(file)])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(": ArchiveReferenceCodable"))
        #expect(try CLI.run(["swift", CLI.corpusFile(file)]).stdout == result.stdout, "deterministic")
    }

    @Test("a class used as a dictionary key is Hashable by identity", .requiresCorpus)
    func classAsDictionaryKey() throws {
        let result = try CLI.run(["swift", CLI.corpusFile("apps/core-data-model/CoreDataBooks-layout")])
        #expect(result.stdout.contains("    var mappings: [XDGraphicID: Int]\n"))
        #expect(result.stdout.contains("final class XDGraphicID: Codable, Hashable {\n"))
        #expect(result.stdout.contains("    static func == (lhs: XDGraphicID, rhs: XDGraphicID) -> Bool { lhs === rhs }\n"))
    }

    @Test("owner and delegate keys, with or without `_` and `NS`")
    func backEdgeKeys() {
        for key in ["parent", "superview", "_owner", "delegate", "nextResponder", "NSNextResponder", "NSSuperview", "__parent"] {
            #expect(SwiftDeclarations.isBackEdgeKey(key), "\(key)")
        }
        for key in ["children", "name", "NSSubviews", "NS", "NSparent2", "friend"] {
            #expect(!SwiftDeclarations.isBackEdgeKey(key), "\(key)")
        }
    }

    @Test("cycles of types: only nodes on a cycle get a component, one per cycle")
    func components() {
        func id(_ name: String) -> SwiftIdentifier { SwiftIdentifier(name, prefix: "_") }
        let edges: [SwiftIdentifier: [SwiftIdentifier]] = [
            id("A"): [id("B")], id("B"): [id("A"), id("C")], id("C"): [id("D")], id("D"): [],
            id("E"): [id("E")], id("F"): [id("Missing")],
        ]
        let found = SwiftDeclarations.cyclicComponents(edges)
        #expect(Set(found.keys) == [id("A"), id("B"), id("E")])
        #expect(found[id("A")] == found[id("B")] && found[id("A")] != found[id("E")])
        // A chain 100,000 types long, closed at its end: no recursion, one component.
        var chain: [SwiftIdentifier: [SwiftIdentifier]] = [:]
        for index in 0..<100_000 { chain[id("T\(index)")] = [id("T\((index + 1) % 100_000)")] }
        let long = SwiftDeclarations.cyclicComponents(chain)
        #expect(long.count == 100_000 && Set(long.values).count == 1)
    }
}
