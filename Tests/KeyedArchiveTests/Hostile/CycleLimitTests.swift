import Foundation
import Testing
@testable import KeyedArchive

// Hand-built archives against the two-phase path (ArchiveReferenceDecodable): limits,
// identity and allow-lists hold however the cycles are arranged.

/// A class whose struct field may lead back to it.
private final class BoxOwner: ArchiveReferenceCodable {
    var box: OwnedBox?
    /// Strong (the test breaks the cycle): the key of the struct that holds the back reference.
    static var archiveBackEdges: [any CodingKey] { [CodingKeys.box] }
    init() {}
    func decodeFields(from decoder: any Decoder) throws {
        box = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(OwnedBox.self, forKey: .box)
    }
}

private struct OwnedBox: Codable {
    var owner: BoxOwner?
}

/// Two two-phase types behind one object's fields.
private final class Mixed: ArchiveReferenceCodable {
    var peer: CyclePeer?
    static var archiveBackEdges: [any CodingKey] { [CodingKeys.peer] }
    init() {}
    func decodeFields(from decoder: any Decoder) throws {
        peer = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(CyclePeer.self, forKey: .peer)
    }
}

/// Swallows the error of a child it cannot read.
private final class Lenient: ArchiveReferenceCodable {
    var child: CycleNode?
    var again: CycleNode?
    init() {}
    func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        child = try? container.decode(CycleNode.self, forKey: .child)
        again = try? container.decode(CycleNode.self, forKey: .again)
    }
}

/// Reads `node` the NSCoding way: the decoder's allow-list decides.
private final class LegacyHolder: ArchiveCoding {
    var node: Any?
    func encode(with coder: ArchiveKeyedEncoder) throws {}
    init(coder: ArchiveKeyedDecoder) throws {
        node = try coder.decodeObject(forKey: "node")
    }
}

/// A two-phase class whose links are wrapped in an enum (how heterogeneous elements are often modelled).
private final class Linked: ArchiveReferenceDecodable {
    var name = ""
    var links: [Link] = []
    var shadow: Shadow?
    init() {}
    enum CodingKeys: String, CodingKey { case name, links, shadow }
    /// Strong (the tests break the cycles): links wrapped in an enum read in place.
    static var archiveBackEdges: [any CodingKey] { [CodingKeys.links] }
    func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        links = try container.decode([Link].self, forKey: .links)
        shadow = try container.decodeIfPresent(Shadow.self, forKey: .shadow)
    }
}

/// Wraps `Linked`, reading it in place.
private enum Link: Decodable {
    case linked(Linked)
    init(from decoder: any Decoder) throws { self = .linked(try decoder.singleValueContainer().decode(Linked.self)) }
    var object: Linked { switch self { case .linked(let object): return object } }
}

/// Reads a `Linked` object's fields as a value: a value type, so it cannot close a cycle.
private indirect enum Shadow: Decodable {
    case shadow(Shadow?)
    enum CodingKeys: String, CodingKey { case shadow }
    init(from decoder: any Decoder) throws {
        self = .shadow(try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Shadow.self, forKey: .shadow))
    }
}

private func message<T: Decodable>(decoding type: T.Type, _ data: Data, _ configure: (ArchiveDecoder) -> Void = { _ in }) -> String? {
    let decoder = ArchiveDecoder()
    configure(decoder)
    do {
        _ = try decoder.decode(type, from: data)
        return nil
    } catch {
        return "\(error)"
    }
}

/// Peers 1…count, each the delegate of the one before; the last one's delegate is the first.
private func peerRing(_ count: Int) -> Data {
    let classUID = UInt64(count + 2)
    var objects: [PropertyListValue] = [.string("p")]
    for index in 0..<count {
        let next = index == count - 1 ? 2 : UInt64(index + 3)
        objects.append(dict(["$class": uid(classUID), "name": uid(1), "delegate": uid(next)]))
    }
    objects.append(classEntry("Peer"))
    return archive(objects, top: dict(["root": uid(2)]))
}

@Suite("Cycles in hostile archives")
struct CycleLimitTests {
    @Test("A cycle through a struct: closed by the class it works, entered at the struct it throws, pointing to the protocol")
    func cycleThroughStruct() throws {
        let objects = [
            dict(["$class": uid(3), "box": uid(2)]),
            dict(["$class": uid(4), "owner": uid(1)]),
            classEntry("BoxOwner"), classEntry("OwnedBox"),
        ]
        let owner = try ArchiveDecoder().decode(BoxOwner.self, from: archive(objects))
        defer { owner.box = nil }
        #expect(owner.box?.owner === owner)
        let fromStruct = message(decoding: OwnedBox.self, archive(objects, top: dict(["root": uid(2)])))
        #expect(fromStruct?.contains("reference cycle: object 2 contains itself") == true)
        #expect(fromStruct?.contains("ArchiveReferenceDecodable") == true)
        // A struct that contains itself, with no class at all.
        let selfBox = message(decoding: NodeBox.self, archive([
            dict(["$class": uid(3), "again": uid(2)]), dict(["$class": uid(4), "NS.objects": .array([uid(1)])]),
            classEntry("NodeBox"), classEntry("NSArray"),
        ]))
        #expect(selfBox?.contains("ArchiveReferenceDecodable") == true)
    }

    @Test("A value type that wraps a two-phase class reaches it again as a back-reference; reading its fields again is a cycle")
    func wrapperReentry() throws {
        // Linked 1 links to itself and to 2; 2 links back to 1. Every link goes through the enum.
        let objects = [
            dict(["$class": uid(5), "name": .string("one"), "links": uid(3)]),
            dict(["$class": uid(5), "name": .string("two"), "links": uid(4)]),
            dict(["$class": uid(6), "NS.objects": .array([uid(1), uid(2)])]),
            dict(["$class": uid(6), "NS.objects": .array([uid(1)])]),
            classEntry("Linked"), classEntry("NSArray"),
        ]
        let root = try ArchiveDecoder().decode(Link.self, from: archive(objects)).object
        defer { root.links = [] }
        #expect(root.links.map(\.object.name) == ["one", "two"])
        #expect(root.links[0].object === root && root.links[1].object.links[0].object === root)

        // Linked 1's shadow reads object 1 again as a value, whose shadow is object 1 again.
        let shadowed = [
            dict(["$class": uid(3), "name": .string("one"), "links": uid(2), "shadow": uid(1)]),
            dict(["$class": uid(4), "NS.objects": .array([])]),
            classEntry("Linked"), classEntry("NSArray"),
        ]
        let error = message(decoding: Link.self, archive(shadowed))
        #expect(error?.contains("reference cycle: object 1 contains itself") == true, "\(error ?? "decoded")")
        #expect(error?.contains("shadow.shadow") == true)
    }

    @Test("A two-phase object reached again as another type is a typeMismatch, finished or half-built")
    func differentType() throws {
        // Object 1, being filled as Mixed, names itself as its CyclePeer.
        let halfBuilt = archive([dict(["$class": uid(2), "peer": uid(1)]), classEntry("Mixed")])
        let error = message(decoding: Mixed.self, halfBuilt)
        #expect(error?.contains("typeMismatch") == true, "\(error ?? "decoded")")
        // Object 2, finished as a CycleNode, is then asked for as a CyclePeer.
        struct Pair: Decodable { var node: CycleNode; var peer: CyclePeer }
        let finished = archive([
            dict(["$class": uid(3), "node": uid(2), "peer": uid(2)]),
            dict(["$class": uid(4), "name": .string("n"), "delegate": uid(0)]),
            classEntry("Pair"), classEntry("Node"),
        ])
        #expect(message(decoding: Pair.self, finished)?.contains("typeMismatch") == true)
    }

    @Test("Every object is filled once, however often and from wherever it is referenced")
    func filledOnce() throws {
        // Node 1 lists node 2 twice; node 2's parent is node 1 (a node listing itself is
        // refused: CycleLeakTests).
        let data = archive([
            dict(["$class": uid(4), "name": .string("one"), "children": uid(3)]),
            dict(["$class": uid(4), "name": .string("two"), "parent": uid(1)]),
            dict(["$class": uid(5), "NS.objects": .array([uid(2), uid(2)])]),
            classEntry("Node"), classEntry("NSArray"),
        ])
        let one = try ArchiveDecoder().decode(CycleNode.self, from: data)
        #expect(one.fills == 1 && one.children[0].fills == 1)
        #expect(one.children[0] === one.children[1])
        #expect(one.children[0].parent === one)
    }

    @Test("10,000 nodes in one cycle: a star decodes, each node once and charged; a ring stops at the depth limit")
    func tenThousand() throws {
        let count = 10_000
        // Object 1 is the root; 2 its children array; 3… the children, each with parent 1.
        let classUID = UInt64(count + 3)
        var objects = [
            dict(["$class": uid(classUID), "name": .string("root"), "children": uid(2)]),
            dict(["$class": uid(classUID + 1), "NS.objects": .array((0..<count).map { uid(UInt64($0 + 3)) })]),
        ]
        for _ in 0..<count { objects.append(dict(["$class": uid(classUID), "name": .string("c"), "parent": uid(1)])) }
        objects += [classEntry("Node"), classEntry("NSArray")]
        let star = archive(objects)
        let root = try ArchiveDecoder().decode(CycleNode.self, from: star)
        #expect(root.children.count == count)
        #expect(root.children.allSatisfy { $0.parent === root && $0.fills == 1 })
        // The work is charged: a budget of one unit per node is not enough.
        #expect(message(decoding: CycleNode.self, star) { $0.limits.maxObjectVisits = count }?.contains("maxObjectVisits") == true)

        let ring = message(decoding: CyclePeer.self, peerRing(count))
        #expect(ring?.contains("deeper than the decoder's limit of 512") == true, "\(ring ?? "decoded")")
    }

    @Test("A cycle closed at depth 500 decodes within the default depth limit, and stops at a lower one")
    func depth500() throws {
        let first = try ArchiveDecoder().decode(CyclePeer.self, from: peerRing(500))
        var peer = first
        for _ in 1..<500 { peer = try #require(peer.delegate) }
        #expect(peer.delegate === first)
        peer.delegate = nil  // break the cycle so the peers are freed
        let lower = message(decoding: CyclePeer.self, peerRing(500)) { $0.limits.maxDepth = 400 }
        #expect(lower?.contains("limit of 400") == true)
    }

    @Test("A fill error caught by the class fails the whole decode once the half-built object was handed out")
    func swallowedFillError() throws {
        // Node 2's child (node 3) refers back to it; then node 2's parent is a UID out of
        // range, so its fill throws. Lenient catches that, and meets node 2 again.
        let data = archive([
            dict(["$class": uid(5), "child": uid(2), "again": uid(2)]),
            dict(["$class": uid(6), "name": .string("two"), "children": uid(4), "parent": uid(99)]),
            dict(["$class": uid(6), "name": .string("three"), "parent": uid(2)]),
            dict(["$class": uid(7), "NS.objects": .array([uid(3)])]),
            classEntry("Lenient"), classEntry("Node"), classEntry("NSArray"),
        ])
        let error = message(decoding: Lenient.self, data)
        #expect(error?.contains("99") == true, "\(error ?? "decoded")")
    }

    @Test("A failed try? probe of a two-phase class that nobody saw leaves no trace")
    func failedProbe() throws {
        enum NodeOrText: Decodable {
            case node(CycleNode), text(String)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let node = try? container.decode(CycleNode.self) { self = .node(node) } else { self = .text(try container.decode(String.self)) }
            }
        }
        let data = archive([
            dict(["$class": uid(5), "NS.objects": .array([uid(2), uid(3), uid(3)])]),
            .string("hi"),
            dict(["$class": uid(4), "name": .string("n")]),
            classEntry("Node"), classEntry("NSArray"),
        ])
        let values = try ArchiveDecoder().decode([NodeOrText].self, from: data)
        guard values.count == 3, case .text("hi") = values[0], case .node(let first) = values[1], case .node(let second) = values[2] else {
            Issue.record("\(values)")
            return
        }
        #expect(first === second && first.name == "n" && first.fills == 1)
    }

    @Test("The allow-list and strict class names govern the two-phase path too")
    func allowList() throws {
        // LegacyHolder reads `node` with decodeObject(forKey:): instantiated only if allowed.
        let data = archive([
            dict(["$class": uid(5), "node": uid(2)]),
            dict(["$class": uid(6), "name": .string("n"), "children": uid(3)]),
            dict(["$class": uid(7), "NS.objects": .array([uid(4)])]),
            dict(["$class": uid(6), "name": .string("c"), "parent": uid(2)]),
            classEntry("LegacyHolder"), classEntry("Node"), classEntry("NSArray"),
        ])
        #expect(message(decoding: LegacyHolder.self, data)?.contains("class 'Node' is not allowed") == true)
        let decoder = ArchiveDecoder()
        decoder.allowedClasses = [CycleNode.self]
        let node = try #require(try decoder.decode(LegacyHolder.self, from: data).node as? CycleNode)
        #expect(node.children.first?.parent === node)
        #expect(node.fills == 1)

        // Strict class names: an object archived as another class is not decoded as CycleNode.
        let renamed = archive([dict(["$class": uid(2), "name": .string("x")]), classEntry("Evil")])
        let strict = message(decoding: CycleNode.self, renamed) { $0.classNameChecking = .strict }
        #expect(strict?.contains("archived as class 'Evil'") == true, "\(strict ?? "decoded")")
        #expect(try ArchiveDecoder().decode(CycleNode.self, from: renamed).name == "x")
    }
}
