import KeyedArchive

/// The object graph from `$top`: which objects it reaches and where it loops.
extension ArchiveChecker {
    /// How many cycles are described one by one before the rest are only counted.
    static let cyclesShown = 20

    /// Walks the graph depth-first from every `$top` entry, without recursion (archives
    /// can be deep). A reference to an object that is still on the walk's stack closes a
    /// cycle, reported as a note with the objects around it (the first ``cyclesShown``;
    /// all are counted in ``cycleCount``). Objects that no walk
    /// reaches are reported as one note.
    mutating func checkGraph() {
        var state = [UInt8](repeating: 0, count: objects.count)  // 0 unseen, 1 open, 2 done
        var cycles: [(object: Int, path: String, loop: [Int])] = []
        cycleCount = 0
        for (_, root) in top where root > 0 && state[root] == 0 {
            // Each frame: an object, its outgoing references, and how many are followed.
            var stack: [(index: Int, edges: [(target: Int, path: String)], next: Int)] = []
            state[root] = 1
            stack.append((root, edges(of: root), 0))
            while !stack.isEmpty {
                let frame = stack.count - 1
                guard stack[frame].next < stack[frame].edges.count else {
                    state[stack[frame].index] = 2
                    stack.removeLast()
                    continue
                }
                let edge = stack[frame].edges[stack[frame].next]
                stack[frame].next += 1
                switch state[edge.target] {
                case 0:
                    state[edge.target] = 1
                    stack.append((edge.target, edges(of: edge.target), 0))
                case 1:
                    cycleCount += 1
                    if cycles.count < Self.cyclesShown {
                        let start = stack.lastIndex(where: { $0.index == edge.target }) ?? frame
                        cycles.append((stack[frame].index, edge.path, stack[start...].map(\.index) + [edge.target]))
                    }
                default:
                    break
                }
            }
        }
        for cycle in cycles {
            let loop = cycle.loop.map { "#\($0)" }.joined(separator: " -> ")
            report(.note, object: cycle.object, cycle.path,
                   "closes a cycle \(loop) (legal in NSCoding archives; typed decoding needs an ArchiveReferenceDecodable class on the cycle)",
                   isCycle: true)
        }
        if cycleCount > cycles.count {
            report(.note, "", "\(cycleCount - cycles.count) more cycles not listed", isCycle: true)
        }
        let unreachable = objects.indices.dropFirst().filter { state[$0] == 0 && !isClassEntry($0) }
        if !unreachable.isEmpty, !top.isEmpty {
            let list = unreachable.prefix(10).map { "#\($0)" }.joined(separator: ", ") + (unreachable.count > 10 ? ", …" : "")
            report(.note, "$objects", "\(unreachable.count) object\(unreachable.count == 1 ? " is" : "s are") not reachable from $top: \(list)")
        }
    }

    /// The references an object makes (UIDs in range, not 0), `$class` included so that
    /// class entries count as reached.
    private func edges(of index: Int) -> [(target: Int, path: String)] {
        var result: [(target: Int, path: String)] = []
        func collect(_ value: PropertyListValue, _ path: String) {
            switch value {
            case .uid(let uid):
                if uid > 0, uid < UInt64(objects.count) { result.append((Int(uid), path)) }
            case .array(let items):
                for (position, item) in items.enumerated() { collect(item, "\(path)[\(position)]") }
            case .dictionary(let entries):
                for entry in entries { collect(entry.value, path.isEmpty ? entry.key : "\(path).\(entry.key)") }
            default:
                break
            }
        }
        collect(objects[index], "")
        return result
    }

    private func isClassEntry(_ index: Int) -> Bool {
        classEntryNames[index] != nil
    }
}
