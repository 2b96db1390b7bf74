import Foundation
import Testing
@testable import KeyedArchive

@Suite("Cycles of ArchiveReferenceDecodable classes")
struct CyclicGraphTests {
    /// root → [a → [a1], b], each child's parent the node above.
    private func tree() -> CycleNode {
        CycleNode("root", children: [CycleNode("a", children: [CycleNode("a1")]), CycleNode("b")])
    }

    @Test("A tree with parent pointers round-trips with identity", arguments: PropertyListFormat.allCases)
    func parentPointers(format: PropertyListFormat) throws {
        let root = tree()
        let (back, _, raw) = try roundTrip(root, format: format)
        #expect(back.name == "root")
        #expect(back.children.map(\.name) == ["a", "b"])
        #expect(back.parent == nil)
        for child in back.children { #expect(child.parent === back) }
        #expect(back.children[0].children[0].parent === back.children[0])
        // Each node is one archived object, filled once; a back edge is the parent's UID.
        #expect([back, back.children[0], back.children[1], back.children[0].children[0]].allSatisfy { $0.fills == 1 })
        let nodes = raw.objects.filter { raw.className(of: $0) == "Node" }
        #expect(nodes.count == 4)
        let rootUID = try #require(raw.top.first { $0.key == "root" }?.value)
        guard case .array(let childUIDs)? = raw.resolve(raw.root?["children"])?["NS.objects"] else {
            Issue.record("children is not an NSArray")
            return
        }
        for childUID in childUIDs { #expect(raw.resolve(childUID)?["parent"] == rootUID) }
    }

    @Test("Two objects that are each other's delegate (a declared strong back edge); a node that lists itself among its children is refused")
    func mutualAndSelf() throws {
        let a = CyclePeer.mutualPair()
        defer { a.delegate = nil }
        let back = try ArchiveDecoder().decode(CyclePeer.self, from: try ArchiveEncoder().encode(a))
        defer { back.delegate = nil }
        #expect(back.name == "a")
        #expect(back.delegate?.name == "b")
        #expect(back.delegate?.delegate === back)

        let me = CycleNode("me")
        me.children = [me]
        defer { me.children = [] }
        let refused = #expect(throws: DecodingError.self) {
            try ArchiveDecoder().decode(CycleNode.self, from: try ArchiveEncoder().encode(me))
        }
        #expect(refused?.archiveError?.key == "children")
        #expect(refused?.archiveError?.message.contains("object 1 (CycleNode) refers to itself through its key 'children'") == true)
    }

    @Test("Class hierarchies: a subclass fills its superclass's fields through superDecoder()")
    func hierarchy() throws {
        let wheel = CycleCircle()
        wheel.label = "wheel"
        wheel.radius = 2.5
        let spoke = CycleShape()
        spoke.label = "spoke"
        spoke.owner = wheel
        wheel.parts = [spoke]
        for format in PropertyListFormat.allCases {
            let (back, _, raw) = try roundTrip(wheel, format: format)
            #expect(back.label == "wheel" && back.radius == 2.5)
            #expect(back.parts.map(\.label) == ["spoke"])
            #expect(back.parts.first?.owner === back)
            // One object for the circle, its own fields and its superclass's together.
            #expect(raw.root?["radius"] == .real(2.5) && raw.resolve(raw.root?["label"]) == .string("wheel"))
        }
        // Other decoders use init(from:): the instance is created, then filled (no cycles there).
        spoke.owner = nil
        let json = try JSONDecoder().decode(CycleCircle.self, from: JSONEncoder().encode(wheel))
        #expect(json.radius == 2.5 && json.label == "wheel" && json.parts.map(\.label) == ["spoke"])
    }

    @Test("A decoded graph with weak back edges is freed when its root is released")
    func noLeak() throws {
        let data = try ArchiveEncoder().encode(tree())
        weak var root: CycleNode?
        weak var leaf: CycleNode?
        do {
            let back = try ArchiveDecoder().decode(CycleNode.self, from: data)
            root = back
            leaf = back.children[0].children[0]
            #expect(leaf?.parent?.parent === back)
        }
        #expect(root == nil)
        #expect(leaf == nil)
    }

    @Test("A cycle of plain Codable classes still throws on encoding, pointing to the protocol")
    func plainClassCycle() throws {
        let a = PlainLink("a"), b = PlainLink("b")
        a.next = b
        b.next = a
        defer { a.next = nil }
        do {
            _ = try ArchiveEncoder().encode(a)
            Issue.record("should throw")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.debugDescription.contains("ArchiveReferenceDecodable"))
            #expect(context.codingPath.map(\.stringValue) == ["next", "next"])
        }
    }

    @Test("An array that contains itself: a two-phase class over an unkeyed container, written as an NSArray")
    func selfContainingArray() throws {
        let list = CycleList()
        list.items = [list, CycleList()]
        defer { list.items = [] }
        let (back, _, raw) = try roundTrip(list, format: .binary)
        defer { back.items = [] }
        #expect(back.items.count == 2 && back.items[0] === back && back.items[1] !== back)
        #expect(raw.className(of: raw.root) == "NSArray")
        guard case .array(let elements)? = raw.root?["NS.objects"] else {
            Issue.record("not an NSArray")
            return
        }
        #expect(elements.count == 2 && elements[0] == raw.top[0].value && elements[1] != raw.top[0].value)
    }

    @Test("A two-phase instance that refers to itself before opening a container throws, saying so")
    func selfBeforeContainer() throws {
        final class Tag: ArchiveReferenceCodable {
            var inner: Tag?
            init() {}
            func decodeFields(from decoder: any Decoder) throws { inner = try decoder.singleValueContainer().decode(Tag?.self) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(inner)
            }
        }
        let tag = Tag()
        tag.inner = tag
        defer { tag.inner = nil }
        do {
            _ = try ArchiveEncoder().encode([tag])
            Issue.record("should throw")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.debugDescription.contains("before opening a keyed or unkeyed container"))
            #expect(context.codingPath.map(\.intValue) == [0])
        }
    }

    @Test("Shared references outside a cycle keep one instance; nil and absent back edges read as nil")
    func sharedWithoutCycle() throws {
        let shared = CycleNode("shared")
        struct Pair: Codable { var first: CycleNode; var second: CycleNode; var none: CycleNode? }
        let back = try ArchiveDecoder().decode(Pair.self, from: try ArchiveEncoder().encode(Pair(first: shared, second: shared, none: nil)))
        #expect(back.first === back.second)
        #expect(back.first.parent == nil && back.none == nil)
        #expect(back.first.fills == 1)
    }

    @Test("A two-phase class decodes in place (singleValueContainer) as the same instance")
    func inPlace() throws {
        struct Wrapper: Codable {
            var node: CycleNode
            init(node: CycleNode) { self.node = node }
            init(from decoder: any Decoder) throws { node = try decoder.singleValueContainer().decode(CycleNode.self) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(node)
            }
        }
        let root = tree()
        struct Holder: Codable { var wrapped: Wrapper; var direct: CycleNode }
        let back = try ArchiveDecoder().decode(Holder.self, from: try ArchiveEncoder().encode(Holder(wrapped: Wrapper(node: root), direct: root)))
        #expect(back.wrapped.node === back.direct)
        #expect(back.direct.children[0].parent === back.direct)
        #expect(back.direct.fills == 1)
    }
}
