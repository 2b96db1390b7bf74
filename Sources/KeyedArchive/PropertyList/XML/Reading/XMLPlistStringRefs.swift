import Foundation

/// The object reference of each string the fast XML reader has added to a binary property
/// list, found by the string's exact bytes (a slice of the input) without building a
/// `String` for a string already seen.
///
/// It gives every string the reference `BinaryPropertyListBuilder.string(_:)` would give it,
/// so the output is byte for byte what the general reader writes: both unique strings by
/// their exact bytes, so canonically equivalent spellings (`"é"` and `"e"` + U+0301) stay
/// two strings and each reads back as written.
///
/// Repeated strings (dictionary keys, class names) cost a seeded hash of their bytes and
/// one comparison; a repeated string of at most 16 bytes (the usual key) is first looked up
/// in a small cache of recent ones, by its bytes as two words (no hash of the bytes, no
/// comparison with its first occurrence far back in the input). The hash seed is random per process, and a 64-bit hash taken by two
/// different byte sequences sends the second to a `Dictionary` (SipHash): crafted input
/// cannot make lookups slower than that.
struct XMLPlistStringRefs {
    /// Hash of the bytes → index into `entries` (the first entry with that hash).
    private var byHash = ScalarRefTable()
    private var entries: [Entry] = []
    /// Byte sequences whose hash was already taken by other bytes (practically never).
    private var collisions: [[UInt8]: Int] = [:]

    private struct Entry {
        /// Where the bytes are in the input.
        var start: Int
        var count: Int
        var ref: Int
    }

    private static let seed = UInt64.random(in: .min ... .max)

    /// Recent strings of at most 16 bytes (``RecentString``), in 128 sets of two found by
    /// their bytes, the more recently used first: two strings that land in one set (say
    /// `$class` and `name`, used by every object) both stay, where one slot each would have
    /// them push each other out at every use. A miss (never seen, or pushed out by other
    /// strings) just takes the path above, so crafted input that makes every lookup miss
    /// costs two comparisons more per string.
    private var recent = [RecentString](repeating: RecentString(), count: Self.recentSlots)
    private static let recentSlots = 256

    /// A string of at most 16 bytes: its bytes as two little-endian words (zeros past its
    /// end), its byte count (-1: an empty slot) and its reference.
    private struct RecentString {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = -1
        var ref = 0
    }

    /// The reference for the string whose UTF-8 is `input[start..<end]`, adding it to
    /// `builder` if it is new. `input` is the same on every call (ranges are clamped to it).
    mutating func ref(_ input: XMLPlistBytes, _ start: Int, _ end: Int,
                      builder: inout BinaryPropertyListBuilder) -> Int {
        let count = end &- start
        guard count >= 0, count <= 16 else { return hashedRef(input, start, end, builder: &builder) }
        // The string's bytes exactly: two words masked to `count` bytes (`word` gives zeros
        // outside the input, and the masks clear whatever follows the string in it).
        let low = input.word(start) & Self.mask(count)
        let high = count > 8 ? input.word(start &+ 8) & Self.mask(count &- 8) : 0
        var mixed = (low ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
        mixed ^= high &* 0xBF58_476D_1CE4_E5B9
        let first = Int(truncatingIfNeeded: mixed >> 57) &* 2  // even, < 256 = recentSlots
        let cached = recent[first]
        if cached.count == count, cached.low == low, cached.high == high { return cached.ref }
        let second = recent[first &+ 1]
        if second.count == count, second.low == low, second.high == high {
            // Now the more recent of the two.
            recent[first &+ 1] = cached
            recent[first] = second
            return second.ref
        }
        let ref = hashedRef(input, start, end, builder: &builder)
        recent[first &+ 1] = cached
        recent[first] = RecentString(low: low, high: high, count: count, ref: ref)
        return ref
    }

    /// A mask of the low `count` bytes of a word (`count` in 0...8).
    @inline(__always)
    private static func mask(_ count: Int) -> UInt64 {
        count >= 8 ? ~0 : (1 << UInt64(count &* 8)) &- 1
    }

    /// ``ref(_:_:_:builder:)`` by the seeded hash of the bytes.
    private mutating func hashedRef(_ input: XMLPlistBytes, _ start: Int, _ end: Int,
                                    builder: inout BinaryPropertyListBuilder) -> Int {
        let bytes = input.slice(start..<end).buffer
        let hash = ByteHash.hash(bytes, seed: Self.seed)
        let first = byHash.ref(for: hash)
        if let first {
            let entry = entries[first]
            if entry.count == bytes.count, Self.equal(input.slice(entry.start..<(entry.start + entry.count)).buffer, bytes) {
                return entry.ref
            }
            if let ref = collisions[Array(bytes)] { return ref }
        }
        let ref = builder.appendString(utf8: bytes)
        if first == nil {
            byHash.insert(hash, entries.count)
            entries.append(Entry(start: max(start, 0), count: bytes.count, ref: ref))
        } else {
            collisions[Array(bytes)] = ref
        }
        return ref
    }

    /// Whether `a` and `b` (of equal counts) hold the same bytes.
    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = b.count
        guard a.count == count else { return false }
        guard count > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmp(pa, pb, count) == 0
    }
}
