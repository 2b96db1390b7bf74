import Foundation

// NSObject + NSCoding twins of the flat-record and graph types, for Foundation's
// NSKeyedArchiver / NSKeyedUnarchiver. Each field is coded the way a hand-written Cocoa
// class would: numbers and booleans inline, strings, dates and arrays as objects.

final class NSDog: NSObject, NSCoding {
    let name: String
    let age: Int
    init(_ dog: Dog) { name = dog.name; age = dog.age }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
        age = coder.decodeInteger(forKey: "age")
    }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
    }
    var value: Dog { Dog(name: name, age: age) }
}

final class NSPerson: NSObject, NSCoding {
    let name: String
    let age: Int
    let weight: Double
    let birthDate: Date
    let tags: [String]
    let dog: NSDog?
    let isActive: Bool

    init(_ p: Person) {
        name = p.name; age = p.age; weight = p.weight; birthDate = p.birthDate
        tags = p.tags; dog = p.dog.map(NSDog.init); isActive = p.isActive
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
              let birthDate = coder.decodeObject(forKey: "birthDate") as? Date,
              let tags = coder.decodeObject(forKey: "tags") as? [String] else { return nil }
        self.name = name; self.birthDate = birthDate; self.tags = tags
        age = coder.decodeInteger(forKey: "age")
        weight = coder.decodeDouble(forKey: "weight")
        dog = coder.decodeObject(forKey: "dog") as? NSDog
        isActive = coder.decodeBool(forKey: "isActive")
    }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
        coder.encode(weight, forKey: "weight")
        coder.encode(birthDate, forKey: "birthDate")
        coder.encode(tags, forKey: "tags")
        coder.encode(dog, forKey: "dog")
        coder.encode(isActive, forKey: "isActive")
    }
    var value: Person {
        Person(name: name, age: age, weight: weight, birthDate: birthDate, tags: tags, dog: dog?.value, isActive: isActive)
    }
}

final class NSGraphNode: NSObject, NSCoding {
    let id: Int
    let name: String
    let weight: Double
    let tags: [String]
    init(_ n: GraphNode) { id = n.id; name = n.name; weight = n.weight; tags = n.tags }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
              let tags = coder.decodeObject(forKey: "tags") as? [String] else { return nil }
        self.name = name; self.tags = tags
        id = coder.decodeInteger(forKey: "id")
        weight = coder.decodeDouble(forKey: "weight")
    }
    func encode(with coder: NSCoder) {
        coder.encode(id, forKey: "id")
        coder.encode(name, forKey: "name")
        coder.encode(weight, forKey: "weight")
        coder.encode(tags, forKey: "tags")
    }
}

final class NSEdge: NSObject, NSCoding {
    let from: NSGraphNode
    let to: NSGraphNode
    let cost: Double
    init(from: NSGraphNode, to: NSGraphNode, cost: Double) { self.from = from; self.to = to; self.cost = cost }
    init?(coder: NSCoder) {
        guard let from = coder.decodeObject(forKey: "from") as? NSGraphNode,
              let to = coder.decodeObject(forKey: "to") as? NSGraphNode else { return nil }
        self.from = from; self.to = to
        cost = coder.decodeDouble(forKey: "cost")
    }
    func encode(with coder: NSCoder) {
        coder.encode(from, forKey: "from")
        coder.encode(to, forKey: "to")
        coder.encode(cost, forKey: "cost")
    }
}

final class NSGraph: NSObject, NSCoding {
    let nodes: [NSGraphNode]
    let edges: [NSEdge]

    /// The twin of `graph`, sharing one NSGraphNode per GraphNode.
    init(_ graph: Graph) {
        var twins: [ObjectIdentifier: NSGraphNode] = [:]
        nodes = graph.nodes.map { node in
            let twin = NSGraphNode(node)
            twins[ObjectIdentifier(node)] = twin
            return twin
        }
        edges = graph.edges.map { NSEdge(from: twins[ObjectIdentifier($0.from)]!, to: twins[ObjectIdentifier($0.to)]!, cost: $0.cost) }
    }
    init?(coder: NSCoder) {
        guard let nodes = coder.decodeObject(forKey: "nodes") as? [NSGraphNode],
              let edges = coder.decodeObject(forKey: "edges") as? [NSEdge] else { return nil }
        self.nodes = nodes; self.edges = edges
    }
    func encode(with coder: NSCoder) {
        coder.encode(nodes, forKey: "nodes")
        coder.encode(edges, forKey: "edges")
    }

    /// Back to the Swift graph (for the correctness check), keeping the sharing.
    var value: Graph {
        var twins: [ObjectIdentifier: GraphNode] = [:]
        let swiftNodes = nodes.map { n in
            let node = GraphNode(id: n.id, name: n.name, weight: n.weight, tags: n.tags)
            twins[ObjectIdentifier(n)] = node
            return node
        }
        func twin(_ n: NSGraphNode) -> GraphNode {
            twins[ObjectIdentifier(n)] ?? GraphNode(id: n.id, name: n.name, weight: n.weight, tags: n.tags)
        }
        return Graph(nodes: swiftNodes, edges: edges.map { Edge(from: twin($0.from), to: twin($0.to), cost: $0.cost) })
    }
}

/// Foundation's archiver and unarchiver with the settings the benchmark uses.
enum FoundationArchiver {
    static func archive(_ root: NSObject) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
    }

    static func unarchive(_ data: Data) throws -> Any? {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        defer { unarchiver.finishDecoding() }
        return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
    }
}
