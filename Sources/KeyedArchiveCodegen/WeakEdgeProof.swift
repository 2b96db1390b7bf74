import KeyedArchive

/// Checks on the archive's objects that `weak` back edges lose nothing: a `weak`
/// property's object must also be held strongly, through the other properties, from the
/// value the generated `Root` decodes; otherwise it would be freed as soon as decoding
/// returns.
///
/// Starting with every candidate edge weak, the objects reachable from the roots along
/// strong edges are marked; a candidate whose object is not reached becomes strong, and
/// marking goes on from it. Each object and each reference is visited once, so the cost
/// is linear in the archive. A candidate chosen only because the other class holds a
/// collection of this one (`parent` beside `children`) must also be the back edge of that
/// pair on every object: the object it refers to lists this one in a collection (an item's
/// `submenu` is no back edge, though its menu's `items` hold items). Which candidates fail is decided a round at a time, over
/// complete markings, so the result does not depend on the order of the walk.
struct WeakEdgeProof {
    /// A property of an archived class, by `$classname` and key.
    struct Edge: Hashable {
        let className: String
        let key: String
    }

    let view: KeyedArchiveView
    let candidates: Set<Edge>
    /// The candidates that are back edges only as the single side of a pair with a collection.
    let pairOnly: Set<Edge>

    /// An ``Edge`` by the ids of its class name and key, so that the walk hashes no long
    /// name once per object.
    private struct EdgeID: Hashable {
        let className: Int
        let key: Int
    }

    /// The candidates that can be `weak`.
    func provenWeak(from roots: [ArchivedValue]) -> Set<Edge> {
        var names = NameIDs()
        var edges: [EdgeID: Edge] = [:]
        for edge in candidates { edges[EdgeID(className: names.id(edge.className), key: names.id(edge.key))] = edge }
        let pairOnlyIDs = Set(edges.filter { pairOnly.contains($0.value) }.keys)
        var reached = [Bool](repeating: false, count: view.objects.count)
        var queue: [Int] = []
        var strong: Set<EdgeID> = []
        // Per candidate, the objects it refers to from reached objects; and which
        // candidates got new ones since they were last checked.
        var targets: [EdgeID: [(source: Int, target: Int)]] = [:]
        // Per object referred to by a pair-only candidate, the objects its collections hold.
        var members: [Int: Set<Int>] = [:]
        func lists(_ target: Int, _ source: Int) -> Bool {
            if let known = members[target] { return known.contains(source) }
            var found: Set<Int> = []
            if target >= 0, target < view.objects.count {
                for field in view.objects[target].fields {
                    var items: [ArchivedValue] = []
                    switch field.value {
                    case .array(let inline): items = inline
                    case .reference(let index) where index >= 0 && index < view.objects.count:
                        switch view.foundationValue(of: view.objects[index]) {
                        case .array(let elements)?, .orderedSet(let elements)?, .set(let elements)?: items = elements
                        default: break
                        }
                    default: break
                    }
                    for case .reference(let item) in items { found.insert(item) }
                }
            }
            members[target] = found
            return found.contains(source)
        }
        var checked: [EdgeID: Int] = [:]
        var dirty: Set<EdgeID> = []

        func push(_ value: ArchivedValue) {
            var values = [value]
            while let next = values.popLast() {
                switch next {
                case .reference(let index):
                    if index >= 0, index < reached.count, !reached[index] {
                        reached[index] = true
                        queue.append(index)
                    }
                case .array(let items): values += items
                case .dictionary(let fields): values += fields.map(\.value)
                default: break
                }
            }
        }

        for root in roots { push(root) }
        while true {
            while let index = queue.popLast() {
                let object = view.objects[index]
                for field in object.fields {
                    if let className = object.className, case .reference(let target) = field.value {
                        let edge = EdgeID(className: names.id(className), key: names.id(field.key))
                        if edges[edge] != nil, !strong.contains(edge) {
                            targets[edge, default: []].append((index, target))
                            dirty.insert(edge)
                            continue
                        }
                    }
                    push(field.value)
                }
            }
            var failed: [EdgeID] = []
            for edge in dirty {
                let list = targets[edge] ?? []
                let start = checked[edge] ?? 0
                checked[edge] = list.count
                let pairOnly = pairOnlyIDs.contains(edge)
                if list[start...].contains(where: { pair in
                    pair.target < 0 || pair.target >= reached.count || !reached[pair.target]
                        || pairOnly && !lists(pair.target, pair.source)
                }) { failed.append(edge) }
            }
            dirty = []
            guard !failed.isEmpty else { break }
            for edge in failed {
                strong.insert(edge)
                for pair in targets[edge] ?? [] { push(.reference(pair.target)) }
            }
        }
        return candidates.subtracting(strong.compactMap { edges[$0] })
    }
}
