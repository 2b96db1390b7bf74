import Foundation

/// The short strings the decoder's fast path read again, by UID: a string object that many
/// places refer to (a vocabulary word, a tag, a postal code: writers store each distinct
/// string once) is made again once and then copied, which for a `String` is a retain,
/// instead of being made again at each reference.
///
/// Only strings referenced again are remembered. Writers number objects as they first meet
/// them and a decoder visits them in about that order, so a string object at a UID beyond
/// every string object read so far (the *frontier*) is read for the first time: it is made
/// and neither looked up nor remembered, which keeps the strings read once (a customer's
/// name, a dictionary's distinct keys) from taking the entries of strings read again. A
/// string behind the frontier is looked up, and made and remembered if it is not there.
/// Reading order only decides what is remembered, never what is read.
///
/// A fixed number of entries, placed by UID (a newer string takes an older one's entry):
/// ``initialEntries`` at first, doubled while more strings are remembered than there are
/// entries, at most ``maxEntries`` and no more entries than the archive has objects,
/// whatever the input; each string fewer than ``SharedLeafValues/sharedLength`` characters.
/// One memo per decode (it lives in ``ArchiveDecodingState``). It changes what is made,
/// never what is charged: the fast path charges a string found here exactly as one it
/// makes (see `fastString(_:)`), so a string referenced a million times still costs a
/// million times its length.
struct ShortStringMemo {
    /// The entries made at the first string remembered (24 bytes each).
    static let initialEntries = 4_096
    /// The most entries, whatever the archive's size (3 MB).
    static let maxEntries = 1 << 17

    private struct Entry {
        /// The UID the string was read from (> 0: UID 0 is nil, never a string); -1 when empty.
        var uid = -1
        var string = ""
    }

    /// Made at the first string remembered; a power of two in count.
    private var entries: [Entry] = []
    /// The highest UID of a string object read so far.
    private var frontier = 0
    /// Strings remembered since the entries were last made.
    private var remembered = 0

    /// How many entries the memo has made (0 before the first string remembered).
    var entryCount: Int { entries.count }

    /// Whether object `uid` is at or behind the frontier (a string read again, to look up
    /// and remember); moves the frontier to `uid` if it is beyond.
    @inline(__always)
    mutating func isBehindFrontier(_ uid: Int) -> Bool {
        if uid > frontier {
            frontier = uid
            return false
        }
        return true
    }

    /// The string remembered for `uid`, if any.
    @inline(__always)
    func string(uid: Int) -> String? {
        let index = uid & (entries.count &- 1)
        guard index < entries.count, entries[index].uid == uid else { return nil }
        return entries[index].string
    }

    /// Remembers `string`, read from object `uid` (> 0) of an archive of `objectCount`
    /// objects, in place of the string its entry held.
    @inline(__always)
    mutating func remember(_ string: String, uid: Int, objectCount: Int) {
        remembered &+= 1
        if remembered > entries.count { grow(objectCount: objectCount) }
        let index = uid & (entries.count &- 1)
        guard index < entries.count else { return }
        entries[index] = Entry(uid: uid, string: string)
    }

    /// Makes the entries (``initialEntries``), or doubles them keeping what they hold, up to
    /// ``maxEntries`` and the power of two at or above `objectCount`. Each doubling follows
    /// more remembered strings than the entries it replaces, so making entries costs at most
    /// a constant per string remembered.
    @inline(never)
    private mutating func grow(objectCount: Int) {
        remembered = 0
        var limit = 1
        while limit < objectCount, limit < Self.maxEntries { limit <<= 1 }
        let count = entries.isEmpty ? min(Self.initialEntries, limit) : entries.count * 2
        guard count <= limit, count > entries.count else { return }
        var grown = [Entry](repeating: Entry(), count: count)
        for entry in entries where entry.uid >= 0 {
            grown[entry.uid & (count - 1)] = entry
        }
        entries = grown
    }
}
