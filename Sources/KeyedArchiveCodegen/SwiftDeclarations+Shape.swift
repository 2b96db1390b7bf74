// Struct or class, enum or indirect enum, and the `Hashable, Sendable` conformances of
// the planned declarations: decided over the graph of which type holds which, in time
// linear in its size.

extension SwiftDeclarations {
    /// Types that contain themselves without a collection in between cannot be structs
    /// (or plain enums): they become final classes (or `indirect` enums).
    mutating func decideIdentity() {
        var edges: [SwiftIdentifier: Set<SwiftIdentifier>] = [:]
        for composite in composites {
            edges[composite.name] = Set(composite.properties.compactMap { Self.directTarget($0.type) })
        }
        for union in unions {
            edges[union.name] = Set(union.cases.compactMap { Self.directTarget($0.type) })
        }
        // Peel off nodes without outgoing edges, then nodes without incoming ones (each
        // once, by counting): what remains is on (or between) cycles.
        var remaining = Set(edges.keys)
        var incoming: [SwiftIdentifier: [SwiftIdentifier]] = [:]
        for (node, targets) in edges {
            for target in targets where edges[target] != nil { incoming[target, default: []].append(node) }
        }
        var outDegree = edges.mapValues { $0.filter { edges[$0] != nil }.count }
        var queue = outDegree.filter { $0.value == 0 }.map(\.key)
        while let node = queue.popLast() {
            remaining.remove(node)
            for source in incoming[node] ?? [] {
                outDegree[source, default: 1] -= 1
                if outDegree[source] == 0 { queue.append(source) }
            }
        }
        var inDegree: [SwiftIdentifier: Int] = [:]
        for node in remaining { inDegree[node] = (incoming[node] ?? []).filter { remaining.contains($0) }.count }
        queue = inDegree.filter { $0.value == 0 }.map(\.key)
        while let node = queue.popLast() {
            remaining.remove(node)
            for target in edges[node] ?? [] where remaining.contains(target) {
                inDegree[target, default: 1] -= 1
                if inDegree[target] == 0 { queue.append(target) }
            }
        }
        for index in composites.indices where remaining.contains(composites[index].name) {
            composites[index].holdsItself = true
        }
        for index in unions.indices where remaining.contains(unions[index].name) {
            unions[index].isIndirect = true
        }
    }

    /// The declared type a property holds directly (no collection in between).
    private static func directTarget(_ type: SwiftType) -> SwiftIdentifier? {
        switch type {
        case .declared(let name), .optional(.declared(let name)): return name
        default: return nil
        }
    }

    /// Plain types (structs and enums of plain values) are `Hashable` and `Sendable`;
    /// classes, and anything holding a class or a Foundation type that is not both, are not.
    /// One pass backwards over "is held by" from the types that are not plain.
    mutating func decidePlainness() {
        var heldBy: [SwiftIdentifier: [SwiftIdentifier]] = [:]
        var notPlain: [SwiftIdentifier] = []
        func visit(_ owner: SwiftIdentifier, _ types: [SwiftType], plain: Bool) {
            var holdsOther = !plain
            var declared: [SwiftIdentifier] = []
            for type in types { Self.leaves(type, declared: &declared, holdsOther: &holdsOther) }
            for name in declared { heldBy[name, default: []].append(owner) }
            if holdsOther { notPlain.append(owner) }
        }
        for composite in composites {
            visit(composite.name, composite.properties.map(\.type), plain: !composite.isClass && !composite.holdsItself)
        }
        for union in unions { visit(union.name, union.cases.map(\.type), plain: true) }
        var isNotPlain: Set<SwiftIdentifier> = []
        while let name = notPlain.popLast() {
            guard isNotPlain.insert(name).inserted else { continue }
            notPlain += heldBy[name] ?? []
        }
        for index in composites.indices { composites[index].isPlain = !isNotPlain.contains(composites[index].name) }
        var keys: [SwiftIdentifier] = []
        for type in composites.flatMap({ $0.properties.map(\.type) }) + unions.flatMap({ $0.cases.map(\.type) }) {
            Self.dictionaryKeys(in: type, into: &keys)
        }
        let keySet = Set(keys)
        for index in composites.indices where keySet.contains(composites[index].name) {
            composites[index].isKeyClass = composites[index].isClass || composites[index].holdsItself
        }
        for index in unions.indices { unions[index].isPlain = !isNotPlain.contains(unions[index].name) }
    }

    /// The declared types used directly as dictionary keys in `type`.
    private static func dictionaryKeys(in type: SwiftType, into names: inout [SwiftIdentifier]) {
        switch type {
        case .declared, .foundation: break
        case .array(let inner), .set(let inner), .optional(let inner): dictionaryKeys(in: inner, into: &names)
        case .dictionary(let key, let value):
            if case .declared(let name) = key { names.append(name) }
            dictionaryKeys(in: key, into: &names)
            dictionaryKeys(in: value, into: &names)
        }
    }

    /// The declared types in `type`; `holdsOther` is set when it holds a Foundation type
    /// that is not plain.
    private static func leaves(_ type: SwiftType, declared: inout [SwiftIdentifier], holdsOther: inout Bool) {
        switch type {
        case .declared(let name): declared.append(name)
        case .foundation(let foundation): if !plainValueTypes.contains(foundation) { holdsOther = true }
        case .array(let inner), .set(let inner), .optional(let inner): leaves(inner, declared: &declared, holdsOther: &holdsOther)
        case .dictionary(let key, let value):
            leaves(key, declared: &declared, holdsOther: &holdsOther)
            leaves(value, declared: &declared, holdsOther: &holdsOther)
        }
    }
}
