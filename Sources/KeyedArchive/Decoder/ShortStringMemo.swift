import Foundation

/// The short strings the decoder's fast path made lately, by UID: a string object that
/// many places refer to (a vocabulary word, a tag, an author's name: writers store each
/// distinct string once) is made once and then copied, which for a `String` is a retain,
/// instead of being made again at each reference.
///
/// A fixed number of entries, placed by UID (a newer string takes an older one's entry):
/// at most ``maxEntries`` strings of fewer than ``SharedLeafValues/sharedLength``
/// characters each, and no more entries than the archive has objects, whatever the input.
/// One memo per decode (it lives in ``ArchiveDecodingState``). It changes what is made,
/// never what is charged: the fast path charges a string found here exactly as one it
/// makes (see `fastString(_:)`), so a string referenced a million times still costs a
/// million times its length.
struct ShortStringMemo {
    /// The most entries, whatever the archive's size (24 bytes each).
    static let maxEntries = 4_096

    private struct Entry {
        /// The UID the string was read from (> 0: UID 0 is nil, never a string); -1 when empty.
        var uid = -1
        var string = ""
    }

    /// Made at the first string remembered; a power of two in count.
    private var entries: [Entry] = []

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
        if entries.isEmpty { entries = Self.entries(objectCount: objectCount) }
        let index = uid & (entries.count &- 1)
        guard index < entries.count else { return }
        entries[index] = Entry(uid: uid, string: string)
    }

    /// Empty entries for an archive of `objectCount` objects: the power of two at or above
    /// it, at most ``maxEntries``.
    @inline(never)
    private static func entries(objectCount: Int) -> [Entry] {
        var count = 1
        while count < objectCount, count < maxEntries { count <<= 1 }
        return [Entry](repeating: Entry(), count: count)
    }
}
