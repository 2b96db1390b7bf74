import Foundation

/// What a ``BoundedTreeReader`` builds from each node of a binary property list.
protocol BoundedTreeBuilder {
    associatedtype Node
    /// A scalar (anything but an array or a dictionary). `key` is the nearest enclosing
    /// dictionary key, for messages.
    func leaf(_ object: BinaryPropertyList.Object, ref: Int, key: String?) throws -> Node
    func array(_ items: [Node]) -> Node
    func dictionary(keys: [String], values: [Node]) -> Node
}

/// Reads the tree under a binary property-list object without recursion, through the
/// document's one accounting: every node costs a visit of the shared
/// ``ArchiveWorkBudget``, nesting is bounded by its `maxDepth`, and a container that
/// contains itself or one of its ancestors (object references may point back) throws.
///
/// A container shared by several parents is read once per place it appears; the
/// budget, shared by the whole document, stops a graph that expands exponentially.
struct BoundedTreeReader<Builder: BoundedTreeBuilder> {
    let plist: BinaryPropertyList
    let builder: Builder
    /// The `$objects` index being read, for messages.
    let objectIndex: Int?

    /// Containers already read in this document, by plist reference: a subtree that was
    /// read to its end holds no cycle, so it can be reused wherever it appears again. Its
    /// expanded size is still charged to the budget at each use, and its height still
    /// counts against the depth limit, so the limits mean what they say; only the work
    /// of reading it again is saved.
    ///
    /// Leaves (strings, data, numbers, UIDs) are kept the same way, so a value referenced
    /// from many places is made once and shared; dictionary keys are made once per string
    /// object through ``leaves``, which the document's other readings (class entries) share.
    struct Cache {
        fileprivate var subtrees: [Int: (node: Builder.Node, count: Int, height: Int)] = [:]
        var leaves = SharedLeafValues()
    }

    private struct Frame {
        let ref: Int
        let keyRefs: BinaryPropertyList.RefList?
        let valueRefs: BinaryPropertyList.RefList
        let key: String?
        var next = 0
        var keys: [String] = []
        var items: [Builder.Node] = []
        /// Nodes in the subtree (expanded), and its height in containers.
        var count = 1
        var height = 1
    }

    /// Reads the tree under `root` with a fresh cache.
    func read(_ root: Int, key rootKey: String? = nil, budget: inout ArchiveWorkBudget) throws -> Builder.Node {
        var cache = Cache()
        return try read(root, key: rootKey, budget: &budget, cache: &cache)
    }

    func read(_ root: Int, key rootKey: String? = nil, budget: inout ArchiveWorkBudget, cache: inout Cache) throws -> Builder.Node {
        var frames: [Frame] = []
        var open: Set<Int> = []

        /// Starts node `ref`: a finished node (with its size and height) for scalars and
        /// cached subtrees, `nil` when a frame was pushed.
        func start(_ ref: Int, key: String?) throws -> (node: Builder.Node, count: Int, height: Int)? {
            if let known = cache.subtrees[ref] {
                guard budget.charge(known.count) else { throw budget.exhausted(objectIndex: objectIndex, key: key) }
                guard frames.count + known.height <= budget.maxDepth else { throw budget.tooDeep(objectIndex: objectIndex, key: key) }
                return known
            }
            guard budget.charge() else { throw budget.exhausted(objectIndex: objectIndex, key: key) }
            let object = try plist.object(ref)
            let keyRefs: BinaryPropertyList.RefList?, valueRefs: BinaryPropertyList.RefList
            switch object {
            case .array(let list): (keyRefs, valueRefs) = (nil, list)
            case .dictionary(let keys, let values): (keyRefs, valueRefs) = (keys, values)
            default:
                // Made once per object and then shared (above); its bytes charged once.
                switch object {
                case .asciiString(let range), .utf16String(let range), .data(let range):
                    guard budget.chargeMade(bytes: range.count) else {
                        throw budget.exhausted(objectIndex: objectIndex, key: key)
                    }
                default: break
                }
                let leaf = (node: try builder.leaf(object, ref: ref, key: key), count: 1, height: 0)
                cache.subtrees[ref] = leaf
                return leaf
            }
            guard frames.count < budget.maxDepth else { throw budget.tooDeep(objectIndex: objectIndex, key: key) }
            guard open.insert(ref).inserted else {
                throw KeyedArchiveError("property-list container \(ref) contains itself (through its own elements)", objectIndex: objectIndex, key: key)
            }
            var frame = Frame(ref: ref, keyRefs: keyRefs, valueRefs: valueRefs, key: key)
            frame.items.reserveCapacity(min(valueRefs.count, 1 << 16))
            frames.append(frame)
            return nil
        }

        /// Adds a finished child to the innermost open container.
        func add(_ child: (node: Builder.Node, count: Int, height: Int)) {
            let position = frames.count - 1
            frames[position].items.append(child.node)
            // Counts are bounded by the budget already charged; saturate all the same.
            let (sum, overflow) = frames[position].count.addingReportingOverflow(child.count)
            frames[position].count = overflow ? Int.max : sum
            frames[position].height = max(frames[position].height, child.height + 1)
        }

        if let finished = try start(root, key: rootKey) { return finished.node }
        while !frames.isEmpty {
            // Read the frame's scalars only: a copy of the frame would share its arrays
            // and make every append below copy them.
            let position = frames.count - 1
            let index = frames[position].next
            let valueRefs = frames[position].valueRefs
            if index < valueRefs.count {
                frames[position].next += 1
                var childKey = frames[position].key
                if let keyRefs = frames[position].keyRefs {
                    let keyRef = try plist.ref(keyRefs, index)
                    guard let name = try cache.leaves.string(at: keyRef, in: plist, budget: &budget) else {
                        throw KeyedArchiveError("property-list dictionary \(frames[position].ref): key \(index) (object \(keyRef)) is not a string", objectIndex: objectIndex, key: childKey)
                    }
                    frames[position].keys.append(name)
                    childKey = name
                }
                if let finished = try start(try plist.ref(valueRefs, index), key: childKey) { add(finished) }
                continue
            }
            let frame = frames.removeLast()
            open.remove(frame.ref)
            let node = frame.keyRefs == nil
                ? builder.array(frame.items)
                : builder.dictionary(keys: frame.keys, values: frame.items)
            let finished = (node: node, count: frame.count, height: frame.height)
            cache.subtrees[frame.ref] = finished
            guard !frames.isEmpty else { return node }
            add(finished)
        }
        // Not reached: the loop returns when the root frame closes.
        throw KeyedArchiveError("property-list object \(root) could not be read", objectIndex: objectIndex, key: rootKey)
    }
}

/// Builds ``PropertyListValue`` trees.
struct PropertyListValueBuilder: BoundedTreeBuilder {
    let plist: BinaryPropertyList

    func leaf(_ object: BinaryPropertyList.Object, ref: Int, key: String?) throws -> PropertyListValue {
        try plist.scalarValue(object, ref: ref) ?? .array([])  // containers: not reached, the reader opens them
    }

    func array(_ items: [PropertyListValue]) -> PropertyListValue { .array(items) }

    func dictionary(keys: [String], values: [PropertyListValue]) -> PropertyListValue {
        .dictionary(zip(keys, values).map { PropertyListEntry(key: $0, value: $1) })
    }
}

extension BinaryPropertyList {
    /// The value of a scalar object (`nil` for arrays and dictionaries): the one
    /// conversion of binary scalars to ``PropertyListValue``.
    func scalarValue(_ object: Object, ref: Int) throws -> PropertyListValue? {
        switch object {
        case .bool(let b): return .bool(b)
        case .integer(let i): return .integer(i)
        case .unsignedInteger(let u): return .unsignedInteger(u)
        case .wideInteger(let w): return .wideInteger(w)
        case .real(let d): return .real(d)
        case .float(let f): return .float(f)
        case .date(let d): return .date(d)
        case .data(let range): return .data(Data(bytes[range]))
        case .asciiString(let range): return .string(asciiString(range))
        case .utf16String(let range): return .string(try utf16String(range, ref: ref))
        case .uid(let u): return .uid(u)
        case .array, .dictionary: return nil
        }
    }
}

extension PropertyListValue {
    /// Reads a property list (binary or XML) under one document-wide accounting: nesting
    /// deeper than `limits.maxDepth`, a container that contains itself, or more nodes
    /// than the visit budget of ``ArchiveDecoder/Limits`` (containers shared so often
    /// that the tree would explode) all throw.
    ///
    /// ```swift
    /// let tree = try PropertyListValue(propertyList: data, limits: ArchiveDecoder.Limits())
    /// ```
    ///
    /// - Throws: ``PropertyListError`` when the data is not a property list,
    ///   ``KeyedArchiveError`` naming the limit when a limit is reached.
    public init(propertyList data: Data, limits: ArchiveDecoder.Limits) throws {
        var budget = ArchiveWorkBudget(limits: limits, inputSize: data.count)
        self = try Self.read(data, budget: &budget)
    }

    /// The tree of `data`, read under `budget` (which a caller goes on charging).
    static func read(_ data: Data, budget: inout ArchiveWorkBudget) throws -> PropertyListValue {
        try PropertyListInput.read(data, maxDepth: budget.maxDepth) { plist in
            let reader = BoundedTreeReader(plist: plist, builder: PropertyListValueBuilder(plist: plist), objectIndex: nil)
            return try reader.read(plist.topObject, budget: &budget)
        }
    }
}
