/// The identity of a value's shared storage, for values that are one word referring to
/// storage that is never changed while shared: an `indirect` enum (its case's box) or a
/// `Dictionary` (its hash table). Copies of such a value have the same identity; two values
/// built apart have different ones, even when they are equal.
///
/// The rule that makes it sound: two values that are alive at the same time and have the
/// same identity are the same storage, so they are equal. (A value that is not alive any
/// more may have left its address to another.) Whoever keeps identities therefore keeps the
/// values too, or uses them only while the values are held elsewhere, and treats a
/// different identity as "not known to be equal", never as "different". Sharing found this
/// way saves work; nothing depends on finding it.
struct SharedStorageIdentity: Hashable {
    let bits: UInt

    /// The identity of `value`, or `nil` for a type that is not one word (nothing shared is
    /// found for it then).
    @inline(__always)
    init?<T>(_ value: T) {
        guard MemoryLayout<T>.size == MemoryLayout<UInt>.size else { return nil }
        bits = withUnsafeBytes(of: value) { $0.loadUnaligned(as: UInt.self) }
    }
}

/// Two identities, for memos of pairs known equal.
struct SharedStorageIdentityPair: Hashable {
    let first: SharedStorageIdentity
    let second: SharedStorageIdentity
}
