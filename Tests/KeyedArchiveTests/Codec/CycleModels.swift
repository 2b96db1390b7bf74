import Foundation
@testable import KeyedArchive

// Classes that take part in cycles (ArchiveReferenceDecodable), shared by the cycle suites.

/// A tree with parent pointers: children are owned, the parent is a weak back edge.
final class CycleNode: ArchiveReferenceCodable, ArchivedClass {
    static let archivedClassName = "Node"
    var name = ""
    var children: [CycleNode] = []
    weak var parent: CycleNode?
    /// How many times `decodeFields(from:)` ran on this instance.
    var fills = 0

    init() {}

    init(_ name: String, children: [CycleNode] = []) {
        self.name = name
        self.children = children
        for child in children { child.parent = self }
    }

    enum CodingKeys: String, CodingKey { case name, children, parent }

    static var archiveBackEdges: [any CodingKey] { [CodingKeys.parent] }

    func decodeFields(from decoder: any Decoder) throws {
        fills += 1
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        children = try container.decodeIfPresent([CycleNode].self, forKey: .children) ?? []
        parent = try container.decodeIfPresent(CycleNode.self, forKey: .parent)
    }
}

/// Two objects that are each other's delegate (strong both ways: the test breaks the cycle).
final class CyclePeer: ArchiveReferenceCodable, ArchivedClass {
    static let archivedClassName = "Peer"
    var name = ""
    var delegate: CyclePeer?

    init() {}
    init(_ name: String) { self.name = name }

    enum CodingKeys: String, CodingKey { case name, delegate }

    /// Strong: the tests break the cycle themselves.
    static var archiveBackEdges: [any CodingKey] { [CodingKeys.delegate] }

    func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        delegate = try container.decodeIfPresent(CyclePeer.self, forKey: .delegate)
    }
}

extension CyclePeer {
    /// Peers "a" and "b", each the other's delegate; returns "a" (set its delegate to nil to free them).
    static func mutualPair() -> CyclePeer {
        let a = CyclePeer("a"), b = CyclePeer("b")
        a.delegate = b
        b.delegate = a
        return a
    }
}

/// A class hierarchy: the subclass writes its superclass's fields through `superEncoder()`
/// (one object, as NSCoding subclasses do) and reads them through `superDecoder()`.
class CycleShape: ArchiveReferenceCodable {
    var label = ""
    weak var owner: CycleShape?
    var parts: [CycleShape] = []

    required init() {}

    required convenience init(from decoder: any Decoder) throws {
        self.init()
        try decodeFields(from: decoder)
    }

    enum CodingKeys: String, CodingKey { case label, owner, parts }

    class var archiveBackEdges: [any CodingKey] { [CodingKeys.owner] }

    func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        owner = try container.decodeIfPresent(CycleShape.self, forKey: .owner)
        parts = try container.decode([CycleShape].self, forKey: .parts)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encodeIfPresent(owner, forKey: .owner)
        try container.encode(parts, forKey: .parts)
    }
}

final class CycleCircle: CycleShape {
    var radius = 0.0

    enum CircleKeys: String, CodingKey { case radius }

    override func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CircleKeys.self)
        radius = try container.decode(Double.self, forKey: .radius)
        try super.decodeFields(from: try decoder.container(keyedBy: CircleKeys.self).superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CircleKeys.self)
        try container.encode(radius, forKey: .radius)
        try super.encode(to: container.superEncoder())
    }
}

/// A plain Codable class (one phase): it cannot take part in a cycle.
final class PlainLink: Codable {
    var name = ""
    var next: PlainLink?
    init(_ name: String) { self.name = name }
}

/// A struct that may list itself: a cycle through it is a value-type cycle.
struct NodeBox: Codable {
    var node: CycleNode?
    var again: [NodeBox]?
}

/// An array that may contain itself (an NSMutableArray in the archive): a two-phase class
/// over an unkeyed container.
final class CycleList: ArchiveReferenceCodable {
    var items: [CycleList] = []

    init() {}

    /// Strong elements: the tests break the cycle themselves.
    static var archiveBackEdges: [any CodingKey] { [ArchiveBackEdge.elements] }

    func decodeFields(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd { items.append(try container.decode(CycleList.self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for item in items { try container.encode(item) }
    }
}
