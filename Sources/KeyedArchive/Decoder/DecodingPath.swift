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
    /// as its bytes and its type, which is how keys of up to 8 bytes with no references
    /// (the `CodingKeys` enums the compiler writes) are stored anyway.
    private enum Last {
        case none
        case index(Int)
        case key(bytes: UInt64, type: any CodingKey.Type)
    }

    /// The path `node`, whole.
    @inline(__always)
    init(_ node: CodingPathNode) {
        parent = node
        last = .none
    }

    /// `parent` followed by `key`. A key that is not plain bits of 0, 1, 2, 4 or 8 bytes
    /// (a `String` inside, as in ``ArchiveCodingKey``) is made a node at once.
    @inline(__always)
    init<Key: CodingKey>(_ parent: CodingPathNode, key: Key) {
        guard _isPOD(Key.self), let bytes = Self.bytes(of: key) else {
            self.parent = parent.appending(key)
            last = .none
            return
        }
        self.parent = parent
        last = .key(bytes: bytes, type: Key.self)
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
        case .key(let bytes, let type): return node(parent, bytes, as: type)
        }
    }

    /// The bytes of a key of plain bits, when it has 0, 1, 2, 4 or 8 of them (bit casts:
    /// no closure, so nothing generic to instantiate per key).
    @inline(__always)
    private static func bytes<Key>(of key: Key) -> UInt64? {
        switch MemoryLayout<Key>.size {
        case 0: return 0
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self))
        case 8: return unsafeBitCast(key, to: UInt64.self)
        default: return nil
        }
    }

    /// `parent` followed by the key of type `Key` whose bytes are `bytes` (``bytes(of:)``'s inverse).
    private static func node<Key: CodingKey>(_ parent: consuming CodingPathNode, _ bytes: UInt64, as type: Key.Type) -> CodingPathNode {
        let key: Key = switch MemoryLayout<Key>.size {
        case 0: unsafeBitCast((), to: Key.self)
        case 1: unsafeBitCast(UInt8(truncatingIfNeeded: bytes), to: Key.self)
        case 2: unsafeBitCast(UInt16(truncatingIfNeeded: bytes), to: Key.self)
        case 4: unsafeBitCast(UInt32(truncatingIfNeeded: bytes), to: Key.self)
        default: unsafeBitCast(bytes, to: Key.self)
        }
        return .key(key, parent)
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
        // The parent moves into the new node (exchanged out, not copied and released).
        var taken = CodingPathNode.root
        swap(&taken, &parent)
        parent = Self.joining(taken, last)
        last = .none
        return parent
    }
}
