/// Where a value being decoded is: the coding path up to its parent as a node
/// (``CodingPathNode``), and its own key or index held as it is, not yet a node.
///
/// Descending into a struct, an enum or an array (the decoder, each container and the
/// array reader store their path) then allocates nothing. The node for the last key is
/// made only when it is needed: for an error or a `codingPath` request (``node``, a new
/// node each time), or once, kept, when the value has a nested value of its own that must
/// store its path (``settle()``), so that all of them share it.
struct DecodingPath {
    /// The path without its last key.
    private(set) var parent: CodingPathNode
    /// The last key, or none when ``parent`` is the whole path.
    private var last: Last

    /// The last key of a path, not yet a node. Plain bits, so that copying a path (the
    /// decoder saves and restores one per value) is a copy and one retain: a key is held
    /// as a ``PlainCodingKey``.
    private enum Last {
        case none
        case index(Int)
        case key(PlainCodingKey)
    }

    /// The path `node`, whole.
    @inline(__always)
    init(_ node: CodingPathNode) {
        parent = node
        last = .none
    }

    /// `parent` followed by `key`. A key that is not a ``PlainCodingKey`` (a `String`
    /// inside, as in ``ArchiveCodingKey``) is made a node at once.
    @inline(__always)
    init<Key: CodingKey>(_ parent: CodingPathNode, key: Key) {
        guard let plain = PlainCodingKey(key) else {
            self.parent = parent.appending(key)
            last = .none
            return
        }
        self.parent = parent
        last = .key(plain)
    }

    /// `parent` followed by array position `index`.
    @inline(__always)
    init(_ parent: CodingPathNode, index: Int) {
        self.parent = parent
        last = .index(index)
    }

    /// The whole path as a node: the same path as ``settle()`` gives, made anew when the
    /// last key is pending (for errors and `codingPath`, which happen once).
    var node: CodingPathNode { Self.joining(parent, last) }

    /// `parent` followed by `last`, as a node.
    @inline(__always)
    private static func joining(_ parent: consuming CodingPathNode, _ last: Last) -> CodingPathNode {
        switch last {
        case .none: return parent
        case .index(let index): return .index(index, parent)
        case .key(let key): return key.appended(to: parent)
        }
    }

    /// The whole path as a node, made once: the last key becomes part of the parent, so
    /// the nested values that ask for it afterwards share that node.
    @inline(__always)
    mutating func settle() -> CodingPathNode {
        if case .none = last { return parent }
        return settleLast()
    }

    /// The key of the object at `ancestor` under which this place is: the first key of
    /// this path after `ancestor` (a node the path descends from), the `super` keys of
    /// `superDecoder()` passed over, since the superclass's fields are the same object's.
    /// ``PropertyKey/element`` when that first step is an array position; ``PropertyKey/none``
    /// when the path is `ancestor` itself, or does not descend from it. Makes no node; walks the path's steps below
    /// `ancestor` only (see `_ArchiveDecoder.acceptBackReference(to:at:)`).
    func propertyKey(below ancestor: CodingPathNode) -> PropertyKey {
        var found = PropertyKey.none
        switch last {
        case .none: break
        case .index: found = .element
        case .key(let key): found = .key(key.key)
        }
        var node = parent
        while !node.isSame(as: ancestor) {
            switch node {
            case .root: return .none
            case .key(let key, let up):
                if (key as? ArchiveCodingKey)?.isSuperclass != true { found = .key(key) }
                node = up
            case .index(_, let up):
                found = .element
                node = up
            }
        }
        return found
    }

    /// The first step of a path below an object (see ``propertyKey(below:)``).
    enum PropertyKey {
        /// A key of the object's keyed container.
        case key(any CodingKey)
        /// An element of the object's unkeyed container.
        case element
        /// No step: the object itself (or a path that does not descend from it).
        case none
    }

    @inline(never)
    private mutating func settleLast() -> CodingPathNode {
        // The parent moves into the new node (exchanged out, not copied and released).
        var taken = CodingPathNode.root
        swap(&taken, &parent)
        parent = Self.joining(taken, last)
        last = .none
        return parent
    }
}
