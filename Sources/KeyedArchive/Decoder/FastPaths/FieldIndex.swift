import Foundation

extension _ArchiveDecoder {
    /// Objects with at most this many keys are searched by scanning; larger ones are
    /// indexed once per decode.
    static let scanLimit = 16

    /// The position of `name` among an object's keys (plain string keys, compared in place).
    ///
    /// O(1) per lookup: a small object is scanned (at most ``scanLimit`` comparisons); a
    /// large one is indexed once, the index charged to the work budget, and reused for every
    /// later lookup in the same object, however many places share it. The names asked for
    /// here are the Foundation layouts' (`NS.time`, `NS.objects`…): the key strings they
    /// matched are remembered by reference, as for a CodingKey type's.
    func fieldIndex(of name: String, keys: BinaryPropertyList.RefList) throws -> Int? {
        guard keys.count <= Self.scanLimit else { return try largeFieldIndex(keys)[name] }
        return try smallKeyPosition(keys, name, cache: state.namedKeyRefs, from: 0)
    }

    /// The position of `$class` among an object's keys (see ``fieldIndex(of:keys:)``), with
    /// a cache of its own: every object asks for it, so its reference is always at the cursor.
    func classFieldIndex(keys: BinaryPropertyList.RefList) throws -> Int? {
        guard keys.count <= Self.scanLimit else { return try largeFieldIndex(keys)["$class"] }
        return try smallKeyPosition(keys, "$class", cache: state.classKeyRefs, from: 0)
    }

    /// The position of the key string `name` in a small object's `keys`, scanning from
    /// `start` and wrapping around: first for the reference `cache` remembers for `name`
    /// (writers store each key string once, so this compares integers, not bytes), then
    /// byte by byte, remembering the reference matched.
    @inline(__always)
    func smallKeyPosition(_ keys: BinaryPropertyList.RefList, _ name: String, cache: KeyRefCache, from start: Int) throws -> Int? {
        let count = keys.count
        if let expected = cache.ref(for: name) {
            var index = start
            for _ in 0..<count {
                if try plist.ref(keys, index) == expected { return index }
                index = index + 1 == count ? 0 : index + 1
            }
        }
        guard let index = try scanKeys(keys, for: name, from: start) else { return nil }
        cache.record(name, ref: try plist.ref(keys, index))
        return index
    }

    /// The position of the key string `name` in a small object's `keys`, comparing bytes,
    /// starting at `start` and wrapping around.
    func scanKeys(_ keys: BinaryPropertyList.RefList, for name: String, from start: Int) throws -> Int? {
        let count = keys.count
        var name = name
        return try name.withUTF8 { utf8 in
            var index = start
            for _ in 0..<count {
                if try plist.stringEquals(try plist.ref(keys, index), utf8: utf8) { return index }
                index = index + 1 == count ? 0 : index + 1
            }
            return nil
        }
    }

    /// The key-reference cache of a CodingKey type, its cursor at the first field: from the
    /// few types opened lately (one compare), else from the decode's table of them all.
    @inline(__always)
    func keyRefCache(for type: Any.Type) -> KeyRefCache {
        keyRefCacheUnretained(for: type).takeUnretainedValue()
    }

    /// ``keyRefCache(for:)`` without a retain: the decode's table of caches keeps every one
    /// alive until the decode ends (use it with `_withUnsafeGuaranteedRef`).
    @inline(__always)
    func keyRefCacheUnretained(for type: Any.Type) -> Unmanaged<KeyRefCache> {
        let address = UInt(bitPattern: ObjectIdentifier(type))
        let cache = state.recentKeyRefCaches.unretainedCache(for: address) ?? .passUnretained(keyRefCacheMissed(type, address: address))
        cache._withUnsafeGuaranteedRef { $0.cursor = 0 }
        return cache
    }

    /// ``keyRefCache(for:)`` for a type not among the recent ones: found in (or added to)
    /// the table of every type met, and made recent.
    @inline(never)
    private func keyRefCacheMissed(_ type: Any.Type, address: UInt) -> KeyRefCache {
        let cache: KeyRefCache
        if let index = state.keyRefCacheIndex.ref(for: UInt64(address)) {
            cache = state.keyRefCaches[index]
        } else {
            cache = KeyRefCache(convertsKeys: state.options.convertsKeys && type != ArchiveCodingKey.self)
            state.keyRefCacheIndex.insert(UInt64(address), state.keyRefCaches.count)
            state.keyRefCaches.append(cache)
        }
        state.recentKeyRefCaches.remember(cache, for: address)
        return cache
    }

    /// The index of a large object's keys: stored key → position (the first of duplicates).
    func largeFieldIndex(_ keys: BinaryPropertyList.RefList) throws -> [String: Int] {
        if let index = state.fieldIndexes[keys.start] { return index }
        try charge(keys.count)
        var index: [String: Int] = [:]
        index.reserveCapacity(keys.count)
        for i in 0..<keys.count {
            guard let key = try keyString(at: try plist.ref(keys, i)) else { continue }
            if index[key] == nil { index[key] = i }
        }
        state.fieldIndexes[keys.start] = index
        return index
    }

    /// Charges `units` of work to the decode's budget; throws when it is spent.
    @inline(__always)
    func charge(_ units: Int) throws {
        state.remainingObjects -= units
        if state.remainingObjects < 0, !state.budget.nextTranche() { throw budgetExhausted() }
    }

    /// Charges the making of `bytes` bytes (see ``ArchiveWorkBudget/chargeMade(bytes:)``).
    func chargeMade(bytes: Int) throws {
        if !state.budget.chargeMade(bytes: bytes) { throw budgetExhausted() }
    }

    @inline(never)
    func budgetExhausted() -> KeyedArchiveError {
        KeyedArchiveError("the archive expands to more work than the decoder's limit (ArchiveDecoder.Limits.maxObjectVisits: shared objects referenced from too many places, or too many keys)")
    }
}

/// The plist references of the key strings one CodingKey type has matched, in the order
/// they were asked for, and where each sat among the keys of the object it was found in.
/// Writers store each key string once, so the next object of the same type almost always
/// holds the same references at the same positions: finding a field is then reading one
/// reference and comparing it, not scanning (``knownPosition(of:keys:bytes:refSize:)``).
/// Only ever a hint: a reference not among an object's keys falls back to comparing
/// bytes, so archives whose key strings are not shared read the same.
final class KeyRefCache {
    /// Keys remembered per type, at most (dynamic keys stop being remembered).
    static let limit = 32
    /// What is remembered for one key name: the key string's reference, and its position
    /// among the keys of the object it was last found in by that name as the user's key
    /// (-1 when not known: a name only ever looked up in its escaped form, or by another path).
    struct Spot {
        var ref: Int
        var position: Int
        /// The bits of the key (a ``PlainCodingKey``) last found here by its user name, so
        /// that the next lookup of that key compares bits, not names (nil when not known).
        var keyBits: UInt64? = nil
    }
    @exclusivity(unchecked) private var names: [String] = []
    @exclusivity(unchecked) private var spots: [Spot] = []
    /// Where the next key is expected.
    @exclusivity(unchecked) var cursor = 0
    /// The last `KeyedDecodingContainer` handed out for this Key type at each nesting depth,
    /// to hand out again once nobody holds it (see `KeyedContainerReuse.swift`).
    @exclusivity(unchecked) var spares: [SpareContainer<ArchiveKeyedContainerCore>] = []
    /// The last objects of this Key type opened in full (see `KeyedObjectMemo.swift`).
    @exclusivity(unchecked) var opened = KeyedObjectMemo()
    /// Whether this Key type's keys are converted (a key decoding strategy other than
    /// `.useDefaultKeys`, and a Key type other than the decoder's own): decided once per
    /// decode, not per lookup. Such keys never have positions remembered.
    let convertsKeys: Bool

    init(convertsKeys: Bool = false) {
        self.convertsKeys = convertsKeys
    }

    /// The reference last matched for `name`, if any (looked for at the cursor first).
    @inline(__always)
    func ref(for name: String) -> Int? {
        let position = cursor
        if position < names.count, names[position] == name {
            cursor = position + 1
            return spots[position].ref
        }
        return refMissed(name)
    }

    @inline(never)
    private func refMissed(_ name: String) -> Int? {
        for index in names.indices where names[index] == name {
            cursor = index + 1
            return spots[index].ref
        }
        return nil
    }

    /// The position of the user key `name` among an object's `keys` (its fields), when the
    /// key expected at the cursor is `name` and the key reference it matched last is at the
    /// position it had then; -1 otherwise (the caller then searches). The position is read
    /// from the object's own keys, so a stale hint is never believed: `keys` lies in range
    /// (checked when the object was read), and a reference equal to one matched before is
    /// the same key string, which appears once among an object's keys (repeated keys are
    /// resolved when the property list is read).
    @inline(__always)
    func knownPosition(of name: String, keys: BinaryPropertyList.RefList, bytes: PropertyListBytes, refSize: Int) -> Int {
        let index = cursor
        guard index < names.count, index < spots.count, names[index] == name else { return -1 }
        return position(at: index, keys: keys, bytes: bytes, refSize: refSize)
    }

    /// ``knownPosition(of:keys:bytes:refSize:)`` for a key of plain bits (a
    /// ``PlainCodingKey``), told by its bits: no `stringValue` is asked for and no name is
    /// compared. Bits equal to those of a key found before are that same key (a value of
    /// plain bits is its bits), whose user name is the name found then.
    @inline(__always)
    func knownPosition(bits: UInt64, keys: BinaryPropertyList.RefList, bytes: PropertyListBytes, refSize: Int) -> Int {
        let index = cursor
        guard index < spots.count, spots[index].keyBits == bits else { return -1 }
        return position(at: index, keys: keys, bytes: bytes, refSize: refSize)
    }

    /// The position remembered at `index` when the object's own keys hold the remembered
    /// key string there (-1 otherwise), the cursor then moved past it.
    @inline(__always)
    private func position(at index: Int, keys: BinaryPropertyList.RefList, bytes: PropertyListBytes, refSize: Int) -> Int {
        let spot = spots[index]
        guard spot.position >= 0, spot.position < keys.count,
              BinaryPropertyList.refBits(keys, spot.position, in: bytes, refSize: refSize) == UInt64(truncatingIfNeeded: spot.ref)
        else { return -1 }
        cursor = index &+ 1
        return spot.position
    }

    /// Remembers that `name` matched the key string at plist reference `ref`, at
    /// `position` among the object's keys when it is the user's key as it is (see
    /// ``knownPosition(of:keys:bytes:refSize:)``; -1 otherwise), with the bits of that
    /// user key when it is a ``PlainCodingKey`` (see ``knownPosition(bits:keys:bytes:refSize:)``).
    func record(_ name: String, ref: Int, position: Int = -1, keyBits: UInt64? = nil) {
        let spot = Spot(ref: ref, position: position, keyBits: keyBits)
        let last = cursor &- 1
        if last >= 0, last < names.count, names[last] == name {
            spots[last] = spot
            return
        }
        for index in names.indices where names[index] == name {
            spots[index] = spot
            cursor = index + 1
            return
        }
        guard names.count < Self.limit else { return }
        names.append(name)
        spots.append(spot)
        cursor = names.count
    }
}

/// The key-reference caches of the CodingKey types opened lately, found with one or two
/// compares: a type's slot is chosen by its metatype's address, or the slot after it when
/// that one holds another type. A hint only: a type in neither slot is looked up in the
/// decode's table, then takes a slot. Per decode, as the caches it holds. The slots are
/// plain memory rather than an array, which reading would retain and release, and hold the
/// caches unretained: the decode's table (`ArchiveDecodingState.keyRefCaches`) keeps them.
final class RecentKeyRefCaches {
    private struct Entry {
        var address: UInt = 0
        var cache: Unmanaged<KeyRefCache>?
    }
    static let slotBits = 6
    static let mask = (1 << slotBits) - 1
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.mask + 1)
        entries.initialize(repeating: Entry(), count: Self.mask + 1)
    }

    deinit {
        entries.deinitialize(count: Self.mask + 1)
        entries.deallocate()
    }

    /// The slot of a metatype address, always in `0...mask`: its bits above the 16-byte
    /// alignment, folded once. The metadata of a module's types lie close together, so the
    /// low bits tell them apart (the top bits of a multiplicative hash put three types a
    /// few hundred bytes apart in one slot).
    @inline(__always)
    static func slot(of address: UInt) -> Int {
        Int(truncatingIfNeeded: (address >> 4 ^ address >> 10) & UInt(mask))
    }

    /// The cache of the type at `address`, when it is one of the recent ones.
    func cache(for address: UInt) -> KeyRefCache? {
        unretainedCache(for: address)?.takeUnretainedValue()
    }

    /// ``cache(for:)`` without a retain (its owner keeps it: see above).
    @inline(__always)
    func unretainedCache(for address: UInt) -> Unmanaged<KeyRefCache>? {
        let slot = Self.slot(of: address)
        if entries[slot].address == address { return entries[slot].cache }
        let next = (slot &+ 1) & Self.mask
        return entries[next].address == address ? entries[next].cache : nil
    }

    /// Makes `cache` (the type at `address`'s) recent: in its slot when that is free, else
    /// in the next one when that is, else in place of its slot's type.
    func remember(_ cache: KeyRefCache, for address: UInt) {
        let slot = Self.slot(of: address), next = (slot &+ 1) & Self.mask
        let chosen = entries[slot].cache == nil || entries[next].cache != nil ? slot : next
        entries[chosen] = Entry(address: address, cache: .passUnretained(cache))
    }
}
