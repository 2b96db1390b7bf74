import Foundation
import KeyedArchive

/// Keyed archives of `Node` objects (`name`, `children`: an NSArray of nodes, `parent`: a
/// node) whose `children` lists an ancestor (issue 53 §3): decoded into a class whose
/// `children` are strong and `parent` weak, each would close a cycle of strong references
/// that is never freed, unless the decoder refuses it. ``tree`` is the legitimate shape:
/// children below, `parent` back up.
public enum CycleLeakShape: Sendable, Hashable, CustomStringConvertible {
    /// A root whose children each list the root as their only child (and name it `parent`).
    case star
    /// One node that lists itself as its child.
    case selfChild
    /// A chain of nodes, each the only child of the one before, whose last node lists the
    /// node `levelsUp` levels above it as its child (1: its parent).
    case ancestorList(levelsUp: Int)
    /// A chain of nodes, each the only child of the one before, the last listing the first:
    /// a cycle through every node.
    case ring
    /// A tree of depth 2: a root and its children, each child's `parent` the root. Legal.
    case tree

    /// The shapes the tests and the benchmark use.
    public static let all: [CycleLeakShape] = [.star, .selfChild, .ancestorList(levelsUp: 1), .ancestorList(levelsUp: 3),
                                                .ancestorList(levelsUp: 50), .ring, .tree]

    public var description: String {
        switch self {
        case .star: return "star"
        case .selfChild: return "selfChild"
        case .ancestorList(let levels): return "ancestorList\(levels)"
        case .ring: return "ring"
        case .tree: return "tree"
        }
    }

    /// Whether the shape closes a cycle through `children` (all but ``tree``).
    public var isHostile: Bool { self != .tree }

    /// The archive with about `nodes` nodes (at least the shape's smallest graph), references
    /// and offsets at least `minimumWidth` bytes; `$top.root` is the first node.
    public func archive(nodes: Int, minimumWidth: Int = 1) -> Data {
        var graph = ArchiveGraph()
        graph.plist.minimumWidth = minimumWidth
        let n = max(1, nodes)
        let root: UInt64
        switch self {
        case .star, .tree:
            root = graph.reserveEntry()
            let children = (0..<max(1, n - 1)).map { _ in graph.reserveEntry() }
            for (i, child) in children.enumerated() {
                graph.setNode(child, name: "n\(i)", children: self == .star ? [root] : [], parent: root)
            }
            graph.setNode(root, name: "root", children: children, parent: nil)
        case .selfChild:
            root = graph.reserveEntry()
            graph.setNode(root, name: "self", children: [root], parent: nil)
        case .ancestorList(let levelsUp):
            let chain = (0..<max(n, levelsUp + 1)).map { _ in graph.reserveEntry() }
            for (i, node) in chain.enumerated() {
                let children = i + 1 < chain.count ? [chain[i + 1]] : [chain[i - min(i, max(1, levelsUp))]]
                graph.setNode(node, name: "n\(i)", children: children, parent: i > 0 ? chain[i - 1] : nil)
            }
            root = chain[0]
        case .ring:
            let chain = (0..<max(1, n)).map { _ in graph.reserveEntry() }
            for (i, node) in chain.enumerated() {
                graph.setNode(node, name: "n\(i)", children: [chain[(i + 1) % chain.count]], parent: nil)
            }
            root = chain[0]
        }
        return graph.data(root: root)
    }

    /// The archive at about `targetBytes` (within 10% from 10 KB up): nodes added until
    /// the size is reached. ``selfChild`` has one size.
    public func archive(targetBytes: Int) -> Data {
        let width = targetBytes > 32_768 ? 4 : 1
        let probe = archive(nodes: 256, minimumWidth: width)
        let perNode = max(1, Double(probe.count) / 256)
        var nodes = max(2, Int(Double(targetBytes) / perNode))
        var data = archive(nodes: nodes, minimumWidth: width)
        for _ in 0..<2 where self != .selfChild && abs(Double(data.count) / Double(targetBytes) - 1) > 0.05 {
            nodes = max(2, Int(Double(nodes) * Double(targetBytes) / Double(max(1, data.count))))
            data = archive(nodes: nodes, minimumWidth: width)
        }
        return data
    }
}

extension ArchiveGraph {
    /// Fills reserved entry `uid` with a `Node`: `name`, `children` (an NSArray object of
    /// the UIDs given), and `parent` when given.
    public mutating func setNode(_ uid: UInt64, name: String, children: [UInt64], parent: UInt64?) {
        let list = array(of: children)
        var fields: [(key: String, value: Int)] = [("name", string(name)), ("children", self.uid(list))]
        if let parent { fields.append(("parent", self.uid(parent))) }
        setObject(uid, className: "Node", fields: fields)
    }
}

/// The `Node` of the GraphsAndCycles article (`children` strong, `parent` weak and declared
/// as the back edge) for ``CycleLeakShape`` archives, counting its live instances so that a
/// test or the benchmark can tell that a decode left none behind.
public final class CycleProbeNode: ArchiveReferenceDecodable {
    public var name = ""
    public var children: [CycleProbeNode] = []
    public weak var parent: CycleProbeNode?

    enum CodingKeys: String, CodingKey { case name, children, parent }
    public static var archiveBackEdges: [any CodingKey] { [CodingKeys.parent] }

    /// Instances alive now, in every thread.
    public static var live: Int { counter.value }
    private static let counter = LiveCounter()

    public init() { Self.counter.add(1) }
    deinit { Self.counter.add(-1) }

    public func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        children = try container.decode([CycleProbeNode].self, forKey: .children)
        parent = try container.decodeIfPresent(CycleProbeNode.self, forKey: .parent)
    }
}

/// A count several threads may change.
package final class LiveCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    package init() {}
    package func add(_ delta: Int) { lock.lock(); count += delta; lock.unlock() }
    package var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
