import KeyedArchive

/// How many JSON values an archive expands to, computed before anything is built.
///
/// JSON has no references, so an object reached from several places is written out in
/// each of them; a hostile (or merely unusual) archive that shares objects at every
/// level expands exponentially. Counting first, with one memoized count per object,
/// costs time linear in the archive and lets `json` refuse at once instead of filling
/// memory. A reference back into the current path (a cycle) counts as one value, as
/// its `$ref` marker does; the count saturates at `limit`.
struct ExpansionEstimate {
    let view: KeyedArchiveView
    let limit: Int
    private var memo: [Int: Int] = [:]
    private var open: Set<Int> = []

    init(view: KeyedArchiveView, limit: Int) {
        self.view = view
        self.limit = limit
    }

    /// The number of JSON values `value` expands to, at most `limit`.
    mutating func count(_ value: ArchivedValue, depth: Int = 0) -> Int {
        // Deeper graphs are refused by the flattener itself; stop counting there.
        guard depth < 20_000 else { return 1 }
        switch value {
        case .reference(let index):
            return object(index, depth: depth)
        case .array(let items):
            return items.reduce(1) { add($0, count($1, depth: depth + 1)) }
        case .dictionary(let fields):
            return fields.reduce(1) { add($0, count($1.value, depth: depth + 1)) }
        default:
            return 1
        }
    }

    private mutating func object(_ index: Int, depth: Int) -> Int {
        if let known = memo[index] { return known }
        guard index < view.objects.count, !open.contains(index) else { return 1 }
        open.insert(index)
        let object = view.objects[index]
        let total = object.fields.reduce(1) { add($0, count($1.value, depth: depth + 1)) }
        open.remove(index)
        memo[index] = total
        return total
    }

    private func add(_ a: Int, _ b: Int) -> Int { min(limit, a + b) }
}
