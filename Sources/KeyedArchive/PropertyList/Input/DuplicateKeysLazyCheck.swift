import Foundation

/// The duplicate-key check done as the decoder reads, for binary property lists: instead
/// of proving up front that no dictionary of the file repeats a key (a pass over every
/// object, ``BinaryPropertyList/hasNoDuplicateKeys()``), each dictionary is checked the
/// first time ``BinaryPropertyList/object(_:)`` parses it, so the decoder pays only for
/// the dictionaries it reads, while it reads them.
///
/// It decides nothing about which entry wins: like the quick check it only proves "no
/// repeat here", conservatively (key references distinct within the dictionary, and no
/// two key objects read so far with the same text). When it cannot prove that, it marks
/// itself ``suspected`` and makes `object(_:)` throw; ``PropertyListInput`` then reads the
/// file again through ``BinaryPropertyList/resolvingDuplicateKeys(keepingFirst:_:)``, the
/// one place that applies CoreFoundation's rule. Its work is bounded like the quick
/// check's (16 reads per byte of the file plus 65,536); past that it is suspected too.
///
/// `@unchecked Sendable`: only the one read that made it uses it (it is reached through
/// that read's ``BinaryPropertyList``, which never leaves the read).
final class DuplicateKeyLazyCheck: @unchecked Sendable {
    /// Whether some dictionary may repeat a key (or the check ran out of work): the file
    /// must be read again with duplicate keys resolved.
    @exclusivity(unchecked) private(set) var suspected = false
    /// Dictionaries already checked, by object number (one bit each).
    @exclusivity(unchecked) private var checked: [UInt64]
    /// Objects already met as keys, by object number (one bit each), and their texts.
    @exclusivity(unchecked) private var isKey: [UInt64]
    @exclusivity(unchecked) private var keyTexts = Set<String>()
    /// The keys of the dictionary being checked.
    @exclusivity(unchecked) private var marks: KeyReferenceMarks
    @exclusivity(unchecked) private var budget: Int
    /// The key lists of the last few dictionaries proved (where they start, and how many
    /// keys): objects of one class almost always list the same key objects in the same
    /// order, so a dictionary whose key references are the same bytes is proved already.
    @exclusivity(unchecked) private var recentStarts = [Int](repeating: -1, count: 8)
    @exclusivity(unchecked) private var recentCounts = [Int](repeating: 0, count: 8)
    @exclusivity(unchecked) private var nextRecent = 0

    init(objectCount: Int, byteCount: Int) {
        let words = (objectCount &+ 63) / 64
        checked = [UInt64](repeating: 0, count: words)
        isKey = [UInt64](repeating: 0, count: words)
        marks = KeyReferenceMarks(objectCount: objectCount)
        budget = KeyReferenceMarks.budget(byteCount: byteCount)
    }

    /// Checks dictionary `ref` (its `keys`) unless done before; throws when a repeated key
    /// cannot be ruled out.
    @inline(__always)
    func check(_ ref: Int, keys: BinaryPropertyList.RefList, in plist: BinaryPropertyList) throws {
        guard keys.count > 1 else { return }
        // `ref` is in range: `object(_:)` read its offset.
        let word = ref >> 6, bit: UInt64 = 1 << UInt64(ref & 63)
        if word < checked.count, checked[word] & bit != 0 { return }
        try checkFirstTime(ref, keys: keys, in: plist)
    }

    @inline(never)
    private func checkFirstTime(_ ref: Int, keys: BinaryPropertyList.RefList, in plist: BinaryPropertyList) throws {
        guard !suspected, ref >= 0, ref >> 6 < checked.count, sameAsRecent(keys, in: plist) || proveDistinct(keys, in: plist) else {
            suspected = true
            throw PropertyListError("object \(ref): a dictionary may repeat a key; the property list is read again with repeated keys resolved")
        }
        checked[ref >> 6] |= 1 << UInt64(ref & 63)
    }

    /// Whether `keys` are byte for byte the key references of a dictionary proved before.
    private func sameAsRecent(_ keys: BinaryPropertyList.RefList, in plist: BinaryPropertyList) -> Bool {
        let length = keys.count * plist.refSize
        let current = plist.bytes[keys.start..<(keys.start + length)]
        guard current.count == length, let base = current.baseAddress else { return false }
        for slot in 0..<recentStarts.count where recentCounts[slot] == keys.count {
            if recentStarts[slot] == keys.start { return true }
            // Comparing is work like reading the keys (bounded by the same budget).
            budget -= keys.count
            if budget < 0 { return false }
            let other = plist.bytes[recentStarts[slot]..<(recentStarts[slot] + length)]
            if other.count == length, let otherBase = other.baseAddress, memcmp(base, otherBase, length) == 0 { return true }
        }
        return false
    }

    /// Remembers a proved dictionary's key list for ``sameAsRecent(_:in:)``.
    private func remember(_ keys: BinaryPropertyList.RefList) {
        recentStarts[nextRecent] = keys.start
        recentCounts[nextRecent] = keys.count
        nextRecent = (nextRecent + 1) % recentStarts.count
    }

    /// Whether `keys` certainly holds no key twice (see the type's description).
    private func proveDistinct(_ keys: BinaryPropertyList.RefList, in plist: BinaryPropertyList) -> Bool {
        budget -= keys.count
        if budget < 0 { return false }
        let distinct = marks.allDistinct(keys, in: plist) { noteKey($0, in: plist) }
        if distinct { remember(keys) }
        return distinct
    }

    /// Records object `ref` as a key: false when it is not a readable string, or another
    /// key object met before has the same text (`String` equality is looser than the exact
    /// check's scalar-by-scalar comparison: a false alarm only means reading the file again).
    @inline(__always)
    private func noteKey(_ ref: Int, in plist: BinaryPropertyList) -> Bool {
        let word = ref >> 6, bit: UInt64 = 1 << UInt64(ref & 63)
        if isKey[word] & bit != 0 { return true }
        isKey[word] |= bit
        // Strings only (0x5n, 0x6n): reading any other object here could start another check.
        guard let start = plist.checkedOffset(of: ref), (0x5...0x6).contains(plist.bytes[start] >> 4),
              let text = (try? plist.string(ref)) ?? nil else { return false }
        budget -= text.utf8.count
        return budget >= 0 && keyTexts.insert(text).inserted
    }
}
