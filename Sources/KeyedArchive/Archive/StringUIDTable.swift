import Foundation

/// The archive writer's strings, uniqued by their exact UTF-8 bytes.
///
/// Open addressing over a power-of-two table kept at most half full, with a seeded hash
/// of the bytes (eight at a time) instead of `Hasher` — string hashing was the largest
/// single cost of encoding string-heavy values. Equality is byte equality, as
/// `NSString.isEqual:` compares: two strings that Swift's `==` calls equal because they
/// are canonically equivalent (`"é"` precomposed and decomposed) stay two objects, so each
/// decodes to exactly what was encoded.
struct StringUIDTable {
    private var hashes: [UInt64]
    /// UID per slot, -1 when empty.
    private var uids: [Int32]
    /// The string per slot (for the byte comparison on a hash match).
    private var strings: [String]
    private var mask: Int
    private var count = 0
    private let seed: UInt64

    private static let processSeed = UInt64.random(in: .min ... .max)

    init() {
        let size = 256
        hashes = [UInt64](repeating: 0, count: size)
        uids = [Int32](repeating: -1, count: size)
        strings = [String](repeating: "", count: size)
        mask = size - 1
        seed = Self.processSeed
    }

    /// A seeded 64-bit hash of `bytes`.
    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
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

    /// The UID of `string`, or the UID `make()` gives it when it is new.
    mutating func uid(for string: String, orInsert make: () -> Int32) -> Int32 {
        var key = string
        return key.withUTF8 { bytes in
            let h = Self.hash(bytes, seed: seed)
            var index = Int(truncatingIfNeeded: h) & mask
            // At most half full, so the probe meets an empty slot.
            while uids[index] >= 0 {
                if hashes[index] == h, Self.sameBytes(strings[index], bytes) { return uids[index] }
                index = (index &+ 1) & mask
            }
            let uid = make()
            if (count + 1) * 2 > uids.count {
                grow()
                index = Int(truncatingIfNeeded: h) & mask
                while uids[index] >= 0 { index = (index &+ 1) & mask }
            }
            hashes[index] = h
            uids[index] = uid
            strings[index] = string
            count += 1
            return uid
        }
    }

    @inline(__always)
    private static func sameBytes(_ stored: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var stored = stored
        return stored.withUTF8 { other in
            guard other.count == bytes.count else { return false }
            guard let a = other.baseAddress, let b = bytes.baseAddress else { return true }  // both empty
            return memcmp(a, b, other.count) == 0
        }
    }

    private mutating func grow() {
        let oldHashes = hashes, oldUIDs = uids, oldStrings = strings
        let size = uids.count * 2
        hashes = [UInt64](repeating: 0, count: size)
        uids = [Int32](repeating: -1, count: size)
        strings = [String](repeating: "", count: size)
        mask = size - 1
        for old in oldUIDs.indices where oldUIDs[old] >= 0 {
            var index = Int(truncatingIfNeeded: oldHashes[old]) & mask
            while uids[index] >= 0 { index = (index &+ 1) & mask }
            hashes[index] = oldHashes[old]
            uids[index] = oldUIDs[old]
            strings[index] = oldStrings[old]
        }
    }
}
