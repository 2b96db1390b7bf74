import Foundation
import Testing
@testable import KeyedArchive

/// `container(keyedBy:)` hands a Key type's last container out again once nobody holds it
/// (`KeyedContainerReuse.swift`). A container still held must keep reading its own object.
@Suite("Keyed containers handed out again")
struct KeyedContainerReuseTests {
    /// A tree whose `init(from:)` reads its children (same Key type) before its own name.
    struct Node: Codable, Equatable {
        var name: String
        var children: [Node]

        enum CodingKeys: String, CodingKey { case name, children }

        init(name: String, children: [Node] = []) {
            self.name = name
            self.children = children
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            children = try container.decode([Node].self, forKey: .children)
            name = try container.decode(String.self, forKey: .name)
        }
    }

    @Test("A container held while values of its own Key type decode keeps reading its object")
    func recursiveTypes() throws {
        let tree = Node(name: "root", children: [
            Node(name: "a", children: [Node(name: "a1"), Node(name: "a2")]),
            Node(name: "b"),
            Node(name: "c", children: [Node(name: "c1", children: [Node(name: "c11")])]),
        ])
        #expect(try ArchiveDecoder().decode(Node.self, from: try ArchiveEncoder().encode(tree)) == tree)
    }

    /// Keeps its container and reads from it later, after siblings of its type decoded.
    struct Keeper: Decodable {
        let container: KeyedDecodingContainer<Sibling.CodingKeys>
        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: Sibling.CodingKeys.self)
        }
    }

    struct Sibling: Codable, Equatable {
        var name: String
        var number: Int
        enum CodingKeys: String, CodingKey { case name, number }
    }

    @Test("A container kept past its init(from:) is never given to another object")
    func keptContainers() throws {
        let siblings = (0..<5).map { Sibling(name: "s\($0)", number: $0) }
        let data = try ArchiveEncoder().encode(siblings)
        let names = try ArchiveDecoder().decode(KeptNames.self, from: data).names
        #expect(names == siblings.map { "\($0.name)/\($0.number)" })
    }

    /// Decodes every element as a `Keeper`, then reads each kept container.
    struct KeptNames: Decodable {
        var names: [String] = []
        init(from decoder: any Decoder) throws {
            var list = try decoder.unkeyedContainer()
            var kept: [Keeper] = []
            while !list.isAtEnd { kept.append(try list.decode(Keeper.self)) }
            for keeper in kept {
                let name = try keeper.container.decode(String.self, forKey: .name)
                let number = try keeper.container.decode(Int.self, forKey: .number)
                names.append("\(name)/\(number)")
            }
        }
    }

    @Test("Objects decoded one after another each read their own fields, with nested containers too")
    func sequentialObjects() throws {
        struct Outer: Codable, Equatable {
            var inner: Sibling
            var label: String
        }
        let values = (0..<50).map { Outer(inner: Sibling(name: "n\($0)", number: $0 * 3), label: "l\($0)") }
        #expect(try ArchiveDecoder().decode([Outer].self, from: try ArchiveEncoder().encode(values)) == values)
    }

    /// A chain whose `init(from:)` reads its child (same Key type) before its own fields, so
    /// every level holds its container while the levels below it decode.
    final class Link: Codable, Equatable {
        let name: String
        let next: Link?
        let number: Int
        enum CodingKeys: String, CodingKey { case name, next, number }

        init(name: String, next: Link?, number: Int) {
            self.name = name
            self.next = next
            self.number = number
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            next = try container.decodeIfPresent(Link.self, forKey: .next)
            name = try container.decode(String.self, forKey: .name)
            number = try container.decode(Int.self, forKey: .number)
        }

        static func == (a: Link, b: Link) -> Bool { a.name == b.name && a.number == b.number && a.next == b.next }

        static func chain(_ label: String, depth: Int) -> Link? {
            (0..<depth).reversed().reduce(nil as Link?) { Link(name: "\(label)\($1)", next: $0, number: $1 * 7) }
        }
    }

    @Test("Chains of one type, one after another: each level reads its own object through the spare of its depth")
    func chainsReuseTheSparesOfTheirDepths() throws {
        // The first chain leaves a spare at every depth; the next chains get them (and
        // chains of other lengths find some depths without a spare, or spares left unused).
        let chains = [Link.chain("a", depth: 6), Link.chain("b", depth: 6), Link.chain("c", depth: 3),
                      Link.chain("d", depth: 9), Link.chain("e", depth: 6)].compactMap { $0 }
        let decoded = try ArchiveDecoder().decode([Link].self, from: try ArchiveEncoder().encode(chains))
        #expect(decoded == chains)
        #expect(decoded.map { $0.next?.next?.name } == ["a2", "b2", "c2", "d2", "e2"])
    }

    /// `KeptNames` one level down, after a sibling of the same Key type at that depth.
    struct NestedKeepers: Decodable {
        var first: Sibling
        var kept: KeptNames
        var last: Sibling
    }

    struct NestedKeepersSource: Encodable {
        var first: Sibling
        var kept: [Sibling]
        var last: Sibling
    }

    @Test("A container kept at a nested depth is never given to the next value at that depth")
    func keptContainersBelowTheTop() throws {
        let source = NestedKeepersSource(first: Sibling(name: "f", number: 1),
                                         kept: (0..<4).map { Sibling(name: "k\($0)", number: 10 + $0) },
                                         last: Sibling(name: "l", number: 2))
        let decoded = try ArchiveDecoder().decode(NestedKeepers.self, from: try ArchiveEncoder().encode(source))
        #expect(decoded.first == source.first)
        #expect(decoded.last == source.last)
        #expect(decoded.kept.names == ["k0/10", "k1/11", "k2/12", "k3/13"])
    }
}
