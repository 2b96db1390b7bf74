import KeyedArchive

// Which generated classes decode in two phases (`ArchiveReferenceCodable`) and which of
// their properties are `weak` back edges: decided over the graph of which type holds which
// (strongly connected components), then checked against the archive's objects.

extension SwiftDeclarations {
    /// Every composite on a cycle of types (one reachable from itself, through any
    /// property, collection or enum) whose archive has an object reached again while its
    /// fields are read becomes a two-phase class: whichever object of the cycle the decoder
    /// meets again, it is such a class. Types on cycles the archive never closes (a linked
    /// list) stay as they are.
    mutating func decideTwoPhase() {
        var edges: [SwiftIdentifier: [SwiftIdentifier]] = [:]
        for composite in composites {
            var targets: [SwiftIdentifier] = []
            for property in composite.properties { Self.declaredTypes(in: property.type, into: &targets) }
            edges[composite.name] = targets
        }
        for union in unions {
            var targets: [SwiftIdentifier] = []
            for item in union.cases { Self.declaredTypes(in: item.type, into: &targets) }
            edges[union.name] = targets
        }
        let components = Self.cyclicComponents(edges)
        var closing: Set<Int> = []
        for composite in composites {
            guard let component = components[composite.name], let className = composite.archivedClassName,
                  schema.classes[className]?.closesCycle == true else { continue }
            closing.insert(component)
        }
        for index in composites.indices {
            guard let component = components[composites[index].name], closing.contains(component) else { continue }
            composites[index].isTwoPhase = true
            composites[index].isClass = true
        }
        cycleComponents = components
    }

    /// Keys that name an object's owner or a delegate: single-valued back edges by convention
    /// (compared without case, leading `_` or an `NS` prefix).
    static let backEdgeKeys: Set<String> = [
        "parent", "parentnode", "supernode", "superview", "superlayer", "superitem", "owner", "delegate",
        "datasource", "nextresponder", "window",
    ]

    /// Whether `key` names an owner or delegate (``backEdgeKeys``).
    static func isBackEdgeKey(_ key: String) -> Bool {
        var name = Substring(key)
        while name.first == "_" { name = name.dropFirst() }
        if name.hasPrefix("NS"), name.dropFirst(2).first?.isUppercase == true { name = name.dropFirst(2) }
        return backEdgeKeys.contains(name.lowercased())
    }

    /// A property of a two-phase class is `weak` when it holds one object of a two-phase
    /// class on the same cycle and either its key names an owner or delegate
    /// (``backEdgeKeys``), or that class holds an array or set of this one and each object
    /// it refers to lists the object in a collection (`parent` and `children`). The archive must then show that every object such a property refers
    /// to is also held strongly from the decoded root (``WeakEdgeProof``); a property for
    /// which it cannot stays strong.
    mutating func decideWeakEdges() {
        let byName = Dictionary(composites.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var candidates: [WeakEdgeProof.Edge: (composite: Int, property: Int)] = [:]
        var pairOnly: Set<WeakEdgeProof.Edge> = []
        for (index, composite) in composites.enumerated() where composite.isTwoPhase {
            guard let className = composite.archivedClassName, case .archivedClass = composite.origin else { continue }
            for (slot, property) in composite.properties.enumerated() {
                guard case .declared(let target) = property.type, let other = byName[target], other.isTwoPhase,
                      cycleComponents[target] == cycleComponents[composite.name], other.archivedClassName != nil,
                      Self.isBackEdgeKey(property.key) || other.holdsCollection(of: composite.name) else { continue }
                let edge = WeakEdgeProof.Edge(className: className, key: property.key)
                candidates[edge] = (index, slot)
                if !Self.isBackEdgeKey(property.key) { pairOnly.insert(edge) }
            }
        }
        guard !candidates.isEmpty else { return }
        var roots: [ArchivedValue] = []
        if let entry = schema.rootEntry {
            roots = schema.view.topLevel.filter { $0.key == entry.key }.map(\.value)
        } else {
            roots = schema.view.topLevel.map(\.value)
        }
        let weak = WeakEdgeProof(view: schema.view, candidates: Set(candidates.keys), pairOnly: pairOnly).provenWeak(from: roots)
        for edge in weak {
            guard let (index, slot) = candidates[edge] else { continue }
            composites[index].properties[slot].isWeak = true
        }
    }

    /// The properties of two-phase classes that the generated `archiveBackEdges` lists:
    /// every `weak` one, and each strong one through which the archive, decoded in the
    /// generated code's order (``DecodeOrderWalk``), refers to an object still being
    /// decoded (two objects that are each other's friend), whose cycle the user breaks. The
    /// decoder accepts a reference to an object still being decoded through no other key.
    mutating func decideBackEdges() {
        guard composites.contains(where: \.isTwoPhase) else { return }
        var order: [String: [String]] = [:]
        for composite in composites {
            guard case .archivedClass(let className, _, _) = composite.origin else { continue }
            order[className] = composite.properties.map(\.key)
        }
        var walk = DecodeOrderWalk(schema: schema, order: order)
        walk.walk(rootsInDecodeOrder())
        for index in composites.indices where composites[index].isTwoPhase {
            guard case .archivedClass(let className, _, _) = composites[index].origin else { continue }
            for slot in composites[index].properties.indices {
                let property = composites[index].properties[slot]
                composites[index].properties[slot].isBackEdge = property.isWeak
                    || walk.closing.contains(DecodeOrderWalk.Edge(className: className, key: property.key))
            }
        }
    }

    /// The `$top` values the generated `Root` decodes, in the order it decodes them.
    private func rootsInDecodeOrder() -> [ArchivedValue] {
        let top = schema.view.topLevel
        if let entry = schema.rootEntry { return top.filter { $0.key == entry.key }.map(\.value) }
        guard let root = composites.first(where: { $0.name == rootName }),
              case .topLevel(let storedKeys) = root.origin else { return top.map(\.value) }
        var values: [String: ArchivedValue] = [:]
        for entry in top { values[entry.key] = values[entry.key] ?? entry.value }
        return root.properties.compactMap { values[storedKeys[$0.key] ?? $0.key] }
    }

    /// The declared types in `type`, through collections and optionals.
    static func declaredTypes(in type: SwiftType, into names: inout [SwiftIdentifier]) {
        switch type {
        case .declared(let name): names.append(name)
        case .foundation: break
        case .array(let inner), .set(let inner), .optional(let inner): declaredTypes(in: inner, into: &names)
        case .dictionary(let key, let value):
            declaredTypes(in: key, into: &names)
            declaredTypes(in: value, into: &names)
        }
    }

    /// The strongly connected component of each node that is on a cycle (a component of
    /// several nodes, or one node with an edge to itself), numbered from 0. Tarjan's
    /// algorithm with an explicit stack: linear in the graph, and no recursion however long
    /// the chains of types.
    static func cyclicComponents(_ edges: [SwiftIdentifier: [SwiftIdentifier]]) -> [SwiftIdentifier: Int] {
        var indexOf: [SwiftIdentifier: Int] = [:]
        var lowLink: [SwiftIdentifier: Int] = [:]
        var onStack: Set<SwiftIdentifier> = []
        var stack: [SwiftIdentifier] = []
        var result: [SwiftIdentifier: Int] = [:]
        var components = 0
        var counter = 0
        for start in edges.keys.sorted() where indexOf[start] == nil {
            // Each frame: a node and the position of the next edge to follow.
            var frames: [(node: SwiftIdentifier, next: Int)] = [(start, 0)]
            indexOf[start] = counter
            lowLink[start] = counter
            counter += 1
            stack.append(start)
            onStack.insert(start)
            while let frame = frames.last {
                let targets = edges[frame.node] ?? []
                if frame.next < targets.count {
                    frames[frames.count - 1].next += 1
                    let target = targets[frame.next]
                    guard edges[target] != nil else { continue }
                    if let targetIndex = indexOf[target] {
                        if onStack.contains(target) { lowLink[frame.node] = min(lowLink[frame.node] ?? 0, targetIndex) }
                    } else {
                        indexOf[target] = counter
                        lowLink[target] = counter
                        counter += 1
                        stack.append(target)
                        onStack.insert(target)
                        frames.append((target, 0))
                    }
                    continue
                }
                frames.removeLast()
                let low = lowLink[frame.node] ?? 0
                if let parent = frames.last { lowLink[parent.node] = min(lowLink[parent.node] ?? 0, low) }
                guard low == indexOf[frame.node] else { continue }
                var members: [SwiftIdentifier] = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    members.append(member)
                    if member == frame.node { break }
                }
                if members.count > 1 || targets.contains(frame.node) {
                    for member in members { result[member] = components }
                    components += 1
                }
            }
        }
        return result
    }
}

extension SwiftDeclarations.Composite {
    /// The `$classname` of an archived class or list.
    var archivedClassName: String? {
        switch origin {
        case .archivedClass(let name, _, _), .list(let name, _): return name
        case .record, .topLevel: return nil
        }
    }

    /// Whether a property holds an array or set of `name` (possibly optional).
    func holdsCollection(of name: SwiftIdentifier) -> Bool {
        properties.contains { property in
            switch property.type {
            case .array(.declared(name)), .set(.declared(name)), .array(.optional(.declared(name))): return true
            default: return false
            }
        }
    }
}
