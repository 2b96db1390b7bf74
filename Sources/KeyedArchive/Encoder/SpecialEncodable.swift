import Foundation

/// Types the encoder writes in their Foundation layout instead of through `encode(to:)`:
/// strings and numbers as plain objects, `Date` as NSDate, `URL` as NSURL, `UUID` as
/// NSUUID, `Decimal` as NSDecimalNumber, `Data` as plain data, `Dictionary` as
/// NSDictionary and `Set` as NSSet (both in a deterministic order).
protocol _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32
}

extension String: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        encoder.table.string(self)
    }
}

extension Bool: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        encoder.table.bool(self)
    }
}

extension Double: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        try encoder.realUID(self, at: path())
    }
}

extension Float: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        try encoder.realUID(self, at: path())
    }
}

/// Every fixed-width integer type (up to 128 bits) is a plain integer object.
protocol _ArchiveIntegerEncodable: _ArchiveSpecialEncodable, FixedWidthInteger {}

extension _ArchiveIntegerEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        if let signed = Int64(exactly: self) { return encoder.table.integer(signed) }
        if let unsigned = UInt64(exactly: self) { return encoder.table.unsignedInteger(unsigned) }
        return encoder.table.wideInteger(PropertyListWideInteger(fixedWidth: self))
    }
}

extension Int: _ArchiveIntegerEncodable {}
extension Int8: _ArchiveIntegerEncodable {}
extension Int16: _ArchiveIntegerEncodable {}
extension Int32: _ArchiveIntegerEncodable {}
extension Int64: _ArchiveIntegerEncodable {}
extension UInt: _ArchiveIntegerEncodable {}
extension UInt8: _ArchiveIntegerEncodable {}
extension UInt16: _ArchiveIntegerEncodable {}
extension UInt32: _ArchiveIntegerEncodable {}
extension UInt64: _ArchiveIntegerEncodable {}

extension Data: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        if !encoder.options.writesNSData { return try encoder.encodeDataWithStrategy(self, at: path()) }
        return encoder.table.data(self)
    }
}

extension Date: _ArchiveSpecialEncodable {
    /// NSDate: `{NS.time: seconds since 2001-01-01 UTC}`.
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        if !encoder.options.writesNSDate { return try encoder.encodeDateWithStrategy(self, at: path()) }
        // Through a handle and the table, not a box (which retains the table).
        let made = encoder.makeHandle(kind: .fields, className: .date)
        let table = encoder.table
        let key = table.keyID("NS.time", cache: table.keyCache(for: .date))
        table.appendField(key: key, .real(timeIntervalSinceReferenceDate), uid: made.uid, hint: made.level)
        return made.uid
    }
}

extension URL: _ArchiveSpecialEncodable {
    /// NSURL: `{NS.base: UID of the base URL or 0, NS.relative: UID of the relative string}`.
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let made = encoder.makeObject(kind: .fields, className: .url)
        let base: Int32 = try baseURL.map { try $0._archiveEncode(with: encoder, at: path()) } ?? 0
        let keys = encoder.table.keyCache(for: .url)
        made.box.append(key: encoder.table.keyID("NS.base", cache: keys), .uid(base))
        made.box.append(key: encoder.table.keyID("NS.relative", cache: keys), .uid(encoder.table.string(relativeString)))
        return made.uid
    }
}

extension UUID: _ArchiveSpecialEncodable {
    /// NSUUID: `{NS.uuidbytes: 16 bytes}`.
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let made = encoder.makeObject(kind: .fields, className: .uuid)
        let key = encoder.table.keyID("NS.uuidbytes", cache: encoder.table.keyCache(for: .uuid))
        withUnsafeBytes(of: uuid) { made.box.append(key: key, bytes: $0) }
        return made.uid
    }
}

extension Decimal: _ArchiveSpecialEncodable {
    /// NSDecimalNumber, in Apple's keyed layout: exponent, length, sign and compact flags,
    /// byte order 1 (little-endian) and a 16-byte mantissa of eight UInt16s.
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let made = encoder.makeObject(kind: .fields, className: .decimalNumber)
        let table = encoder.table
        let layout = DecimalLayout(self)
        let keys = table.keyCache(for: .decimalNumber)
        made.box.append(key: table.keyID("NS.exponent", cache: keys), .integer(Int64(layout.exponent)))
        made.box.append(key: table.keyID("NS.length", cache: keys), .integer(Int64(layout.length)))
        made.box.append(key: table.keyID("NS.negative", cache: keys), .bool(layout.isNegative))
        made.box.append(key: table.keyID("NS.compact", cache: keys), .bool(true))
        made.box.append(key: table.keyID("NS.mantissa.bo", cache: keys), .integer(1))
        made.box.append(key: table.keyID("NS.mantissa", cache: keys), .data(layout.mantissaBytes))
        return made.uid
    }
}

// MARK: - Unordered collections, in a deterministic order

/// A sort key that makes dictionary and set output independent of hash order.
enum ArchiveSortKey: Comparable {
    case integer(Int64)
    case unsigned(UInt64)
    /// Integers beyond 64 bits (`Int128`, `UInt128`).
    case wide(PropertyListWideInteger)
    case string(String)
    /// The value's own archive bytes, for keys of any other type.
    case bytes([UInt8])

    static func < (lhs: ArchiveSortKey, rhs: ArchiveSortKey) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a < b
        case (.unsigned(let a), .unsigned(let b)): return a < b
        case (.wide(let a), .wide(let b)): return a < b
        case (.string(let a), .string(let b)): return a < b
        case (.bytes(let a), .bytes(let b)): return a.lexicographicallyPrecedes(b)
        default: return lhs.rank < rhs.rank
        }
    }

    private var rank: Int {
        switch self {
        case .integer: return 0
        case .unsigned: return 1
        case .wide: return 2
        case .string: return 3
        case .bytes: return 4
        }
    }

    /// The sort key of `value`: direct for strings and integers, else its encoded bytes.
    static func of<T: Encodable>(_ value: T, userInfo: [CodingUserInfoKey: Any]) throws -> ArchiveSortKey {
        if let string = value as? String { return .string(string) }
        if let integer = value as? any BinaryInteger {
            if let signed = Int64(exactly: integer) { return .integer(signed) }
            if let unsigned = UInt64(exactly: integer) { return .unsigned(unsigned) }
            if let fixed = integer as? any FixedWidthInteger { return .wide(PropertyListWideInteger(fixedWidth: fixed)) }
        }
        let table = ArchiveObjectTable()
        let encoder = _ArchiveEncoder(table: table, userInfo: userInfo)
        table.top = [("root", try encoder.box(value, at: .root))]
        return .bytes([UInt8](table.binary()))
    }
}

/// The positions of `items` in sorted order: by string for `String` elements (the common
/// case, see ``stringSortKeys(_:)``), else by ``ArchiveSortKey``. Sorting positions
/// rather than the items themselves keeps generic values from being copied on every comparison.
func archiveSortedOrder<T: Encodable>(_ items: [T], userInfo: [CodingUserInfoKey: Any]) throws -> [Int] {
    if T.self == String.self {
        return stringSortKeys(unsafeBitCast(items, to: [String].self)).map(\.index)  // the same type (T is String)
    }
    let keys = try items.map { try ArchiveSortKey.of($0, userInfo: userInfo) }
    return keys.indices.sorted { keys[$0] < keys[$1] }
}

extension Dictionary: _ArchiveSpecialEncodable where Key: Encodable, Value: Encodable {
    /// NSDictionary: keys and values are objects of their own, whatever the key type.
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        if Key.self == String.self {
            // String keys (the common case), through code specialized for the commonest
            // value types (the same type: `Key` is `String`, `Value` the type compared), so
            // values are not copied through `Value`'s value witness.
            if Value.self == Int.self {
                return try archiveEncodeStringKeyed(unsafeBitCast(self, to: [String: Int].self), with: encoder, at: path())
            }
            if Value.self == String.self {
                return try archiveEncodeStringKeyed(unsafeBitCast(self, to: [String: String].self), with: encoder, at: path())
            }
            if Value.self == Double.self {
                return try archiveEncodeStringKeyed(unsafeBitCast(self, to: [String: Double].self), with: encoder, at: path())
            }
            return try archiveEncodeStringKeyed(unsafeBitCast(self, to: [String: Value].self), with: encoder, at: path())
        }
        let keys = Array(self.keys)
        let values = Array(self.values)
        let order = try archiveSortedOrder(keys, userInfo: encoder.userInfo)
        let made = encoder.makeObject(kind: .dictionary)
        let base = path()
        for index in order {
            let key = keys[index]
            let keyUID = try encoder.box(key, at: base.appending(ArchiveCodingKey(stringValue: "\(key)")))
            made.box.appendEntry(key: keyUID, value: encoder.elementUID(try encoder.box(values[index], at: base.appending(ArchiveCodingKey(stringValue: "\(key)")))))
        }
        return made.uid
    }
}

/// A `[String: V]` as NSDictionary, keys in `String` order: one pass over the dictionary
/// gathers keys and values; one over the keys makes their sort keys
/// (``stringSortKeys(_:)``); the keys, and values of a trivial type, are then moved into
/// key order (``movedInOrder(_:_:)``), so that the entries are made reading them one after
/// another. They are made in batches: each batch's keys are hashed for the string table
/// (``ArchiveObjectTable/stringHash(of:)``) while the batch before is stored, and the
/// table's slots of those hashes asked for (a prefetch, see
/// ``ArchiveObjectTable/prepareStrings(hashes:)``), so that the cache misses of a large
/// dictionary's slots overlap with the work (for `Int` values, the number table's slots of
/// each batch too, at the start of the batch, see ``ArchiveObjectTable/prepare(_:in:)``).
/// Their UIDs are stored in the dictionary's object at once (``ObjectBox/appendEntries(_:)``).
/// The output is the same, byte for byte, as storing each entry in turn.
private func archiveEncodeStringKeyed<V: Encodable>(_ dictionary: [String: V], with encoder: _ArchiveEncoder,
                                                    at base: CodingPathNode) throws -> Int32 {
    var (keys, values) = gatheredEntries(dictionary)
    let table = encoder.table
    let count = keys.count
    let sorted = stringSortKeys(keys)
    // Read one after another below, instead of each at its sorted position's random place
    // (a cache miss each once the dictionary outgrows the caches, one after another).
    let orderedKeys = movedInOrder(&keys, sorted)
    keys = []
    let orderedValues: [V]? = _isPOD(V.self) ? sorted.map { values[$0.index] } : nil
    if orderedValues != nil { values = [] }
    let made = encoder.makeObject(kind: .dictionary)
    // Distinct keys: at most this many new strings.
    table.reserveStrings(count)
    let storedBefore = table.numberCount(in: .integers)
    // Each entry's key and value UIDs, stored in the dictionary's object at the end.
    var pairs = [Int32](repeating: 0, count: 2 * count)
    try pairs.withUnsafeMutableBufferPointer { pairs in
        try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * entryBatch) { hashes in
            // The hashes of the keys at sorted positions `first..<end`, at `position & hashMask`.
            func hashKeys(_ first: Int, _ end: Int) {
                for position in first..<end {
                    hashes[position & hashMask] = orderedKeys[position].withContiguousUTF8 { table.stringHash(of: $0) }
                }
                if count >= 4 * entryBatch {
                    table.prepareStrings(hashes: (first..<end).lazy.map { hashes[$0 & hashMask] })
                }
            }
            hashKeys(0, Swift.min(entryBatch, count))
            for position in 0..<count {
                if position & (entryBatch - 1) == 0 {
                    if V.self == Int.self, let orderedValues {
                        // As for arrays of numbers (`boxNumbers`): when the first values are mostly
                        // new numbers, room for the rest is made at once, at the first batch that
                        // starts at or after them (whatever the two sizes are).
                        let reserveAt = ArchiveObjectTable.numbersBeforeReserving
                        if position >= reserveAt, position - reserveAt < entryBatch {
                            table.reserveNumbers(remaining: count - position, ifMostlyNewSince: storedBefore, in: .integers)
                        }
                        let ints = unsafeBitCast(orderedValues, to: [Int].self)  // the same type (V is Int)
                        table.prepare(ints[position..<Swift.min(position + entryBatch, count)].lazy.map { UInt64(bitPattern: Int64($0)) },
                                      in: .integers)
                    }
                    // The next batch's keys.
                    hashKeys(Swift.min(position + entryBatch, count), Swift.min(position + 2 * entryBatch, count))
                }
                let key = orderedKeys[position]
                pairs[2 * position] = table.string(key, hash: hashes[position & hashMask])
                let value = orderedValues?[position] ?? values[sorted[position].index]
                pairs[2 * position + 1] = encoder.elementUID(try encoder.box(value, at: base.appending(ArchiveCodingKey(stringValue: key))))
            }
        }
    }
    pairs.withUnsafeBufferPointer { made.box.appendEntries($0) }
    return made.uid
}

/// The entries of a dictionary are made this many at a time (see `archiveEncodeStringKeyed`);
/// a power of two, so positions in a batch are masks, not divisions.
private let entryBatch = 16
/// Where a key's hash is kept among the two batches' (`position & hashMask`).
private let hashMask = 2 * entryBatch - 1

/// The strings of `strings` in the order `sorted` gives (its `index`es, each once), moved
/// out rather than copied: an empty string takes each one's place, so neither array pays
/// reference counting for them. The reads are random but independent: a tight loop, whose
/// cache misses overlap.
private func movedInOrder(_ strings: inout [String], _ sorted: [ASCIIPrefixKey]) -> [String] {
    strings.withUnsafeMutableBufferPointer { source in
        [String](unsafeUninitializedCapacity: sorted.count) { ordered, initialized in
            for (position, key) in sorted.enumerated() {
                ordered.initializeElement(at: position, to: source.moveElement(from: key.index))
                source.initializeElement(at: key.index, to: "")
            }
            initialized = sorted.count
        }
    }
}

/// The keys and values of `dictionary`, in its order, gathered in one pass straight into
/// arrays of its size (no capacity or uniqueness check per entry, as `append` makes).
@inline(__always)
private func gatheredEntries<V>(_ dictionary: [String: V]) -> (keys: [String], values: [V]) {
    let count = dictionary.count
    var values: [V] = []
    let keys = [String](unsafeUninitializedCapacity: count) { keys, keyCount in
        values = [V](unsafeUninitializedCapacity: count) { values, valueCount in
            var next = 0
            for (key, value) in dictionary where next < count {  // a dictionary has `count` entries
                keys.initializeElement(at: next, to: key)
                values.initializeElement(at: next, to: value)
                next += 1
            }
            valueCount = next
        }
        keyCount = values.count
    }
    return (keys, values)
}

extension Set: _ArchiveSpecialEncodable where Element: Encodable {
    /// NSSet, elements in a deterministic order.
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let elements = Array(self)
        let order = try archiveSortedOrder(elements, userInfo: encoder.userInfo)
        let made = encoder.makeObject(kind: .array, className: .set)
        let base = path()
        for (position, index) in order.enumerated() {
            made.box.appendElement(encoder.elementUID(try encoder.box(elements[index], at: base.appending(index: position))))
        }
        return made.uid
    }
}
