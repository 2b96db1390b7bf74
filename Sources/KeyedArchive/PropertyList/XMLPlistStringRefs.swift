import Foundation

/// The object reference of each string the fast XML reader has added to a binary property
/// list, found by the string's exact bytes (a slice of the input) without building a
/// `String` for a string already seen.
///
/// It gives every string the reference `BinaryPropertyListBuilder.string(_:)` would give it,
/// so the output is byte for byte what the general reader writes. That method uniques by
/// `String` equality, which is canonical equivalence: equality of the NFC forms ("é"
/// precomposed equals "e" + U+0301; U+212A KELVIN SIGN equals "K"). A string made only of
/// scalars listed in ``NFCStableScalars`` (all of ASCII, Latin, Greek, Cyrillic, CJK, Hangul
/// syllables, emoji, among others) is its own NFC form, so two such strings are equivalent
/// only when their bytes are equal. While every string read is of that kind, a new byte
/// sequence is a new string. From the first other string on, a new
/// byte sequence is looked up by `String` equality in a dictionary of every distinct string
/// so far (built once at that point), exactly as the builder would.
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
    /// Every distinct string so far by `String` equality, once a non-ASCII string is seen.
    private var canonical: [String: Int]?

    private struct Entry {
        /// Where the bytes are in the input.
        var start: Int
        var count: Int
        var ref: Int
    }

    private static let seed = UInt64.random(in: .min ... .max)

    /// The reference for the string whose UTF-8 is `input[start..<end]`, adding it to
    /// `builder` if it is new. `ascii` says whether those bytes are all below 0x80 (a shortcut).
    /// `start <= end <= input.count`, and `input` is the same buffer on every call.
    mutating func ref(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, ascii: Bool,
                      builder: inout BinaryPropertyListBuilder) -> Int {
        let bytes = UnsafeBufferPointer(rebasing: input[start..<end])
        let hash = ByteHash.hash(bytes, seed: Self.seed)
        let first = byHash.ref(for: hash)
        if let first {
            let entry = entries[first]
            if entry.count == bytes.count, Self.equal(input, entry.start, bytes) { return entry.ref }
            if let ref = collisions[Array(bytes)] { return ref }
        }
        let ref: Int
        if canonical == nil && (ascii || NFCStableScalars.containsAll(bytes)) {
            // All strings so far are their own NFC forms and none has these bytes: a new string.
            ref = builder.appendString(String(decoding: bytes, as: UTF8.self))
        } else {
            if canonical == nil { canonical = everyString(input) }
            let text = String(decoding: bytes, as: UTF8.self)
            if let existing = canonical?[text] {
                ref = existing
            } else {
                ref = builder.appendString(text)
                canonical?[text] = ref
            }
        }
        if first == nil {
            byHash.insert(hash, entries.count)
            entries.append(Entry(start: start, count: bytes.count, ref: ref))
        } else {
            collisions[Array(bytes)] = ref
        }
        return ref
    }

    /// Whether `input[start ..< start + bytes.count]` equals `bytes` (the range is one that
    /// an earlier call was given, so it lies inside `input`).
    private static func equal(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let a = input.baseAddress, let b = bytes.baseAddress, bytes.count > 0 else { return true }
        return memcmp(a + start, b, bytes.count) == 0
    }

    /// The distinct strings seen so far, by `String` (all in NFC, so distinct as strings too).
    private func everyString(_ input: UnsafeBufferPointer<UInt8>) -> [String: Int] {
        var strings = [String: Int](minimumCapacity: entries.count + collisions.count)
        for entry in entries {
            let bytes = UnsafeBufferPointer(rebasing: input[entry.start..<(entry.start + entry.count)])
            strings[String(decoding: bytes, as: UTF8.self)] = entry.ref
        }
        for (bytes, ref) in collisions { strings[String(decoding: bytes, as: UTF8.self)] = ref }
        return strings
    }
}
