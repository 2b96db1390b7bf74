import KeyedArchive

/// Checks on the archive's objects that `weak` back edges lose nothing: a `weak`
/// property's object must also be held strongly, through the other properties, from the
/// value the generated `Root` decodes; otherwise it would be freed as soon as decoding
/// returns.
///
/// Starting with every candidate edge weak, the objects reachable from the roots along
/// strong edges are marked; a candidate whose object is not reached becomes strong, and
/// marking goes on from it. Each object and each reference is visited once, so the cost
/// is linear in the archive. Which candidates fail is decided a round at a time, over
/// complete markings, so the result does not depend on the order of the walk.
struct WeakEdgeProof {
    /// A property of an archived class, by `$classname` and key.
    struct Edge: Hashable {
        let className: String
        let key: String
    }

    let view: KeyedArchiveView
    let candidates: Set<Edge>

    /// The candidates that can be `weak`.
    func provenWeak(from roots: [ArchivedValue]) -> Set<Edge> {
        var reached = [Bool](repeating: false, count: view.objects.count)
        var queue: [Int] = []
        var strong: Set<Edge> = []
        // Per candidate, the objects it refers to from reached objects; and which
        // candidates got new ones since they were last checked.
        var targets: [Edge: [Int]] = [:]
        var checked: [Edge: Int] = [:]
        var dirty: Set<Edge> = []

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
                        let edge = Edge(className: className, key: field.key)
                        if candidates.contains(edge), !strong.contains(edge) {
                            targets[edge, default: []].append(target)
                            dirty.insert(edge)
                            continue
                        }
                    }
                    push(field.value)
                }
            }
            var failed: [Edge] = []
            for edge in dirty {
                let list = targets[edge] ?? []
                let start = checked[edge] ?? 0
                checked[edge] = list.count
                if list[start...].contains(where: { $0 < 0 || $0 >= reached.count || !reached[$0] }) { failed.append(edge) }
            }
            dirty = []
            guard !failed.isEmpty else { break }
            for edge in failed {
                strong.insert(edge)
                for target in targets[edge] ?? [] { push(.reference(target)) }
            }
        }
        return candidates.subtracting(strong)
    }
}
