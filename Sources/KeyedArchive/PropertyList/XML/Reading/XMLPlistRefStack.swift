/// A stack of object references in storage of its own, grown by doubling and kept when
/// popped (no work per pop): the fast XML reader's keys and values of its open containers
/// (``XMLPlistFastReader``), and the child references ``BinaryPropertyListBuilder`` keeps
/// for its containers. A push is one comparison with the capacity and one store, where an
/// array's would also check that its buffer is not shared; the references of the innermost
/// container are read in place (``top(from:)``), not as a slice that retains the storage.
final class XMLPlistRefStack {
    // Unchecked exclusivity: only the reader or builder that owns the stack touches it, one
    // call at a time.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    init() {
        capacity = 64
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    @inline(__always) func push(_ ref: Int) {
        if count >= capacity { grow() }
        base[count] = ref  // 0 <= count < capacity
        count &+= 1
    }

    private func grow() {
        let larger = capacity &* 2
        let storage = UnsafeMutablePointer<Int>.allocate(capacity: larger)
        storage.moveInitialize(from: base, count: count)
        base.deallocate()
        base = storage
        capacity = larger
    }

    /// Pushes every reference of `refs`, in order: one capacity check, then plain stores
    /// (a few references each time: no call to copy them).
    @inline(__always) func push(contentsOf refs: UnsafeBufferPointer<Int>) {
        let n = refs.count
        while capacity &- count < n { grow() }
        var k = 0
        while k < n {
            base[count &+ k] = refs[k]  // count + k < count + n <= capacity; k < refs.count
            k &+= 1
        }
        count &+= n
    }

    /// Room for `total` references without growing.
    func reserveCapacity(_ total: Int) {
        while capacity < total { grow() }
    }

    /// The references from `start` (clamped to `0...count`) to the top, in place: valid
    /// until the next push.
    @inline(__always) func top(from start: Int) -> UnsafeBufferPointer<Int> {
        let lower = Swift.min(Swift.max(start, 0), count)
        return UnsafeBufferPointer(start: base + lower, count: count &- lower)
    }

    /// Pops every reference from `start` (clamped to `0...count`) up.
    @inline(__always) func pop(from start: Int) {
        count = Swift.min(Swift.max(start, 0), count)
    }
}

/// Proves, as the fast XML reader closes each dictionary, that no dictionary of the document
/// lists a key twice: then the converted property list needs no check for repeated keys
/// (``BinaryPropertyList/hasNoDuplicateKeys()``, a pass over every dictionary of it).
///
/// The reader gives each distinct key text one object (``XMLPlistStringRefs``, by its exact
/// bytes, as the exact check of ``BinaryPropertyList/resolvingDuplicateKeys(keepingFirst:_:)``
/// compares them), so two keys of one dictionary have the same text exactly when they have the
/// same reference: the check is on references, one bit per object, set for each key of the
/// dictionary and cleared after it (linear in the keys, whatever the dictionary's size). A
/// repeated key is no error here: it only leaves ``provedDistinct`` false, and the converted
/// property list then takes the usual check, which keeps the key's last occurrence.
struct XMLPlistKeyRepeatCheck {
    /// One bit per object (`objectCount` bits at least, grown by doubling); all clear
    /// between dictionaries.
    private var marks: [UInt64] = []
    /// Whether every dictionary checked so far lists each key once.
    private(set) var provedDistinct = true

    /// Checks the keys of one dictionary (references below `objectCount`).
    @inline(__always)
    mutating func check(_ keys: UnsafeBufferPointer<Int>, objectCount: Int) {
        guard provedDistinct, keys.count > 1 else { return }
        let words = (objectCount &+ 63) >> 6
        if marks.count < words {
            marks.append(contentsOf: repeatElement(0, count: Swift.max(words, marks.count &* 2) &- marks.count))
        }
        var distinct = true
        marks.withUnsafeMutableBufferPointer { marks in
            var marked = keys.startIndex
            for ref in keys {
                let word = ref >> 6, bit: UInt64 = 1 << UInt64(ref & 63)
                // Checked here: the buffer's subscript is not, in release builds.
                guard ref >= 0, word < marks.count, marks[word] & bit == 0 else {
                    distinct = false
                    break
                }
                marks[word] |= bit
                marked += 1
            }
            // Clear what this dictionary set (its first keys up to `marked`, all in range).
            for ref in keys[keys.startIndex..<marked] { marks[ref >> 6] = 0 }
        }
        if !distinct { provedDistinct = false }
    }
}
