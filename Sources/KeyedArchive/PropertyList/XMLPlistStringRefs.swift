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
/// one comparison. The hash seed is random per process, and a 64-bit hash taken by two
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

    /// The reference for the string whose UTF-8 is `input[start..<end]`, adding it to
    /// `builder` if it is new. `input` is the same on every call (ranges are clamped to it).
    mutating func ref(_ input: XMLPlistBytes, _ start: Int, _ end: Int,
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
        let ref = builder.appendString(String(decoding: bytes, as: UTF8.self))
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
