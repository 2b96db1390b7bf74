/// The UIDs that the binary writer's first pass met more than once, and the references it
/// gave them: what its second pass needs of `uidRefs` (a word per table entry, read at
/// random by UID), in a bit per entry and a word per shared UID.
///
/// The second pass walks the table as the first did, so a UID met once there is met once
/// here, and first: its object is written where it is met, as the object numbered next.
/// Only a UID met again needs the reference the first pass gave it. On a large table (a
/// word per entry is 20 MB at 256,000 orders) `uidRefs` is freed before the file is
/// allocated and the second pass reads this instead (a tenth of the size or less on records
/// whose entries are mostly referenced once), which stays in the caches.
struct SharedUIDRefs {
    /// 32 UIDs' bits (set: met more than once) and how many bits are set in the words before.
    struct Word {
        var bits: UInt32 = 0
        var before: UInt32 = 0
    }

    /// Empty when not kept (a small table, see `ArchiveBinaryWriter.sharedUIDsFrom`).
    private var words: [Word] = []
    /// The shared UIDs' references, in UID order.
    private var refs: [UInt32] = []

    init() {}

    /// Room for the UIDs `0..<count`, none shared.
    init(count: Int) {
        words = [Word](repeating: Word(), count: (count + 31) >> 5)
    }

    /// Whether UIDs are being marked (the table is large enough).
    var isKept: Bool { !words.isEmpty }

    /// UIDs below this have a bit (0 when not kept).
    var count: Int { words.count << 5 }

    /// First pass: `uid` was met again (nothing when not kept).
    @inline(__always)
    mutating func markShared(_ uid: Int) {
        let index = uid >> 5
        guard index >= 0, index < words.count else { return }
        words[index].bits |= 1 << UInt32(truncatingIfNeeded: uid & 31)
    }

    /// After the first pass: counts the shared UIDs before each word and keeps their
    /// references from `uidRefs` (every shared UID was numbered there).
    mutating func keepRefs(from uidRefs: [UInt32]) {
        var shared = 0
        for index in words.indices {
            words[index].before = UInt32(truncatingIfNeeded: shared)
            var bits = words[index].bits
            shared += bits.nonzeroBitCount
            while bits != 0 {
                refs.append(uidRefs[index << 5 | bits.trailingZeroBitCount])
                bits &= bits &- 1
            }
        }
    }

    /// Second pass: the reference of `uid`, or `next` when the first pass met it once.
    @inline(__always)
    func ref(_ uid: Int, orNext next: Int) -> Int {
        let word = words[uid >> 5]
        let bit = UInt32(1) << UInt32(truncatingIfNeeded: uid & 31)
        guard word.bits & bit != 0 else { return next }
        return Int(refs[Int(word.before) &+ (word.bits & (bit &- 1)).nonzeroBitCount])
    }
}
