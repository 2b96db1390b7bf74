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
    /// A slot: the hash and UID side by side (one cache line per probe); UID -1 when empty.
    private struct Slot {
        var hash: UInt64
        var uid: Int32
    }
    private var slots: [Slot]
    /// The strings in insertion order (compared on a hash match).
    private var strings: [String] = []
    /// Per slot, the position of its string in `strings`.
    private var index: [Int32]
    private var mask: Int
    private var count = 0
    private let seed: UInt64

    private static let processSeed = UInt64.random(in: .min ... .max)

    /// Strings stored so far (their positions are `0..<storedCount`).
    var storedCount: Int { strings.count }

    /// The string stored at `position`.
    subscript(position: Int) -> String { strings[position] }

    init() {
        let size = 256
        slots = [Slot](repeating: Slot(hash: 0, uid: -1), count: size)
        index = [Int32](repeating: 0, count: size)
        mask = size - 1
        seed = Self.processSeed
    }

    /// The UID of `string`, or the UID `make()` gives it when it is new.
    mutating func uid(for string: String, orInsert make: () -> Int32) -> Int32 {
        var key = string
        return key.withUTF8 { bytes in
            let h = ByteHash.hash(bytes, seed: seed)
            var slot = Int(truncatingIfNeeded: h) & mask
            // At most half full, so the probe meets an empty slot.
            while slots[slot].uid >= 0 {
                if slots[slot].hash == h, Self.sameBytes(strings[Int(index[slot])], bytes) { return slots[slot].uid }
                slot = (slot &+ 1) & mask
            }
            let uid = make()
            if (count + 1) * 2 > slots.count {
                grow()
                slot = Int(truncatingIfNeeded: h) & mask
                while slots[slot].uid >= 0 { slot = (slot &+ 1) & mask }
            }
            slots[slot] = Slot(hash: h, uid: uid)
            index[slot] = Int32(truncatingIfNeeded: strings.count)
            strings.append(string)
            count += 1
            return uid
        }
    }

    /// Drops the lookup slots and keeps the strings (the table is done finding them).
    mutating func releaseLookup() {
        let size = 16
        slots = [Slot](repeating: Slot(hash: 0, uid: -1), count: size)
        index = [Int32](repeating: 0, count: size)
        mask = size - 1
        count = 0
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
        let oldSlots = slots, oldIndex = index
        let size = slots.count * 2
        slots = [Slot](repeating: Slot(hash: 0, uid: -1), count: size)
        index = [Int32](repeating: 0, count: size)
        mask = size - 1
        for old in oldSlots.indices where oldSlots[old].uid >= 0 {
            var slot = Int(truncatingIfNeeded: oldSlots[old].hash) & mask
            while slots[slot].uid >= 0 { slot = (slot &+ 1) & mask }
            slots[slot] = oldSlots[old]
            index[slot] = oldIndex[old]
        }
    }
}
