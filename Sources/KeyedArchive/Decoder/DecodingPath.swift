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
    private(set) var last: Last

    /// The last key of a path, not yet a node.
    enum Last {
        case none
        case index(Int)
        case key(any CodingKey)
    }

    /// The path `node`, whole.
    @inline(__always)
    init(_ node: CodingPathNode) {
        parent = node
        last = .none
    }

    /// `parent` followed by `key`.
    @inline(__always)
    init(_ parent: CodingPathNode, key: some CodingKey) {
        self.parent = parent
        last = .key(key)
    }

    /// `parent` followed by array position `index`.
    @inline(__always)
    init(_ parent: CodingPathNode, index: Int) {
        self.parent = parent
        last = .index(index)
    }

    /// The whole path as a node: the same path as ``settle()`` gives, made anew when the
    /// last key is pending (for errors and `codingPath`, which happen once).
    var node: CodingPathNode {
        switch last {
        case .none: return parent
        case .index(let index): return parent.appending(index: index)
        case .key(let key): return parent.appending(key)
        }
    }

    /// The whole path as a node, made once: the last key becomes part of the parent, so
    /// the nested values that ask for it afterwards share that node.
    @inline(__always)
    mutating func settle() -> CodingPathNode {
        if case .none = last { return parent }
        return settleLast()
    }

    @inline(never)
    private mutating func settleLast() -> CodingPathNode {
        parent = node
        last = .none
        return parent
    }
}
