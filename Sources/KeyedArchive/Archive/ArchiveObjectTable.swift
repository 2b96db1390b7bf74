import Foundation

/// The `$objects` table of an archive being written.
///
/// UIDs are indices into ``objects``. Strings and numbers are stored once; class entries
/// once per class; field keys are interned so that the binary writer hashes each distinct
/// key once per archive rather than once per field.
final class ArchiveObjectTable {
    /// One entry of `$objects`.
    enum Entry {
        case string(String)
        case integer(Int64)
        case unsignedInteger(UInt64)
        /// Only for values outside `Int64.min...UInt64.max`.
        case wideInteger(PropertyListWideInteger)
        case real(Double)
        case float(Float)
        case bool(Bool)
        case data(Data)
        case object(ObjectBox)
        case classEntry(name: String, classes: [String])
        /// Reserved while its value is being encoded; never written (a cycle throws first).
        case reserved
    }

    @exclusivity(unchecked) private(set) var objects: [Entry] = [.string("$null")]
    /// Strings by their exact bytes (see StringUIDTable).
    @exclusivity(unchecked) private var stringUIDs = StringUIDTable()
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
    /// Value types (by metatype address) that are neither special-cased nor classes: the
    /// encoder's memo of its dynamic checks.
    @exclusivity(unchecked) var plainValueTypes = ScalarRefTable()
    /// Keeps encoded instances alive so their `ObjectIdentifier`s stay unique.
    @exclusivity(unchecked) var retainedInstances: [AnyObject] = []

    // MARK: - Adding objects

    @inline(__always)
    private func append(_ entry: Entry) -> Int32 {
        objects.append(entry)
        return Int32(truncatingIfNeeded: objects.count - 1)
    }

    /// Reserves a UID for a value whose entry is filled in later.
    func reserve() -> Int32 { append(.reserved) }

    func set(_ uid: Int32, _ entry: Entry) { objects[Int(uid)] = entry }

    func string(_ value: String) -> Int32 {
        stringUIDs.uid(for: value) { append(.string(value)) }
    }

    func integer(_ value: Int64) -> Int32 {
        let key = UInt64(bitPattern: value)
        if let uid = integerUIDs.ref(for: key) { return Int32(truncatingIfNeeded: uid) }
        let uid = append(.integer(value))
        integerUIDs.insert(key, Int(uid))
        return uid
    }

    func unsignedInteger(_ value: UInt64) -> Int32 {
        if value <= UInt64(Int64.max) { return integer(Int64(value)) }
        if let uid = unsignedUIDs.ref(for: value) { return Int32(truncatingIfNeeded: uid) }
        let uid = append(.unsignedInteger(value))
        unsignedUIDs.insert(value, Int(uid))
        return uid
    }

    /// An integer of up to 128 bits: stored as ``integer(_:)`` or ``unsignedInteger(_:)``
    /// store it when it fits in 64 bits, so such values are written exactly as before.
    func wideInteger(_ value: PropertyListWideInteger) -> Int32 {
        value.narrowest(integer, unsignedInteger) { wide in
            if let uid = wideUIDs[wide] { return uid }
            let uid = append(.wideInteger(wide))
            wideUIDs[wide] = uid
            return uid
        }
    }

    func real(_ value: Double) -> Int32 {
        if let uid = realUIDs.ref(for: value.bitPattern) { return Int32(truncatingIfNeeded: uid) }
        let uid = append(.real(value))
        realUIDs.insert(value.bitPattern, Int(uid))
        return uid
    }

    func float(_ value: Float) -> Int32 {
        if let uid = floatUIDs.ref(for: UInt64(value.bitPattern)) { return Int32(truncatingIfNeeded: uid) }
        let uid = append(.float(value))
        floatUIDs.insert(UInt64(value.bitPattern), Int(uid))
        return uid
    }

    func bool(_ value: Bool) -> Int32 {
        let existing = value ? boolUIDs.true : boolUIDs.false
        if existing != 0 { return existing }
        let uid = append(.bool(value))
        if value { boolUIDs.true = uid } else { boolUIDs.false = uid }
        return uid
    }

    /// Data is not uniqued (as in Foundation): hashing large blobs costs more than it saves.
    func data(_ value: Data) -> Int32 { append(.data(value)) }

    /// The class entry for an explicit name and hierarchy.
    func classUID(name: String, classes: [String]) -> Int32 {
        if let uid = classUIDsByName[name] { return uid }
        let uid = append(.classEntry(name: name, classes: classes))
        classUIDsByName[name] = uid
        return uid
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
    /// subclasses) the name Foundation's NSKeyedArchiver writes, `Module.Class`.
    func classNames(forInstanceOf type: AnyClass) -> (name: String, classes: [String]) {
        if let override = classNameOverrides[ObjectIdentifier(type)] { return override }
        if type is NSObject.Type, !(type is ArchivedClass.Type) {
            var classes: [String] = []
            var current: AnyClass? = type
            while let cls = current {
                classes.append(classNameOverrides[ObjectIdentifier(cls)]?.name ?? NSStringFromClass(cls))
                current = cls == NSObject.self ? nil : _getSuperclass(cls)
            }
            return (classes.first ?? NSStringFromClass(type), classes)
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

    /// The key-id cache of a CodingKey type, its cursor at the first field.
    func keyCache(for type: Any.Type) -> KeyIDCache {
        let address = UInt64(UInt(bitPattern: ObjectIdentifier(type)))
        if let index = keyCacheIndex.ref(for: address) {
            let cache = keyCaches[index]
            cache.cursor = 0
            return cache
        }
        let cache = KeyIDCache()
        keyCacheIndex.insert(address, keyCaches.count)
        keyCaches.append(cache)
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

    // MARK: - Output

    /// Writes the archive as a binary property list.
    func binary() -> Data {
        // Every object is a dictionary of $class and its fields (2 references each), or an
        // array or dictionary of UIDs: counted first, so the reference list never regrows.
        var childRefs = 0
        for entry in objects {
            guard case .object(let box) = entry else { continue }
            childRefs += 2 * (1 + box.fields.count) + box.elements.count + box.keys.count + 4
        }
        var builder = BinaryPropertyListBuilder(expectedObjects: objects.count * 2, expectedChildRefs: childRefs)
        let keyRefs = keys.map { builder.string($0) }
        let classKey = builder.string("$class")
        let classesKey = builder.string("$classes")
        let classNameKey = builder.string("$classname")
        let objectsKey = builder.string("NS.objects")
        let keysKey = builder.string("NS.keys")
        var entryRefs = [Int]()
        entryRefs.reserveCapacity(objects.count)
        var scratchKeys = [Int]()
        var scratchValues = [Int]()
        for entry in objects {
            let ref: Int
            // Strings and numbers in the table are unique already: no second hashing.
            switch entry {
            case .string(let s): ref = builder.appendString(s)
            case .integer(let i): ref = builder.appendInteger(i)
            case .unsignedInteger(let u): ref = builder.unsignedInteger(u)
            case .wideInteger(let w): ref = builder.wideInteger(w)
            case .real(let d): ref = builder.appendReal(d)
            case .float(let f): ref = builder.float(f)
            case .bool(let b): ref = builder.bool(b)
            case .data(let d): ref = builder.data(d)
            case .reserved: ref = builder.string("$null")
            case .classEntry(let name, let classes):
                let names = classes.map { builder.string($0) }
                let list = builder.array(names)
                let nameRef = builder.string(name)
                ref = builder.dictionary(keys: [classesKey, classNameKey], values: [list, nameRef])
            case .object(let box):
                scratchKeys.removeAll(keepingCapacity: true)
                scratchValues.removeAll(keepingCapacity: true)
                scratchKeys.append(classKey)
                scratchValues.append(builder.uid(UInt64(box.classUID)))
                switch box.kind {
                case .fields:
                    for field in box.fields {
                        scratchKeys.append(keyRefs[Int(field.key)])
                        let value: Int
                        switch field.value {
                        case .uid(let u): value = builder.uid(UInt64(u))
                        case .integer(let i): value = builder.integer(i)
                        case .real(let d): value = builder.real(d)
                        case .float(let f): value = builder.float(f)
                        case .bool(let b): value = builder.bool(b)
                        case .data(let d): value = builder.data(d)
                        }
                        scratchValues.append(value)
                    }
                case .array:
                    scratchKeys.append(objectsKey)
                    scratchValues.append(builder.uidArray(box.elements))
                case .dictionary:
                    scratchKeys.append(keysKey)
                    scratchValues.append(builder.uidArray(box.keys))
                    scratchKeys.append(objectsKey)
                    scratchValues.append(builder.uidArray(box.elements))
                }
                ref = builder.dictionary(keys: scratchKeys, values: scratchValues)
            }
            entryRefs.append(ref)
        }
        let objectsRef = builder.array(entryRefs)
        let topKeys = top.map { builder.string(ArchiveKeyEscaping.escape($0.key)) }
        let topValues = top.map { builder.uid(UInt64($0.uid)) }
        let topRef = builder.dictionary(keys: topKeys, values: topValues)
        let rootKeys = ["$version", "$archiver", "$top", "$objects"].map { builder.string($0) }
        let version = builder.integer(100_000)
        let archiver = builder.string("NSKeyedArchiver")
        let root = builder.dictionary(keys: rootKeys, values: [version, archiver, topRef, objectsRef])
        return builder.finishData(top: root)
    }

    /// Writes the archive as an XML property list, streamed from the table (no tree), in
    /// the layout `XMLPropertyListWriter` gives the same archive as a `PropertyListValue`.
    func xml() -> [UInt8] {
        var output = XMLPlistOutput(capacity: objects.count * 96 + 1_024)
        output.beginDocument()
        output.raw("<dict>\n")
        output.key("$version", indent: 1)
        output.integer(100_000, indent: 1)
        output.key("$archiver", indent: 1)
        output.string("NSKeyedArchiver", indent: 1)
        output.key("$top", indent: 1)
        if output.open(dictionary: true, count: top.count, indent: 1) {
            for entry in top {
                output.key(ArchiveKeyEscaping.escape(entry.key), indent: 2)
                output.uid(UInt64(UInt32(bitPattern: entry.uid)), indent: 2)
            }
            output.close(dictionary: true, indent: 1)
        }
        output.key("$objects", indent: 1)
        output.raw("\t<array>\n")  // never empty: UID 0 is $null
        for entry in objects {
            switch entry {
            case .string(let s): output.string(s, indent: 2)
            case .integer(let i): output.integer(i, indent: 2)
            case .unsignedInteger(let u): output.unsignedInteger(u, indent: 2)
            case .wideInteger(let w): output.wideInteger(w, indent: 2)
            case .real(let d): output.real(d, indent: 2)
            case .float(let f): output.real(Double(f), indent: 2)
            case .bool(let b): output.bool(b, indent: 2)
            case .data(let d): output.data(d, indent: 2)
            case .reserved: output.string("$null", indent: 2)
            case .classEntry(let name, let classes):
                output.raw("\t\t<dict>\n")
                output.key("$classes", indent: 3)
                if output.open(dictionary: false, count: classes.count, indent: 3) {
                    for name in classes { output.string(name, indent: 4) }
                    output.close(dictionary: false, indent: 3)
                }
                output.key("$classname", indent: 3)
                output.string(name, indent: 3)
                output.raw("\t\t</dict>\n")
            case .object(let box):
                output.raw("\t\t<dict>\n")
                output.key("$class", indent: 3)
                output.uid(UInt64(UInt32(bitPattern: box.classUID)), indent: 3)
                switch box.kind {
                case .fields:
                    for field in box.fields {
                        output.key(keys[Int(field.key)], indent: 3)
                        switch field.value {
                        case .uid(let u): output.uid(UInt64(UInt32(bitPattern: u)), indent: 3)
                        case .integer(let i): output.integer(i, indent: 3)
                        case .real(let d): output.real(d, indent: 3)
                        case .float(let f): output.real(Double(f), indent: 3)
                        case .bool(let b): output.bool(b, indent: 3)
                        case .data(let d): output.data(d, indent: 3)
                        }
                    }
                case .array:
                    output.key("NS.objects", indent: 3)
                    output.uidArray(box.elements, indent: 3)
                case .dictionary:
                    output.key("NS.keys", indent: 3)
                    output.uidArray(box.keys, indent: 3)
                    output.key("NS.objects", indent: 3)
                    output.uidArray(box.elements, indent: 3)
                }
                output.raw("\t\t</dict>\n")
            }
        }
        output.raw("\t</array>\n")
        output.raw("</dict>\n")
        output.endDocument()
        return output.out
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
}

/// An archived object being filled in: the fields of a keyed object, or the elements of
/// an NSArray/NSSet, or the keys and values of an NSDictionary.
final class ObjectBox {
    enum Kind {
        /// An object with its own fields (a struct, class or Foundation object).
        case fields
        /// `{NS.objects: [UID]}` (NSArray, NSSet).
        case array
        /// `{NS.keys: [UID], NS.objects: [UID]}` (NSDictionary).
        case dictionary
    }

    let kind: Kind
    @exclusivity(unchecked) var classUID: Int32 = 0
    @exclusivity(unchecked) var fields: [Field] = []
    @exclusivity(unchecked) var keys: [Int32] = []
    @exclusivity(unchecked) var elements: [Int32] = []

    init(kind: Kind) { self.kind = kind }

    /// One field: an interned key and an inline value or reference.
    struct Field {
        var key: Int32
        var value: Value
    }

    /// What a field holds: a scalar inline (as `encode(_:forKey:)` writes numbers and
    /// booleans) or a UID.
    enum Value {
        case uid(Int32)
        case integer(Int64)
        case real(Double)
        case float(Float)
        case bool(Bool)
        case data(Data)
    }
}
