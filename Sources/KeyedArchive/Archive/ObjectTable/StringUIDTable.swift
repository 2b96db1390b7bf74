internal import CacheHints
import Foundation

/// The archive writer's strings, uniqued by their exact UTF-8 bytes; it also keeps them
/// (the object table refers to a string by its position here).
///
/// Open addressing over a power-of-two table kept at most 3/4 full, with a seeded hash
/// of the bytes (eight at a time) instead of `Hasher` — string hashing was the largest
/// single cost of encoding string-heavy values. A slot is 8 bytes: 32 bits of the hash and
/// the string's position. Equality is byte equality, as `NSString.isEqual:` compares: two
/// strings that Swift's `==` calls equal because they are canonically equivalent (`"é"`
/// precomposed and decomposed) stay two objects, so each decodes to exactly what was
/// encoded.
struct StringUIDTable {
    /// A slot: 32 bits of the hash and the position of its string; position `empty` when free.
    private struct Slot {
        var hash: UInt32
        var position: UInt32
    }
    private static let empty = UInt32.max

    /// A stored string and its UID, side by side: a lookup that finds a string compares it
    /// and takes its UID in one read of memory (two arrays cost two cache misses a hit
    /// once the table outgrows the caches).
    private struct Stored {
        var string: String
        var uid: Int32
    }

    private var slots: [Slot]
    /// The strings in insertion order, with their UIDs.
    private var strings = ChunkedArray<Stored>()
    private var mask: Int
    private var count = 0
    /// Set by ``releaseLookup()``.
    private var released = false
    private let seed: UInt64

    private static let processSeed = UInt64.random(in: .min ... .max)

    /// Strings stored so far (their positions are `0..<storedCount`).
    var storedCount: Int { strings.count }

    /// The string stored at `position`.
    subscript(position: Int) -> String { strings[position].string }

    init() {
        let size = 256
        slots = HugePages.array(repeating: Slot(hash: 0, position: Self.empty), count: size)
        mask = size - 1
        seed = Self.processSeed
    }

    /// Where a string not found by ``find(_:)`` goes: its hash and the free slot its probe
    /// ended at, in a table of `mask + 1` slots (for ``insert(_:uid:at:)``).
    struct Place {
        fileprivate let hash: UInt32
        fileprivate let slot: Int
        fileprivate let mask: Int
    }

    /// The UID stored for `string`, or where to store it. Two steps rather than one call
    /// with a closure that makes the UID: the closure's captures cost reference counting
    /// on every lookup, found or not. Both steps of the lookup are `mutating` though they
    /// change nothing: a non-mutating call on the object table's stored property (or on
    /// `self` captured by the closure below) copies the whole table first, retaining its
    /// four buffers and releasing them after, where a mutating one reads it in place.
    @inline(__always)
    mutating func find(_ string: String) -> (uid: Int32?, place: Place) {
        string.withContiguousUTF8 { find(bytes: $0) }
    }

    /// ``find(_:)`` for a string whose ``hash(of:)`` the caller has made already (a
    /// dictionary's keys are hashed as they are read for sorting): the bytes are hashed once.
    @inline(__always)
    mutating func find(_ string: String, hash: UInt32) -> (uid: Int32?, place: Place) {
        string.withContiguousUTF8 { find(bytes: $0, hash: hash) }
    }

    @inline(__always)
    private mutating func find(bytes: UnsafeBufferPointer<UInt8>) -> (uid: Int32?, place: Place) {
        find(bytes: bytes, hash: hash(of: bytes))
    }

    @inline(__always)
    private mutating func find(bytes: UnsafeBufferPointer<UInt8>, hash h: UInt32) -> (uid: Int32?, place: Place) {
        var slot = Int(h) & mask
        // At most 3/4 full, so the probe meets an empty slot.
        while slots[slot].position != Self.empty {
            if slots[slot].hash == h {
                let stored = strings[Int(slots[slot].position)]
                if Self.sameBytes(stored.string, bytes) { return (stored.uid, Place(hash: h, slot: slot, mask: mask)) }
            }
            slot = (slot &+ 1) & mask
        }
        return (nil, Place(hash: h, slot: slot, mask: mask))
    }

    /// Stores `string`, which ``find(_:)`` did not find at `place`, with its UID (a string
    /// stored meanwhile, or the table's growth, moves it to the next free slot).
    mutating func insert(_ string: String, uid: Int32, at place: Place) {
        let stored = UInt32(exactly: strings.count)
        strings.append(Stored(string: string, uid: uid))
        // Past 2^32 - 1 strings (over 64 GB of them) a string is kept but not found again.
        guard !released, let position = stored, position != Self.empty else { return }
        if (count + 1) * 4 > slots.count * 3 { grow() }
        var slot = place.slot
        // Probed again only when the table has changed since `find` (it grew, or the slot
        // was taken): usually the slot is still free.
        if place.mask != mask || slots[slot].position != Self.empty {
            slot = Int(place.hash) & mask
            while slots[slot].position != Self.empty { slot = (slot &+ 1) & mask }
        }
        slots[slot] = Slot(hash: place.hash, position: position)
        count += 1
    }

    /// The hash a string is stored and found by (its home slot is the hash masked to the table).
    /// `mutating` though it changes nothing, as ``find(_:)`` is (and ``prefetchHome(hash:)``).
    @inline(__always)
    mutating func hash(of bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let full = ByteHash.hash(bytes, seed: seed)
        return UInt32(truncatingIfNeeded: full ^ (full >> 32))
    }

    /// Asks for the home slot of a string whose ``hash(of:)`` is `hash` (about to be looked
    /// up with ``find(_:hash:)``) to be brought into the cache, without waiting for it
    /// (`cache_hint_read`): the cache misses of a batch of them then overlap with the work
    /// instead of each waiting on memory in turn (a large dictionary's new keys land in
    /// random slots of a table larger than the cache). Changes nothing.
    @inline(__always)
    mutating func prefetchHome(hash: UInt32) {
        let index = Int(hash) & mask
        // `index <= mask < slots.count`, and a prefetch never faults.
        slots.withUnsafeBufferPointer { cache_hint_read($0.baseAddress.map { $0 + index }) }
    }

    /// Drops the lookup (slots) and keeps the strings: the table is done finding
    /// them. Strings added after this are kept but not found again.
    mutating func releaseLookup() {
        let size = 16
        PageRelease.free(&slots)
        slots = HugePages.array(repeating: Slot(hash: 0, position: Self.empty), count: size)
        mask = size - 1
        count = 0
        released = true
    }

    /// Frees the storage of the strings below `position`, which are not read again.
    mutating func release(below position: Int) {
        strings.release(below: position)
    }

    @inline(__always)
    private static func sameBytes(_ stored: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        stored.withContiguousUTF8 { sameBytes($0, bytes) }
    }

    @inline(__always)
    private static func sameBytes(_ other: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard other.count == bytes.count else { return false }
        guard let a = other.baseAddress, let b = bytes.baseAddress else { return true }  // both empty
        return memcmp(a, b, other.count) == 0
    }

    /// Makes room for `additional` more strings at once, so that storing many new strings
    /// (a large dictionary's keys) does not grow the table step by step, moving every
    /// string stored so far each time. Changes nothing that is stored or found.
    mutating func reserve(_ additional: Int) {
        guard !released, additional > 0 else { return }
        var size = slots.count
        while (count + additional) * 4 > size * 3 { size *= 2 }
        if size > slots.count { grow(to: size) }
    }

    private mutating func grow(to newSize: Int? = nil) {
        var oldSlots = slots
        let size = newSize ?? slots.count * 2
        slots = HugePages.array(repeating: Slot(hash: 0, position: Self.empty), count: size)
        mask = size - 1
        for old in oldSlots where old.position != Self.empty {
            var slot = Int(old.hash) & mask
            while slots[slot].position != Self.empty { slot = (slot &+ 1) & mask }
            slots[slot] = old
        }
        PageRelease.free(&oldSlots)
    }
}
