import Foundation

/// An archived object being filled in or already filled: the fields of a keyed object, the
/// elements of an NSArray/NSSet, or the keys and values of an NSDictionary. A handle (the
/// object's UID in its table); the bytes live in the table.
struct ObjectBox {
    enum Kind: UInt8 {
        /// An object with its own fields (a struct, class or Foundation object).
        case fields
        /// `{NS.objects: [UID]}` (NSArray, NSSet).
        case array
        /// `{NS.keys: [UID], NS.objects: [UID]}` (NSDictionary).
        case dictionary
    }

    let table: ArchiveObjectTable
    let uid: Int32
    let kind: Kind
    /// The scratch level it was opened at (a hint, checked on use), or -1.
    let level: Int

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

    /// One field: an interned key and an inline value or reference.
    struct Field {
        var key: Int32
        var value: Value
    }

    // MARK: Writing

    /// Appends a field (`.fields` objects).
    @inline(__always)
    func append(key: Int32, _ value: Value) {
        table.appendField(key: key, value, uid: uid, hint: level)
    }

    /// Appends a data field from raw bytes (`.fields` objects), with no `Data` in between.
    func append(key: Int32, bytes: UnsafeRawBufferPointer) {
        let level = table.openLevel(of: self)
        table.openObjects[level].appendDataField(key: key, bytes)
    }

    /// Appends a field holding UID 0 and returns where its UID is, for ``setUID(_:atField:)``.
    func appendPlaceholder(key: Int32) -> Int {
        let level = table.openLevel(of: self)
        let offset = ObjectRecord.appendField(key: key, .uid(0), to: &table.openObjects[level].main)
        table.openObjects[level].count += 1
        // From the start of the object's bytes (which move if it is stored and reopened).
        return offset - table.openObjects[level].mainStart
    }

    /// Appends an element (`.array` objects).
    @inline(__always)
    func appendElement(_ element: Int32) {
        table.appendElement(element, uid: uid, hint: level)
    }

    /// Appends a key and its value (`.dictionary` objects).
    @inline(__always)
    func appendEntry(key: Int32, value: Int32) {
        let level = table.openLevel(of: self)
        table.openObjects[level].main.appendLE32(UInt32(bitPattern: key))
        table.openObjects[level].values.appendLE32(UInt32(bitPattern: value))
        table.openObjects[level].count += 1
    }

    /// Appends entries (`.dictionary` objects) given as key and value UIDs in turn (`pairs`:
    /// key, value, key, value, …): the bytes ``appendEntry(key:value:)`` stores for each pair,
    /// stored at once.
    func appendEntries(_ pairs: UnsafeBufferPointer<Int32>) {
        let level = table.openLevel(of: self)
        let count = pairs.count / 2
        table.openObjects[level].main.appendLE32s(count) { UInt32(bitPattern: pairs[2 * $0]) }
        table.openObjects[level].values.appendLE32s(count) { UInt32(bitPattern: pairs[2 * $0 + 1]) }
        table.openObjects[level].count += count
    }

    /// Fields, elements or entries so far.
    var count: Int { table.openCount(uid: uid, hint: level) }

    /// Fills in a placeholder field (offset from ``appendPlaceholder(key:)``).
    func setUID(_ value: Int32, atField offset: Int) {
        let level = table.openLevel(of: self)
        let start = table.openObjects[level].mainStart
        table.openObjects[level].main.setLE32(UInt32(bitPattern: value), at: start + offset)
    }

    /// Replaces element `index` (an array's element, a dictionary's value).
    func setElement(_ value: Int32, at index: Int) {
        let level = table.openLevel(of: self)
        if kind == .dictionary {
            let start = table.openObjects[level].valuesStart
            table.openObjects[level].values.setLE32(UInt32(bitPattern: value), at: start + index * 4)
        } else {
            let start = table.openObjects[level].mainStart
            table.openObjects[level].main.setLE32(UInt32(bitPattern: value), at: start + index * 4)
        }
    }

    // MARK: Reading (conversions that walk a finished table)

    var classUID: Int32 { table.record(of: uid).classUID }

    var fields: [Field] {
        let record = table.record(of: uid)
        guard kind == .fields else { return [] }
        var cursor = ObjectRecord.Cursor(record.main, at: 0)
        return (0..<record.count).map { _ in
            let (key, stored) = cursor.field()
            let value: Value
            switch stored {
            case .uid(let u): value = .uid(u)
            case .integer(let i): value = .integer(i)
            case .real(let bits): value = .real(Double(bitPattern: bits))
            case .float(let bits): value = .float(Float(bitPattern: bits))
            case .bool(let b): value = .bool(b)
            case .data(let range): value = .data(Data(record.main[range]))
            }
            return Field(key: key, value: value)
        }
    }

    /// An array's elements, or a dictionary's values.
    var elements: [Int32] {
        let record = table.record(of: uid)
        switch kind {
        case .fields: return []
        case .array: return Self.uids(record.main, count: record.count)
        case .dictionary: return Self.uids(record.values, count: record.count)
        }
    }

    /// A dictionary's keys.
    var keys: [Int32] {
        let record = table.record(of: uid)
        return kind == .dictionary ? Self.uids(record.main, count: record.count) : []
    }

    private static func uids(_ bytes: [UInt8], count: Int) -> [Int32] {
        var cursor = ObjectRecord.Cursor(bytes, at: 0)
        return (0..<count).map { _ in cursor.uid() }
    }
}
