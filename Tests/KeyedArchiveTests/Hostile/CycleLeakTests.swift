import Foundation
import HostileArchives
import Testing
@testable import KeyedArchive

// Issue 53 §3: hostile archives whose `children` list an ancestor must not leave strong
// cycles behind. Instances are counted (deinit): after each decode, thrown or not, and the
// result released, none is left.

/// Live instances of the test's own classes (tests of this suite run one at a time).
private let live = LiveCounter()

/// The same Node as it was written before back edges were declared: none is accepted.
private final class UndeclaredNode: ArchiveReferenceDecodable {
    var name = ""
    var children: [UndeclaredNode] = []
    weak var parent: UndeclaredNode?
    enum CodingKeys: String, CodingKey { case name, children, parent }
    init() { live.add(1) }
    deinit { live.add(-1) }
    func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        children = try container.decode([UndeclaredNode].self, forKey: .children)
        parent = try container.decodeIfPresent(UndeclaredNode.self, forKey: .parent)
    }
}

/// A Node whose parent sits in a struct, and whose children are wrapped in an enum read in place.
private final class WrappedNode: ArchiveReferenceDecodable {
    var children: [WrappedChild] = []
    var up = WeakUp()
    enum CodingKeys: String, CodingKey { case children, parent }
    static var archiveBackEdges: [any CodingKey] { [CodingKeys.parent] }
    init() { live.add(1) }
    deinit { live.add(-1) }
    func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        children = try container.decode([WrappedChild].self, forKey: .children)
        up = try container.decodeIfPresent(WeakUp.self, forKey: .parent) ?? WeakUp()
    }
}

private struct WeakUp: Decodable {
    weak var node: WrappedNode?
    init() {}
    init(from decoder: any Decoder) throws { node = try decoder.singleValueContainer().decode(WrappedNode.self) }
}

private enum WrappedChild: Decodable {
    case node(WrappedNode)
    init(from decoder: any Decoder) throws { self = .node(try decoder.singleValueContainer().decode(WrappedNode.self)) }
}

/// A plain (one-phase) class between the Node and its parent: it could be shared, so no back reference inside it.
private final class ParentHolder: Decodable {
    let node: HolderNode
    enum CodingKeys: String, CodingKey { case node }
    init(from decoder: any Decoder) throws {
        node = try decoder.container(keyedBy: CodingKeys.self).decode(HolderNode.self, forKey: .node)
        live.add(1)  // counted once made (a throwing init runs no deinit)
    }
    deinit { live.add(-1) }
}

private final class HolderNode: ArchiveReferenceDecodable {
    var children: [HolderNode] = []
    weak var holder: ParentHolder?
    enum CodingKeys: String, CodingKey { case children, parent }
    static var archiveBackEdges: [any CodingKey] { [CodingKeys.parent] }
    init() { live.add(1) }
    deinit { live.add(-1) }
    func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        children = try container.decode([HolderNode].self, forKey: .children)
        holder = try container.decodeIfPresent(ParentHolder.self, forKey: .parent)
    }
}

/// Decodes `data` as `T` and releases the result: the error, if any; the instances left.
private func decodeAndRelease<T: Decodable>(_ type: T.Type, _ data: Data) -> (error: (any Error)?, left: Int) {
    let before = live.value + CycleProbeNode.live
    var failure: (any Error)?
    do { _ = try ArchiveDecoder().decode(T.self, from: data) } catch { failure = error }
    return (failure, live.value + CycleProbeNode.live - before)
}

@Suite("Hostile cycles leave no instance behind (issue 53 §3)", .serialized)
struct CycleLeakTests {
    static let hostile = CycleLeakShape.all.filter(\.isHostile)

    @Test("Each hostile shape throws, naming the object and the key 'children', and frees every instance", arguments: hostile)
    func hostileShapeFreesAll(shape: CycleLeakShape) throws {
        // A chain deeper than the default depth limit is refused for its depth first (ringOf10000).
        for nodes in shape == .star ? [2, 50, 10_000] : [2, 50, 200] {
            let (error, left) = decodeAndRelease(CycleProbeNode.self, shape.archive(nodes: nodes))
            #expect(left == 0, "\(shape) with \(nodes) nodes left \(left) instances")
            let decodingError = try #require(error as? DecodingError, "\(shape) decoded")
            guard case .dataCorrupted(let context) = decodingError else {
                Issue.record("\(decodingError)")
                continue
            }
            let underlying = try #require(context.underlyingError as? KeyedArchiveError)
            #expect(underlying.key == "children")
            #expect(underlying.objectIndex != nil)
            #expect(context.debugDescription.contains("through its key 'children'"))
            #expect(context.debugDescription.contains("archiveBackEdges"))
            #expect(context.codingPath.map(\.stringValue).contains("children"))
        }
    }

    @Test("A 10,000-node ring (each node the only child of the one before, the last listing the first) frees every instance")
    func ringOf10000() throws {
        let data = CycleLeakShape.ring.archive(nodes: 10_000)
        let before = CycleProbeNode.live
        // Within the default depth limit: refused for its depth.
        #expect(throws: DecodingError.self) { _ = try ArchiveDecoder().decode(CycleProbeNode.self, from: data) }
        #expect(CycleProbeNode.live == before)
        // Past it: the reference back to the first node is refused, naming the key.
        let error = #expect(throws: DecodingError.self) {
            try Self.onBigStack {
                let decoder = ArchiveDecoder()
                decoder.limits.maxDepth = 100_000
                _ = try decoder.decode(CycleProbeNode.self, from: data)
            }
        }
        #expect(error?.archiveError?.key == "children")
        #expect(CycleProbeNode.live == before)
    }

    @Test("The legitimate tree keeps identity through the weak parent and frees to zero")
    func legitimateTree() throws {
        let data = CycleLeakShape.tree.archive(nodes: 1_000)
        let before = CycleProbeNode.live
        do {
            let root = try ArchiveDecoder().decode(CycleProbeNode.self, from: data)
            #expect(root.children.count == 999)
            #expect(root.children.allSatisfy { $0.parent === root })
            #expect(CycleProbeNode.live - before == 1_000)
        }
        #expect(CycleProbeNode.live == before)
    }

    @Test("Without declared back edges even the weak parent is refused, naming 'parent', and nothing is left")
    func undeclaredParent() throws {
        let (error, left) = decodeAndRelease(UndeclaredNode.self, CycleLeakShape.tree.archive(nodes: 10))
        #expect(left == 0)
        let context = try #require({ () -> DecodingError.Context? in
            if case .dataCorrupted(let context)? = error as? DecodingError { return context }
            return nil
        }())
        #expect((context.underlyingError as? KeyedArchiveError)?.key == "parent")
        #expect(context.debugDescription.contains("CodingKeys.parent"))
    }

    @Test("The key that counts is the object's own: a parent in a struct counts as 'parent', children wrapped in an enum as 'children'")
    func nestedKeys() throws {
        do {
            let root = try ArchiveDecoder().decode(WrappedNode.self, from: CycleLeakShape.tree.archive(nodes: 20))
            let children = root.children.map { child -> WrappedNode in
                switch child { case .node(let node): return node }
            }
            #expect(children.count == 19 && children.allSatisfy { $0.up.node === root })
        }
        #expect(live.value == 0)
        for shape in Self.hostile {
            let (error, left) = decodeAndRelease(WrappedNode.self, shape.archive(nodes: 30))
            #expect(left == 0, "\(shape)")
            #expect(((error as? DecodingError)?.archiveError)?.key == "children", "\(shape)")
        }
    }

    @Test("A back reference inside a one-phase class instance is refused, even under a declared key")
    func insideOnePhaseClass() throws {
        // The root's child names, as its parent, a Holder object whose `node` is the root.
        var graph = ArchiveGraph()
        let root = graph.reserveEntry(), child = graph.reserveEntry()
        let holder = graph.addObject(className: "Holder", fields: [("node", graph.uid(root))])
        graph.setNode(child, name: "child", children: [], parent: holder)
        graph.setNode(root, name: "root", children: [child], parent: nil)
        let (error, left) = decodeAndRelease(HolderNode.self, graph.data(root: root))
        #expect(left == 0)
        #expect((error as? DecodingError)?.archiveError?.key == "parent")
        let message = try #require((error as? DecodingError)?.archiveError?.message)
        #expect(message.contains("one phase"))
    }

    @Test("Thrown halfway (the hostile child after legitimate ones), every partly filled instance is freed")
    func throwMidDecode() throws {
        // A tree whose last child lists the root: the earlier children were filled and handed the root.
        var graph = ArchiveGraph()
        let root = graph.reserveEntry()
        let children = (0..<100).map { _ in graph.reserveEntry() }
        for (i, child) in children.enumerated() {
            graph.setNode(child, name: "c\(i)", children: i == 99 ? [root] : [], parent: root)
        }
        graph.setNode(root, name: "root", children: children, parent: nil)
        let (error, left) = decodeAndRelease(CycleProbeNode.self, graph.data(root: root))
        #expect(error != nil)
        #expect(left == 0)
    }

    /// Runs `body` on a thread with a 512 MB stack (a 10,000-deep chain recurses).
    static func onBigStack(_ body: @escaping @Sendable () throws -> Void) throws {
        final class Box: @unchecked Sendable { var error: (any Error)? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do { try body() } catch { box.error = error }
            done.signal()
        }
        thread.stackSize = 512 << 20
        thread.start()
        done.wait()
        if let error = box.error { throw error }
    }
}
