import Foundation
import Testing
@testable import KeyedArchive

/// `container(keyedBy:)` on the encoder hands a Key type's last container out again once
/// nobody holds it (`KeyedEncodingContainerReuse.swift`). A container still held must keep
/// writing into its own object, and the kept containers must not outlive the encode.
@Suite("Keyed encoding containers handed out again")
struct KeyedEncodingContainerReuseTests {
    /// A tree whose `encode(to:)` writes its children (same Key type) before its own name.
    struct Tree: Codable, Equatable {
        var name: String
        var children: [Tree]

        enum CodingKeys: String, CodingKey { case name, children }

        init(name: String, children: [Tree] = []) {
            self.name = name
            self.children = children
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(children, forKey: .children)
            try container.encode(name, forKey: .name)
        }
    }

    static let tree = Tree(name: "root", children: [
        Tree(name: "a", children: [Tree(name: "a1"), Tree(name: "a2")]),
        Tree(name: "b"),
        Tree(name: "c", children: [Tree(name: "c1", children: [Tree(name: "c11")])]),
    ])

    @Test("Nested structs of one type each write their own object")
    func nestedStructsOfOneType() throws {
        let (decoded, _, raw) = try roundTrip(Self.tree, format: .binary)
        #expect(decoded == Self.tree)
        // Read without our decoder: the root's fields, and its first child's.
        #expect(raw.resolve(raw.root?["name"]) == .string("root"))
        guard case .array(let children)? = raw.resolve(raw.root?["children"])?["NS.objects"] else {
            Issue.record("the root has no children array")
            return
        }
        #expect(children.count == 3)
        #expect(raw.resolve(raw.resolve(children.first)?["name"]) == .string("a"))
    }

    /// Gives its container to `stash` and writes nothing itself.
    struct Lender: Encodable {
        let stash: Stash
        let number: Int
        enum CodingKeys: String, CodingKey { case number, late }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            stash.containers.append(container)
        }
    }

    final class Stash {
        var containers: [KeyedEncodingContainer<Lender.CodingKeys>] = []
    }

    /// Encodes its lenders, then writes one more field into each container they kept.
    struct Borrower: Encodable {
        let lenders: [Lender]
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            for lender in lenders { try list.encode(lender) }
            for (index, var container) in (lenders.first?.stash.containers ?? []).enumerated() {
                try container.encode("late \(index)", forKey: .late)
            }
        }
    }

    struct Lent: Decodable, Equatable {
        let number: Int
        let late: String
    }

    @Test("A container kept past its encode(to:) is never given to another object")
    func keptContainers() throws {
        let stash = Stash()
        let borrower = Borrower(lenders: (0..<5).map { Lender(stash: stash, number: $0 * 10) })
        let data = try ArchiveEncoder().encode(borrower)
        let lent = try ArchiveDecoder().decode([Lent].self, from: data)
        #expect(lent == (0..<5).map { Lent(number: $0 * 10, late: "late \($0)") })
    }

    class Base: Encodable {
        let base: String
        init(base: String) { self.base = base }
        private enum CodingKeys: String, CodingKey { case base }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(base, forKey: .base)
        }
    }

    /// Writes its own field, then its superclass's into the same object (same encoder),
    /// while its own container is still held.
    final class Derived: Base {
        let own: Int
        init(base: String, own: Int) {
            self.own = own
            super.init(base: base)
        }
        private enum CodingKeys: String, CodingKey { case own, more }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(own, forKey: .own)
            try super.encode(to: encoder)
            try container.encode(own + 1, forKey: .more)
        }
    }

    struct BothParts: Decodable, Equatable {
        let base: String
        let own: Int
        let more: Int
    }

    @Test("A class and its superclass share one object, instance after instance")
    func classAndSuperclass() throws {
        let values = (0..<4).map { Derived(base: "b\($0)", own: $0) }
        let data = try ArchiveEncoder().encode(values)
        let parts = try ArchiveDecoder().decode([BothParts].self, from: data)
        #expect(parts == (0..<4).map { BothParts(base: "b\($0)", own: $0, more: $0 + 1) })
    }

    /// Its superclass part through `superEncoder()` and a nested part through `superEncoder(forKey:)`.
    struct WithSupers: Codable, Equatable {
        var name: String
        var inner: Sibling
        enum CodingKeys: String, CodingKey { case name, inner }
        enum SuperKeys: String, CodingKey { case name }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try inner.encode(to: container.superEncoder(forKey: .inner))
            var shared = container.superEncoder().container(keyedBy: SuperKeys.self)
            try shared.encode(name, forKey: .name)
        }
    }

    @Test("superEncoder() and superEncoder(forKey:) write where they belong, object after object")
    func superEncoders() throws {
        let values = (0..<3).map { WithSupers(name: "s\($0)", inner: Sibling(name: "t\($0)", number: $0)) }
        let (decoded, _, _) = try roundTrip(values, format: .binary)
        #expect(decoded == values)
    }

    struct Sibling: Codable, Equatable {
        var name: String
        var number: Int
    }

    /// A value with objects inside it, written through `superEncoder(forKey:)`.
    struct NestedSuper: Codable, Equatable {
        var label: String
        var tree: Tree
        var trees: [Tree]
        enum CodingKeys: String, CodingKey { case label, tree, trees }

        init(label: String, tree: Tree, trees: [Tree]) {
            self.label = label
            self.tree = tree
            self.trees = trees
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            label = try container.decode(String.self, forKey: .label)
            tree = try Tree(from: container.superDecoder(forKey: .tree))
            trees = try [Tree](from: container.superDecoder(forKey: .trees))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try tree.encode(to: container.superEncoder(forKey: .tree))
            try trees.encode(to: container.superEncoder(forKey: .trees))
            try container.encode(label, forKey: .label)
        }
    }

    @Test("superEncoder(forKey:) keeps its own object when the value has objects inside it")
    func superEncoderOfNestedObjects() throws {
        let value = NestedSuper(label: "n", tree: Self.tree, trees: [Tree(name: "x", children: [Tree(name: "y")]), Tree(name: "z")])
        let (decoded, _, raw) = try roundTrip(value, format: .binary)
        #expect(decoded == value)
        // Read without our decoder: the fields hold the values' own objects (a keyed
        // container without a type of its own is an NSDictionary), not an object inside them.
        #expect(raw.className(of: raw.resolve(raw.root?["tree"])) == "NSDictionary")
        #expect(raw.className(of: raw.resolve(raw.root?["trees"])) == "NSArray")
    }

    /// Throws from `encode(to:)` after writing a field, when `fails` is set.
    struct Failing: Encodable {
        let fails: Bool
        let probe: EncoderProbe
        enum CodingKeys: String, CodingKey { case first, second }
        struct Failure: Error {}
        func encode(to encoder: any Encoder) throws {
            probe.encoder = encoder as AnyObject
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .first)
            if fails { throw Failure() }
            try container.encode(2, forKey: .second)
        }
    }

    /// Sees the encoder weakly, to tell whether the encode left it alive.
    final class EncoderProbe {
        weak var encoder: AnyObject?
    }

    @Test("An error thrown mid-object, then a second encode with the same encoder", arguments: [false, true])
    func errorThenSecondEncode(throwsFirst: Bool) throws {
        let encoder = ArchiveEncoder()
        let probe = EncoderProbe()
        let first = [Failing(fails: false, probe: probe), Failing(fails: throwsFirst, probe: probe)]
        if throwsFirst {
            #expect(throws: Failing.Failure.self) { try encoder.encode(first) }
        } else {
            _ = try encoder.encode(first)
        }
        // The kept containers, which refer to the encoder, are forgotten when the encode ends.
        #expect(probe.encoder == nil)
        let again = try encoder.encode(Self.tree)
        #expect(again == (try ArchiveEncoder().encode(Self.tree)))
        #expect(try ArchiveDecoder().decode(Tree.self, from: again) == Self.tree)
    }

    /// Two Key types taking turns, with nested keyed containers of a third.
    struct Pair: Codable, Equatable {
        var left: Tree
        var right: [String: Int]
        var label: String
        enum CodingKeys: String, CodingKey { case left, right, label }
        enum NestedKeys: String, CodingKey { case label }

        init(left: Tree, right: [String: Int], label: String) {
            self.left = left
            self.right = right
            self.label = label
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            left = try container.decode(Tree.self, forKey: .left)
            right = try container.decode([String: Int].self, forKey: .right)
            label = try container.nestedContainer(keyedBy: NestedKeys.self, forKey: .label).decode(String.self, forKey: .label)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(left, forKey: .left)
            try container.encode(right, forKey: .right)
            var nested = container.nestedContainer(keyedBy: NestedKeys.self, forKey: .label)
            try nested.encode(label, forKey: .label)
        }
    }

    @Test("Objects of several Key types, one after another, each write their own fields")
    func interleavedKeyTypes() throws {
        let values = (0..<20).map { Pair(left: Tree(name: "l\($0)"), right: ["k\($0)": $0], label: "p\($0)") }
        let (decoded, _, _) = try roundTrip(values, format: .binary)
        #expect(decoded == values)
        let (decodedXML, _, _) = try roundTrip(values, format: .xml)
        #expect(decodedXML == values)
    }
}
