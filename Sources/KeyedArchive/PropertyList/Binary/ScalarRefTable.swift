internal import CacheHints

/// A map from 64-bit scalar keys (integers, the bit patterns of reals and dates, UIDs) to
/// object references, for uniquing scalars while writing.
///
/// Open addressing with linear probing over a power-of-two table kept at most three
/// quarters full. A slot is three consecutive 32-bit words — the reference, then the key's
/// low and high halves — so a probe reads one place in memory (a table of a million keys
/// is far larger than the caches, and keys and references in two arrays cost two cache
/// misses a lookup). A reference that does not fit in 32 bits, which would take a file of
/// billions of objects, is kept aside. The bucket comes from a seeded SplitMix64 finalizer
/// rather than `Hasher`, which costs several times more per lookup and dominated the
/// writers' profiles. The seed is random per process, so keys chosen to collide (an XML
/// archive being converted, for instance) cannot be computed in advance; the map's
/// contents, and so every output, do not depend on it.
struct ScalarRefTable {
    /// `3 * slotCount` words: slot `i` is `words[3i]` (0 for an empty slot, `aside` for one
    /// whose reference is in `large`, else the reference plus one), then `words[3i + 1]` and
    /// `words[3i + 2]` (the key). An empty table is all zeros, which costs nothing to make.
    private var words: [UInt32]
    private var large: [UInt64: Int] = [:]
    private var mask: Int
    private(set) var count = 0
    private let seed: UInt64

    private static let empty: UInt32 = 0
    private static let aside = UInt32.max

    /// One random seed per process.
    private static let processSeed = UInt64.random(in: .min ... .max)

    init(capacity: Int = 16) {
        let size = Self.slotCount(for: capacity, atLeast: 16)
        words = HugePages.array(repeating: Self.empty, count: size * 3)
        mask = size - 1
        seed = Self.processSeed
    }

    /// The fewest slots, a power of two from `minimum` up, that hold `keys` keys at most 3/4 full.
    private static func slotCount(for keys: Int, atLeast minimum: Int) -> Int {
        var size = minimum
        while size / 4 * 3 < keys { size <<= 1 }
        return size
    }

    @inline(__always)
    private func slot(for key: UInt64) -> Int {
        Self.slot(for: key, seed: seed, mask: mask)
    }

    @inline(__always)
    private static func slot(for key: UInt64, seed: UInt64, mask: Int) -> Int {
        var z = key ^ seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(truncatingIfNeeded: z) & mask
    }

    /// The key stored in the slot whose first word is `words[base]`.
    @inline(__always)
    private func key(at base: Int) -> UInt64 {
        UInt64(words[base &+ 1]) | UInt64(words[base &+ 2]) << 32
    }

    /// The reference stored for `key`, or nil.
    @inline(__always)
    func ref(for key: UInt64) -> Int? {
        guard let (_, stored) = slotHolding(key) else { return nil }
        return stored == Self.aside ? large[key] : Int(stored) &- 1
    }

    /// Where `key` is stored (the first word of its slot) and that word, or nil.
    @inline(__always)
    private func slotHolding(_ key: UInt64) -> (base: Int, stored: UInt32)? {
        var index = slot(for: key)
        // The table is never full (at most 3/4), so the probe meets an empty slot.
        // `index <= mask`, so `3 * index + 2 < words.count` (checked by the array too).
        while true {
            let base = index &* 3
            let stored = words[base]
            if stored == Self.empty { return nil }
            if self.key(at: base) == key { return (base, stored) }
            index = (index &+ 1) & mask
        }
    }

    /// Asks for `key`'s home slot to be brought into the cache without waiting for it
    /// (`cache_hint_read`). A caller about to look up many keys asks for theirs a batch
    /// ahead, so that the cache misses of a large table overlap with its work instead of
    /// coming one after another. Changes nothing; `mutating` all the same, so that a table
    /// stored in a class is used in place rather than copied out for the call.
    @inline(__always)
    mutating func prefetchHome(_ key: UInt64) {
        let base = slot(for: key) &* 3
        // `base` is inside `words` (a slot's 3 words are), and a prefetch never faults.
        words.withUnsafeBufferPointer { cache_hint_read($0.baseAddress.map { $0 + base }) }
    }

    /// Stores `ref` (non-negative) for `key`, which the caller has just looked up and not found.
    mutating func insert(_ key: UInt64, _ ref: Int) {
        if isFullForOneMore { grow() }
        place(key, storedWord(for: ref, key: key))
        count += 1
    }

    /// Whether one more key would fill the table past three quarters.
    private var isFullForOneMore: Bool { (count + 1) * 4 > (mask + 1) * 3 }

    /// The reference stored for `key`; when there is none, stores `ref` (non-negative) for
    /// it and returns nil: ``ref(for:)`` then ``insert(_:_:)`` in one probe.
    @inline(__always)
    mutating func refOrInsert(_ key: UInt64, _ ref: Int) -> Int? {
        var index = slot(for: key)
        while true {
            let base = index &* 3
            let stored = words[base]
            if stored == Self.empty {
                // Growing moves every key: then `insert` probes the new table again.
                if isFullForOneMore {
                    insert(key, ref)
                } else {
                    fill(base, storedWord(for: ref, key: key), key)
                    count += 1
                }
                return nil
            }
            if self.key(at: base) == key { return stored == Self.aside ? large[key] : Int(stored) &- 1 }
            index = (index &+ 1) & mask
        }
    }

    /// ``refOrInsert(_:_:)`` for each of `keys` in turn, the new ones given `firstNew`,
    /// `firstNew + 1`, … in order: `refs[i]` is the reference of `keys[i]`; returns how many
    /// were new. The home slots of the whole batch are read before any key is looked up,
    /// so that the cache misses of a large table overlap, and the table is grown once for
    /// the batch, not in the middle of it. Stores exactly what the calls one by one store.
    /// `refs` has room for `keys.count` references.
    mutating func refsOrInsert(_ keys: UnsafeBufferPointer<UInt64>, firstNew: Int,
                               into refs: UnsafeMutableBufferPointer<Int>) -> Int {
        // A reference kept aside (`large`) needs the dictionary: one key at a time then.
        guard large.isEmpty, firstNew >= 0, firstNew &+ keys.count < Int(Self.aside) &- 1 else {
            var fresh = 0
            for (i, key) in keys.enumerated() {
                if let ref = refOrInsert(key, firstNew &+ fresh) { refs[i] = ref } else { refs[i] = firstNew &+ fresh; fresh &+= 1 }
            }
            return fresh
        }
        reserve(keys.count)
        let mask = mask, seed = seed
        var fresh = 0
        // `refs` holds each key's home slot until its reference replaces it.
        words.withUnsafeMutableBufferPointer { words in
            // `index <= mask` and `words.count == 3 * (mask + 1)`: each slot's 3 words are inside.
            for (i, key) in keys.enumerated() {
                let home = Self.slot(for: key, seed: seed, mask: mask)
                refs[i] = home
                cache_hint_read(words.baseAddress.map { $0 + home &* 3 })
            }
            for (i, key) in keys.enumerated() {
                var index = refs[i]
                // Room was made for every key of the batch: the probe meets an empty slot.
                while true {
                    let base = index &* 3
                    let stored = words[base]
                    if stored == Self.empty {
                        let ref = firstNew &+ fresh
                        words[base] = UInt32(truncatingIfNeeded: ref &+ 1)
                        words[base &+ 1] = UInt32(truncatingIfNeeded: key)
                        words[base &+ 2] = UInt32(truncatingIfNeeded: key >> 32)
                        refs[i] = ref
                        fresh &+= 1
                        break
                    }
                    if UInt64(words[base &+ 1]) | UInt64(words[base &+ 2]) << 32 == key {
                        refs[i] = Int(stored) &- 1
                        break
                    }
                    index = (index &+ 1) & mask
                }
            }
        }
        count += fresh
        return fresh
    }

    /// Replaces the reference stored for `key`; changes nothing when `key` is not stored.
    mutating func update(_ key: UInt64, _ ref: Int) {
        guard let (base, stored) = slotHolding(key) else { return }
        if stored == Self.aside { large[key] = nil }
        words[base] = storedWord(for: ref, key: key)
    }

    /// The slot word for `ref`: the reference plus one, or ``aside`` with `ref` kept in
    /// `large` when it does not fit.
    @inline(__always)
    private mutating func storedWord(for ref: Int, key: UInt64) -> UInt32 {
        if ref >= 0, ref < Int(Self.aside) &- 1 { return UInt32(truncatingIfNeeded: ref &+ 1) }  // 1 ..< aside
        large[key] = ref
        return Self.aside
    }

    /// Puts `key` with its stored reference word into the first empty slot of its probe.
    @inline(__always)
    private mutating func place(_ key: UInt64, _ stored: UInt32) {
        var index = slot(for: key)
        while words[index &* 3] != Self.empty { index = (index &+ 1) & mask }
        fill(index &* 3, stored, key)
    }

    /// Sets the empty slot whose first word is `words[base]`.
    @inline(__always)
    private mutating func fill(_ base: Int, _ stored: UInt32, _ key: UInt64) {
        words[base] = stored
        words[base &+ 1] = UInt32(truncatingIfNeeded: key)
        words[base &+ 2] = UInt32(truncatingIfNeeded: key >> 32)
    }

    /// Empties the table, its storage freed with its pages given back at once (see
    /// ``PageRelease``): for a large table dropped while its owner goes on.
    mutating func release() {
        PageRelease.free(&words)
        self = ScalarRefTable()
    }

    /// Makes room for `additional` more keys without growing on the way (growing one step
    /// at a time moves every key at each step). The table's contents do not change.
    mutating func reserve(_ additional: Int) {
        let size = Self.slotCount(for: count + additional, atLeast: mask + 1)
        if size > mask + 1 { grow(to: size) }
    }

    private mutating func grow(to size: Int? = nil) {
        var old = words
        let size = size ?? (mask + 1) * 2
        words = HugePages.array(repeating: Self.empty, count: size * 3)
        mask = size - 1
        var base = 0
        while base < old.count {
            let stored = old[base]
            if stored != Self.empty {
                place(UInt64(old[base + 1]) | UInt64(old[base + 2]) << 32, stored)
            }
            base += 3
        }
        PageRelease.free(&old)
    }
}

/// A seeded 64-bit hash of bytes, eight at a time: the writers' uniquing tables use it in
/// place of `Hasher` (several times slower on short keys). Not meant to resist an attacker
/// who knows the seed; the seed is random per process and tables that see untrusted input
/// fall back to `Dictionary` on a collision (see `BinaryPropertyListBuilder.data`).
enum ByteHash {
    /// A seeded 64-bit hash of `bytes`.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var h = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return h ^ (h >> 29) }
        let raw = UnsafeRawPointer(base)
        let n = bytes.count
        var i = 0
        // `i + 8 <= n`: each 8-byte load lies inside the buffer.
        while i + 8 <= n {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        var tail: UInt64 = 0
        while i < n {
            tail = tail << 8 | UInt64(base[i])
            i += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 32)
    }

}
