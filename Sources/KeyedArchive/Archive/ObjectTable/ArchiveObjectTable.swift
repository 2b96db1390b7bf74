import Foundation

/// The `$objects` table of an archive being written.
///
/// UIDs are indices into the table. Strings and numbers are stored once; class entries
/// once per class; field keys are interned so that the binary writer hashes each distinct
/// key once per archive rather than once per field. Each entry is a kind and a 64-bit
/// payload (the value itself, or where it is kept); objects keep their fields as compact
/// byte records (see ArchiveObjectTable+Records.swift), so the table stays smaller than
/// the file written from it (ArchiveBinaryWriter.swift, ArchiveObjectTable+XML.swift).
final class ArchiveObjectTable {
    /// What an entry of `$objects` is.
    enum EntryKind: UInt8 {
        /// UID 0, `$null`.
        case nullString
        /// Payload: index in `stringUIDs` and the string's layout (see ``StringEntryPayload``).
        case string
        /// Payload: the bits.
        case integer, unsignedInteger, real, float, bool
        /// Only for values outside `Int64.min...UInt64.max`. Payload: index in `wides`.
        case wideInteger
        /// Payload: offset of `[length][bytes]` in `arena`.
        case data
        /// Payload: index in `classEntries`.
        case classEntry
        /// Payload: offset of the record in `arena`, or `openFlag | level` while open.
        case fields, array, dictionary
    }

    /// One entry of `$objects`, decoded (for conversions that read the table back).
    enum Entry {
        case string(String)
        case integer(Int64)
        case unsignedInteger(UInt64)
        case wideInteger(PropertyListWideInteger)
        case real(Double)
        case float(Float)
        case bool(Bool)
        case data(Data)
        case object(ObjectBox)
        case classEntry(name: String, classes: [String])
    }

    @exclusivity(unchecked) private(set) var kinds = ChunkedArray<EntryKind>()
    @exclusivity(unchecked) var payloads = ChunkedArray<UInt64>()
    @exclusivity(unchecked) private(set) var wides: [PropertyListWideInteger] = []
    @exclusivity(unchecked) private(set) var classEntries: [(name: String, classes: [String])] = []
    /// Object records and data bytes.
    @exclusivity(unchecked) var arena = ChunkedBytes()
    /// Objects being filled (see ArchiveObjectTable+Records.swift); levels past
    /// `openDepth` are free, their buffers kept for the next object.
    @exclusivity(unchecked) var openObjects: [OpenObject] = []
    @exclusivity(unchecked) var openDepth = 0

    /// Strings by their exact bytes (see StringUIDTable), which also keeps them.
    @exclusivity(unchecked) private(set) var stringUIDs = StringUIDTable()
    // Numbers by bit pattern (see ScalarRefTable: much cheaper than `Hasher`).
    @exclusivity(unchecked) private var integerUIDs = ScalarRefTable()
    @exclusivity(unchecked) private var unsignedUIDs = ScalarRefTable()
    @exclusivity(unchecked) private var realUIDs = ScalarRefTable()
    @exclusivity(unchecked) private var floatUIDs = ScalarRefTable()
    /// Integers beyond 64 bits (rare): by value.
    @exclusivity(unchecked) private var wideUIDs: [PropertyListWideInteger: Int32] = [:]
    @exclusivity(unchecked) private var boolUIDs: (false: Int32, true: Int32) = (0, 0)
    @exclusivity(unchecked) private var classUIDsByName: [String: Int32] = [:]
    /// Class entries by Swift type (the metatype's address).
    @exclusivity(unchecked) private var classUIDsByType = ScalarRefTable()

    /// Interned field keys (already escaped) and their ids.
    @exclusivity(unchecked) private(set) var keys: [String] = []
    @exclusivity(unchecked) private var keyIDs: [String: Int32] = [:]

    /// The one NSNull object of this archive (0 until first needed).
    @exclusivity(unchecked) var nullUID: Int32 = 0
    /// `$top`, in the order the caller gave (keys escaped when written).
    @exclusivity(unchecked) var top: [(key: String, uid: Int32)] = []

    /// Class instances already written (identity), and those being written (cycles).
    @exclusivity(unchecked) var instanceUIDs: [ObjectIdentifier: Int32] = [:]
    @exclusivity(unchecked) var instancesInProgress: Set<ObjectIdentifier> = []
    /// `ArchivedRawValue`s already written, by the identity of their storage, kept with
    /// their UIDs (see `SharedStorageIdentity`): a shared archived object is written once.
    @exclusivity(unchecked) var rawValueUIDs: [SharedStorageIdentity: (value: ArchivedRawValue, uid: Int32)] = [:]
    /// Value types (by metatype address) that are neither special-cased nor classes: the
    /// encoder's memo of its dynamic checks.
    @exclusivity(unchecked) var plainValueTypes = ScalarRefTable()
    /// How many `Double` fields the objects hold (inline, not entries): the binary writer
    /// makes room for that many in its table of shared reals at once (see `ArchiveBinaryWriter`).
    @exclusivity(unchecked) var inlineRealCount = 0
    /// Classes (by metatype address) already seen: 1 for an ``ArchiveReferenceDecodable``
    /// class, 0 for any other (the encoder's memo of that dynamic check).
    @exclusivity(unchecked) var referenceClasses = ScalarRefTable()
    /// Keeps encoded instances alive so their `ObjectIdentifier`s stay unique.
    @exclusivity(unchecked) var retainedInstances: [AnyObject] = []

    init() {
        kinds.append(.nullString)  // UID 0, `$null`
        payloads.append(0)
    }

    // MARK: - Adding objects

    /// Number of entries (UIDs `0..<count`).
    var count: Int { kinds.count }

    @inline(__always)
    func appendEntry(_ kind: EntryKind, _ payload: UInt64) -> Int32 {
        kinds.append(kind)
        payloads.append(payload)
        return Int32(truncatingIfNeeded: kinds.count - 1)
    }

    func string(_ value: String) -> Int32 {
        stored(value, found: stringUIDs.find(value))
    }

    /// ``string(_:)`` for a string whose ``stringHash(of:)`` is `hash`: it is not hashed again.
    @inline(__always)
    func string(_ value: String, hash: UInt32) -> Int32 {
        stored(value, found: stringUIDs.find(value, hash: hash))
    }

    /// The hash ``string(_:hash:)`` takes, of a string's UTF-8 bytes.
    @inline(__always)
    func stringHash(of bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        stringUIDs.hash(of: bytes)
    }

    /// The UID `found` (a lookup of `value`) gives, or a new string entry for `value`.
    @inline(__always)
    private func stored(_ value: String, found: (uid: Int32?, place: StringUIDTable.Place)) -> Int32 {
        if let uid = found.uid { return uid }
        let uid = appendEntry(.string, StringEntryPayload.make(position: stringUIDs.storedCount, of: value))
        stringUIDs.insert(value, uid: uid, at: found.place)
        return uid
    }

    /// Makes room for `count` more strings (see ``StringUIDTable/reserve(_:)``).
    func reserveStrings(_ count: Int) {
        stringUIDs.reserve(count)
    }

    /// Asks for the slots of a batch of strings about to be stored with ``string(_:hash:)``
    /// (`hashes`: their ``stringHash(of:)``) so that their cache misses overlap with the work
    /// (see ``StringUIDTable/prefetchHome(hash:)``). Changes nothing that is stored.
    @inline(__always)
    func prepareStrings(hashes: some Sequence<UInt32>) {
        for hash in hashes { stringUIDs.prefetchHome(hash: hash) }
    }

    func integer(_ value: Int64) -> Int32 {
        let key = UInt64(bitPattern: value)
        // One probe: a new number is stored with the UID of the entry appended next.
        if let uid = integerUIDs.refOrInsert(key, Int(Int32(truncatingIfNeeded: count))) { return Int32(truncatingIfNeeded: uid) }
        return appendEntry(.integer, key)
    }

    func unsignedInteger(_ value: UInt64) -> Int32 {
        if value <= UInt64(Int64.max) { return integer(Int64(value)) }
        if let uid = unsignedUIDs.ref(for: value) { return Int32(truncatingIfNeeded: uid) }
        let uid = appendEntry(.unsignedInteger, value)
        unsignedUIDs.insert(value, Int(uid))
        return uid
    }

    /// An integer of up to 128 bits: stored as ``integer(_:)`` or ``unsignedInteger(_:)``
    /// store it when it fits in 64 bits, so such values are written exactly as before.
    func wideInteger(_ value: PropertyListWideInteger) -> Int32 {
        value.narrowest(integer, unsignedInteger) { wide in
            if let uid = wideUIDs[wide] { return uid }
            let uid = appendEntry(.wideInteger, UInt64(wides.count))
            wides.append(wide)
            wideUIDs[wide] = uid
            return uid
        }
    }

    func real(_ value: Double) -> Int32 {
        // One probe, as for integers.
        if let uid = realUIDs.refOrInsert(value.bitPattern, Int(Int32(truncatingIfNeeded: count))) { return Int32(truncatingIfNeeded: uid) }
        return appendEntry(.real, value.bitPattern)
    }

    /// The uniquing tables a batch of numbers can be prepared in (see ``prepare(_:in:)``).
    enum NumberTable { case integers, reals }

    /// Number of distinct numbers stored so far in `which`.
    func numberCount(in which: NumberTable) -> Int {
        which == .integers ? integerUIDs.count : realUIDs.count
    }

    /// How many values of an array or dictionary of numbers are stored before it is decided
    /// whether room for the rest is made at once (see
    /// ``reserveNumbers(remaining:ifMostlyNewSince:in:)``).
    static let numbersBeforeReserving = 64

    /// Makes room in `which` for the `remaining` values of an array or dictionary of numbers
    /// when at least three quarters of its first ``numbersBeforeReserving`` were new numbers
    /// (`storedBefore`: ``numberCount(in:)`` before its first value), so that storing a large
    /// one of distinct numbers does not grow the table step by step (each step moves every
    /// number already stored, with a cache miss each), and one of repeated numbers makes no
    /// room it will not use.
    func reserveNumbers(remaining: Int, ifMostlyNewSince storedBefore: Int, in which: NumberTable) {
        guard numberCount(in: which) - storedBefore >= Self.numbersBeforeReserving * 3 / 4 else { return }
        if which == .integers { integerUIDs.reserve(remaining) } else { realUIDs.reserve(remaining) }
    }

    /// Asks for the slots of `keys` (bit patterns of a batch of numbers about to be stored with
    /// ``integer(_:)`` or ``real(_:)``) in `which`: their cache misses then overlap with the
    /// work (a million distinct numbers otherwise wait on memory one at a time). Changes
    /// nothing that is stored.
    @inline(__always)
    func prepare(_ keys: some Sequence<UInt64>, in which: NumberTable) {
        if which == .integers {
            for key in keys { integerUIDs.prefetchHome(key) }
        } else {
            for key in keys { realUIDs.prefetchHome(key) }
        }
    }

    /// Stores a batch of numbers (`keys`: their bit patterns) in `which` and appends their
    /// UIDs to the array object `uid` (opened at level `hint`): the same entries and
    /// elements as ``integer(_:)`` or ``real(_:)`` then ``appendElement(_:uid:hint:)`` for
    /// each in turn, with one probe per number (see ``ScalarRefTable/refsOrInsert(_:firstNew:into:)``)
    /// and the new entries appended together.
    func appendNumberElements(_ keys: UnsafeBufferPointer<UInt64>, in which: NumberTable, uid: Int32, hint: Int) {
        let first = count
        guard first + keys.count <= Int(Int32.max) else {
            // UIDs past Int32 (never in practice): one at a time, as those calls store them.
            for key in keys {
                let element = which == .integers ? integer(Int64(bitPattern: key)) : real(Double(bitPattern: key))
                appendElement(element, uid: uid, hint: hint)
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: keys.count) { refs in
            let fresh = which == .integers
                ? integerUIDs.refsOrInsert(keys, firstNew: first, into: refs)
                : realUIDs.refsOrInsert(keys, firstNew: first, into: refs)
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: keys.count) { uids in
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: keys.count) { added in
                    var next = 0
                    for i in 0..<keys.count {
                        let ref = refs[i]
                        uids[i] = Int32(truncatingIfNeeded: ref)
                        // The new numbers have the references `first`, `first + 1`, … in order
                        // (a number repeated in the batch has its first one's, below `first + next`).
                        if ref == first &+ next {
                            added[next] = keys[i]
                            next &+= 1
                        }
                    }
                    kinds.append(repeating: which == .integers ? .integer : .real, count: fresh)
                    payloads.append(contentsOf: UnsafeBufferPointer(rebasing: added[0..<fresh]))
                }
                appendElements(UnsafeBufferPointer(uids), uid: uid, hint: hint)
            }
        }
    }

    func float(_ value: Float) -> Int32 {
        if let uid = floatUIDs.ref(for: UInt64(value.bitPattern)) { return Int32(truncatingIfNeeded: uid) }
        let uid = appendEntry(.float, UInt64(value.bitPattern))
        floatUIDs.insert(UInt64(value.bitPattern), Int(uid))
        return uid
    }

    func bool(_ value: Bool) -> Int32 {
        let existing = value ? boolUIDs.true : boolUIDs.false
        if existing != 0 { return existing }
        let uid = appendEntry(.bool, value ? 1 : 0)
        if value { boolUIDs.true = uid } else { boolUIDs.false = uid }
        return uid
    }

    /// Data is not uniqued (as in Foundation): hashing large blobs costs more than it saves.
    func data(_ value: Data) -> Int32 {
        let size = ObjectRecord.varintSize(UInt64(value.count)) + value.count
        // Its entry is the next.
        let address = arena.append(size: size, reader: count) { place in
            var at = 0
            ObjectRecord.forEachVarintByte(UInt64(value.count)) { byte in
                place[at] = byte
                at += 1
            }
            UnsafeMutableRawBufferPointer(rebasing: place[at...]).copyBytes(from: value)
        }
        return appendEntry(.data, address)
    }

    /// The class entry for an explicit name and hierarchy.
    func classUID(name: String, classes: [String]) -> Int32 {
        if let uid = classUIDsByName[name] { return uid }
        let uid = appendEntry(.classEntry, UInt64(classEntries.count))
        classEntries.append((name, classes))
        classUIDsByName[name] = uid
        return uid
    }

    /// Class entries and field-key caches of the ``StandardClass`` slots (0: not made yet).
    @exclusivity(unchecked) private var standardClassUIDs = [Int32](repeating: 0, count: StandardClass.slotCount)
    @exclusivity(unchecked) private var standardKeyCaches: [KeyIDCache] = (0..<StandardClass.slotCount).map { _ in KeyIDCache() }

    /// The class entry of a Foundation class the encoder writes: the same entry as
    /// ``classUID(name:classes:)`` gives, kept per slot after the first.
    @inline(__always)
    func classUID(_ standard: StandardClass) -> Int32 {
        guard let slot = standard.slot else { return classUID(name: standard.name, classes: standard.classes) }
        let cached = standardClassUIDs[slot]
        if cached != 0 { return cached }
        let uid = classUID(name: standard.name, classes: standard.classes)
        standardClassUIDs[slot] = uid
        return uid
    }

    /// The key-id cache for the fields of a ``StandardClass``, its cursor at the first
    /// field (see ``keyID(_:cache:)``); kept per slot, a fresh one for other classes.
    @inline(__always)
    func keyCache(for standard: StandardClass) -> KeyIDCache {
        guard let slot = standard.slot else { return KeyIDCache() }
        let cache = standardKeyCaches[slot]
        cache.cursor = 0
        return cache
    }

    /// Class names set on the encoder (`ArchiveEncoder.setClassName`), by type.
    @exclusivity(unchecked) var classNameOverrides: [ObjectIdentifier: (name: String, classes: [String])] = [:]

    /// The class entry for a Swift type, derived once per type.
    func classUID(for type: Any.Type) -> Int32 {
        let id = ObjectIdentifier(type)
        let address = UInt64(UInt(bitPattern: id))
        if let uid = classUIDsByType.ref(for: address) { return Int32(truncatingIfNeeded: uid) }
        let names = classNameOverrides[id] ?? ArchiveClassNaming.classNames(for: type)
        let uid = classUID(name: names.name, classes: names.classes)
        classUIDsByType.insert(address, Int(uid))
        return uid
    }

    /// `$classname` and `$classes` for an NSCoding or ArchiveCoding instance's class:
    /// an override, else the type's ``ArchivedClass`` declaration, else (for NSObject
    /// subclasses) the names Foundation's NSKeyedArchiver writes (``RuntimeClassName``).
    func classNames(forInstanceOf type: AnyClass) -> (name: String, classes: [String]) {
        if let override = classNameOverrides[ObjectIdentifier(type)] { return override }
        if type is NSObject.Type, !(type is ArchivedClass.Type) {
            var classes: [String] = []
            var current: AnyClass? = type
            while let cls = current {
                classes.append(classNameOverrides[ObjectIdentifier(cls)]?.name ?? RuntimeClassName.written(cls))
                current = cls == NSObject.self ? nil : _getSuperclass(cls)
            }
            return (classes.first ?? RuntimeClassName.written(type), classes)
        }
        return ArchiveClassNaming.classNames(for: type)
    }

    /// The id of a field key, escaping a leading `$`.
    @inline(__always)
    func keyID(_ key: String) -> Int32 {
        if let id = keyIDs[key] { return id }
        let id = Int32(truncatingIfNeeded: keys.count)
        keys.append(ArchiveKeyEscaping.escape(key))
        keyIDs[key] = id
        return id
    }

    /// The key-id caches, by CodingKey type (the metatype's address → index in `keyCaches`).
    @exclusivity(unchecked) private var keyCacheIndex = ScalarRefTable()
    @exclusivity(unchecked) private var keyCaches: [KeyIDCache] = []
    /// The key-id caches that keep a container (see KeyedEncodingContainerReuse.swift).
    @exclusivity(unchecked) var keyCachesWithSpares: [KeyIDCache] = []

    /// The CodingKey type last asked for (its metatype's address) and its cache, per level of
    /// open objects (index `level + 1`; index 0 for an object without a level): the objects at
    /// one level are often of one type, one after another (the elements of an array), while
    /// the types of consecutive objects alternate (a record and the value it nests).
    @exclusivity(unchecked) private var lastKeyCaches: [(address: UInt64, cache: KeyIDCache?)] = []

    /// The key-id cache of a CodingKey type, its cursor at the first field, for an object
    /// opened at `level`.
    @inline(__always)
    func keyCache(for type: Any.Type, level: Int) -> KeyIDCache {
        let address = UInt64(UInt(bitPattern: ObjectIdentifier(type)))
        let index = max(level, -1) &+ 1
        if index < lastKeyCaches.count, lastKeyCaches[index].address == address, let cache = lastKeyCaches[index].cache {
            cache.cursor = 0
            return cache
        }
        return keyCacheLookedUp(address, index: index)
    }

    @inline(never)
    private func keyCacheLookedUp(_ address: UInt64, index: Int) -> KeyIDCache {
        let cache: KeyIDCache
        if let found = keyCacheIndex.ref(for: address) {
            cache = keyCaches[found]
            cache.cursor = 0
        } else {
            cache = KeyIDCache()
            keyCacheIndex.insert(address, keyCaches.count)
            keyCaches.append(cache)
        }
        while lastKeyCaches.count <= index { lastKeyCaches.append((0, nil)) }
        lastKeyCaches[index] = (address, cache)
        return cache
    }

    /// The id of a field key, through the cache of its CodingKey type: the fields of a type
    /// come in the same order object after object, so the key at the cursor is almost always
    /// the one asked for, and the (identical) key strings compare in one step — no hashing.
    @inline(__always)
    func keyID(_ key: String, cache: KeyIDCache) -> Int32 {
        let cursor = cache.cursor
        if cursor < cache.names.count, cache.names[cursor] == key {
            cache.cursor = cursor + 1
            return cache.ids[cursor]
        }
        return keyIDMissed(key, cache: cache)
    }

    @inline(never)
    private func keyIDMissed(_ key: String, cache: KeyIDCache) -> Int32 {
        for index in cache.names.indices where cache.names[index] == key {
            cache.cursor = index + 1
            return cache.ids[index]
        }
        let id = keyID(key)
        // A type's keys are few; keys made on the fly (converted, dynamic) stop being cached.
        if cache.names.count < KeyIDCache.limit {
            cache.names.append(key)
            cache.ids.append(id)
            cache.cursor = cache.names.count
        }
        return id
    }

    // MARK: - Reading back

    /// Entry `uid`, decoded (`uid` below ``count``).
    func entry(_ uid: Int32) -> Entry {
        let index = Int(uid)
        let payload = payloads[index]
        switch kinds[index] {
        case .nullString: return .string("$null")
        case .string: return .string(storedString(payload))
        case .integer: return .integer(Int64(bitPattern: payload))
        case .unsignedInteger: return .unsignedInteger(payload)
        case .wideInteger: return .wideInteger(wides[Int(payload)])
        case .real: return .real(Double(bitPattern: payload))
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: payload)))
        case .bool: return .bool(payload != 0)
        case .data:
            var cursor = arena.cursor(at: payload)
            return .data(Data(cursor.bytes[cursor.dataRange()]))
        case .classEntry:
            let entry = classEntries[Int(payload)]
            return .classEntry(name: entry.name, classes: entry.classes)
        case .fields: return .object(ObjectBox(table: self, uid: uid, kind: .fields, level: -1))
        case .array: return .object(ObjectBox(table: self, uid: uid, kind: .array, level: -1))
        case .dictionary: return .object(ObjectBox(table: self, uid: uid, kind: .dictionary, level: -1))
        }
    }

    /// The string of a `.string` entry's payload.
    func storedString(_ payload: UInt64) -> String { stringUIDs[StringEntryPayload.position(payload)] }

    /// Frees what only encoding needs (lookup tables), once the last value is in: the
    /// writers need the entries, not the ways to find them.
    func finishEncoding() {
        closeAll()
        dropSpareContainers()
        stringUIDs.releaseLookup()
        integerUIDs.release()
        unsignedUIDs.release()
        realUIDs.release()
        floatUIDs.release()
        plainValueTypes.release()
        instanceUIDs = [:]
        keyIDs = [:]
        keyCaches = []
        keyCacheIndex.release()
        lastKeyCaches = []
    }

    /// Entries whose storage ``releaseWritten(through:)`` has freed (from UID 0), and how
    /// many of them are strings.
    @exclusivity(unchecked) private var releasedEntries = 0
    @exclusivity(unchecked) private var releasedStrings = 0

    /// Frees the storage of entries `0...uid` (their kinds, payloads, strings, and the
    /// records and data no later entry reads): a writer that goes through the table in UID
    /// order has written them and reads them no more. Only after ``finishEncoding()``; the
    /// table then serves no other reader.
    func releaseWritten(through uid: Int) {
        arena.release(readBy: uid)
        // A string's position is the rank of its entry among the string entries (each new
        // string is stored as it gets its entry).
        let end = min(uid + 1, count)
        while releasedEntries < end {
            let run = kinds.run(from: releasedEntries, to: end)
            for kind in run where kind == .string { releasedStrings += 1 }
            releasedEntries += run.count
        }
        kinds.release(below: end)
        payloads.release(below: end)
        stringUIDs.release(below: releasedStrings)
    }
}

/// The field keys one CodingKey type has written, with their ids (see `keyID(_:cache:)`).
final class KeyIDCache {
    /// Keys cached per type, at most: a miss scans them all.
    static let limit = 32
    @exclusivity(unchecked) var names: [String] = []
    @exclusivity(unchecked) var ids: [Int32] = []
    /// Where the next key is expected.
    @exclusivity(unchecked) var cursor = 0
    /// The last keyed container handed out for this Key type at each level of open objects
    /// (see KeyedEncodingContainerReuse.swift).
    @exclusivity(unchecked) var spares: [SpareContainer<ArchiveKeyedEncodingCore>] = []
}
