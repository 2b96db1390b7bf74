import Foundation

// Opening an archived object as a keyed container, again for the next object of the same
// Key type. Opening one in full parses its dictionary, checks its keys for repeats (the
// lazy check, `DuplicateKeyLazyCheck`), finds its `$class` among its keys and looks the
// class entry up: about a thousand instructions per struct. Objects of one Key type almost
// always list the very same key strings in the same order, so their key references are the
// same bytes, and their `$class` is the same UID object.
//
// So each Key type remembers the last few objects it opened in full (``KeyedObjectMemo``):
// where their key references lie, where `$class` is among them and which object it refers
// to. An object whose key references are byte for byte one of those, and whose `$class`
// entry refers to the same object, gets the same verdicts without working them out again:
// - no repeated key: the same references are the same key strings, proved distinct when
//   that object was parsed (as the lazy check itself treats a key list it proved before);
// - the same position of `$class`, so the same class entry, so the same layout (only
//   objects read as their fields are remembered).
// Anything else (a different key list, another class, a damaged object, an NSDictionary,
// an object with fewer than two or more than 14 keys) goes the full way, which throws the
// errors it always threw. Every read here is range-checked, and a match is bounded work:
// at most four comparisons of at most 14 references.

/// The last few objects one Key type opened in full as their fields (see above). Plain
/// stored integers, no array: it is read on every object.
struct KeyedObjectMemo {
    /// One object opened in full: its key references (where they start, how many), the
    /// position of `$class` among them and the plist reference its value holds.
    struct Entry {
        var keysStart = -1
        var count = 0
        var classPosition = 0
        var classRef = -1
    }

    /// At most this many keys: the marker holds the count (`0xDn`, n < 15), and the
    /// comparison stays short.
    static let maxKeys = 14

    /// The variants of one type (an optional field present or not) alternate: four kept.
    var first = Entry(), second = Entry(), third = Entry(), fourth = Entry()
    private var next = 0

    /// Remembers an object opened in full as its fields, in place of the oldest one.
    mutating func record(_ entry: Entry) {
        switch next {
        case 0: first = entry
        case 1: second = entry
        case 2: third = entry
        default: fourth = entry
        }
        next = next == 3 ? 0 : next + 1
    }

    /// Whether the object whose `count` keys start at `keys` (its values right after them)
    /// is laid out as `entry`: the same key references, byte for byte, and the same
    /// reference in its `$class` entry. Range-checked reads only.
    @inline(__always)
    static func matches(_ entry: Entry, keys: Int, count: Int, bytes: PropertyListBytes, refSize: Int) -> Bool {
        guard entry.count == count else { return false }
        let length = count &* refSize
        if entry.keysStart != keys {
            let current = bytes[keys..<(keys + length)], remembered = bytes[entry.keysStart..<(entry.keysStart + length)]
            guard current.count == length, remembered.count == length, let p = current.baseAddress, let q = remembered.baseAddress,
                  memcmp(p, q, length) == 0 else { return false }
        }
        // A reference equal to one read (and range-checked) before needs no range check.
        let values = BinaryPropertyList.RefList(start: keys &+ length, count: count)
        let classRef = BinaryPropertyList.refBits(values, entry.classPosition, in: bytes, refSize: refSize)
        return classRef == UInt64(entry.classRef)
    }
}

extension _ArchiveDecoder {
    /// Object `uid`'s keys and values when `memo` says it is laid out like an object of the
    /// same Key type opened before (see above); nil when it is not, or cannot be read here.
    @inline(__always)
    func memoizedFields(_ uid: Int, memo: KeyRefCache) -> (keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList)? {
        let bytes = plist.bytes, refSize = plist.refSize
        // `$objects[uid]`'s reference without `objectRef(_:)`'s error: `checkedOffset(of:)`
        // range-checks the reference (a value beyond `Int.max` truncates to a negative one,
        // which it refuses).
        guard uid > 0, uid < objects.count else { return nil }
        let ref = Int(truncatingIfNeeded: BinaryPropertyList.refBits(objects, uid, in: bytes, refSize: refSize))
        guard let offset = plist.checkedOffset(of: ref) else { return nil }
        let marker = bytes[offset]
        let count = Int(marker & 0x0F)
        guard marker >> 4 == 0xD, count >= 2, count <= KeyedObjectMemo.maxKeys else { return nil }
        let keys = offset + 1
        // As `BinaryPropertyList.object(_:)` checks it: both lists lie before the offset table
        // (`keys` ≤ the table's start, and 2 × 14 × 8 cannot overflow; no division).
        guard 2 &* count &* refSize <= plist.offsetTableStart &- keys else { return nil }
        guard KeyedObjectMemo.matches(memo.opened.first, keys: keys, count: count, bytes: bytes, refSize: refSize)
                || KeyedObjectMemo.matches(memo.opened.second, keys: keys, count: count, bytes: bytes, refSize: refSize)
                || KeyedObjectMemo.matches(memo.opened.third, keys: keys, count: count, bytes: bytes, refSize: refSize)
                || KeyedObjectMemo.matches(memo.opened.fourth, keys: keys, count: count, bytes: bytes, refSize: refSize)
        else { return nil }
        return (BinaryPropertyList.RefList(start: keys, count: count), BinaryPropertyList.RefList(start: keys + count * refSize, count: count))
    }

    /// Remembers in `memo` an object that was opened in full as its fields.
    func rememberFields(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList, memo: KeyRefCache) {
        guard keys.count >= 2, keys.count <= KeyedObjectMemo.maxKeys,
              let position = try? classFieldIndex(keys: keys), let classRef = try? plist.ref(values, position) else { return }
        memo.opened.record(KeyedObjectMemo.Entry(keysStart: keys.start, count: keys.count, classPosition: position, classRef: classRef))
    }
}
