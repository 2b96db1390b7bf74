/// A CodingKey held as its bits and its type: a key of plain bits (no references) of 0, 1,
/// 2, 4 or 8 bytes, as the `CodingKeys` enums the compiler writes are. Keeping one copies no
/// existential and retains nothing; ``appended(to:)`` makes the key again, as a path node.
/// The encoder's path frames and the decoder's pending last key both hold keys this way.
struct PlainCodingKey {
    /// The key's bits: equal bits are the same key of its type (the decoder's field cache
    /// compares them, see `KeyRefCache.knownPosition(bits:keys:bytes:refSize:)`).
    let bits: UInt64
    private let keyType: any CodingKey.Type

    /// `key` as bits, or nil for a key of another size or with references inside (a
    /// `String`, as in ``ArchiveCodingKey``), which the caller makes a node at once.
    @inline(__always)
    init?<Key: CodingKey>(_ key: Key) {
        guard _isPOD(Key.self), let bits = Self.bits(of: key) else { return nil }
        self.bits = bits
        keyType = Key.self
    }

    /// `parent` followed by this key.
    @inline(__always)
    func appended(to parent: consuming CodingPathNode) -> CodingPathNode {
        Self.node(parent, bits, as: keyType)
    }

    /// The bits of a key of 0, 1, 2, 4 or 8 bytes (bit casts: no closure, so nothing
    /// generic to instantiate per key).
    @inline(__always)
    private static func bits<Key>(of key: Key) -> UInt64? {
        switch MemoryLayout<Key>.size {
        case 0: return 0
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self))
        case 8: return unsafeBitCast(key, to: UInt64.self)
        default: return nil
        }
    }

    /// The key itself (no node is made: for a check that only reads its text).
    var key: any CodingKey { Self.key(bits, as: keyType) }

    /// `parent` followed by the key of type `Key` whose bits are `bits`.
    private static func node<Key: CodingKey>(_ parent: consuming CodingPathNode, _ bits: UInt64, as type: Key.Type) -> CodingPathNode {
        .key(key(bits, as: Key.self), parent)
    }

    /// The key of type `Key` whose bits are `bits` (``bits(of:)``'s inverse).
    @inline(__always)
    private static func key<Key: CodingKey>(_ bits: UInt64, as type: Key.Type) -> Key {
        switch MemoryLayout<Key>.size {
        case 0: unsafeBitCast((), to: Key.self)
        case 1: unsafeBitCast(UInt8(truncatingIfNeeded: bits), to: Key.self)
        case 2: unsafeBitCast(UInt16(truncatingIfNeeded: bits), to: Key.self)
        case 4: unsafeBitCast(UInt32(truncatingIfNeeded: bits), to: Key.self)
        default: unsafeBitCast(bits, to: Key.self)
        }
    }
}
