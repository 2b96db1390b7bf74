import Foundation

// Where the objects of the table keep their fields: an object being filled has a scratch
// level of its own (reused from object to object); when the value that made it has been
// encoded, its bytes move to the end of `arena` as one record (see ObjectRecord) and the
// level is free again. The table holds no per-object allocation.

/// An object being filled in.
struct OpenObject {
    var uid: Int32 = 0
    var classUID: Int32 = 0
    var count = 0
    /// Fields, elements, or a dictionary's keys.
    var main = RecordScratch()
    /// A dictionary's values (made when first needed).
    var values = RecordScratch(capacity: 0)
    /// Where this object's bytes start in `main` and `values`: before them, the buffers
    /// keep the bytes of the objects stored from this level since they were last emptied
    /// (emptying them after each object cost about as much as storing a small record),
    /// and `main` keeps ``headerRoom`` bytes for the record's header.
    var mainStart = 0
    var valuesStart = 0

    /// Room before an object's bytes in `main` for its record's header (class UID and
    /// count, LEB128), written there when it is stored so that the record is one copy.
    static let headerRoom = 15

    // Each change is one access to the table's array of levels (one uniqueness check).

    @inline(__always)
    mutating func reset(uid: Int32, classUID: Int32) {
        self.uid = uid
        self.classUID = classUID
        count = 0
        main.appendUninitialized(Self.headerRoom)
        mainStart = main.count
        valuesStart = values.count
    }

    @inline(__always)
    mutating func appendField(key: Int32, _ value: ObjectBox.Value) {
        ObjectRecord.appendField(key: key, value, to: &main)
        count += 1
    }

    @inline(__always)
    mutating func appendDataField(key: Int32, _ bytes: UnsafeRawBufferPointer) {
        ObjectRecord.appendDataField(key: key, bytes, to: &main)
        count += 1
    }

    @inline(__always)
    mutating func appendElement(_ element: Int32) {
        main.appendLE32(UInt32(bitPattern: element))
        count += 1
    }

    /// Appends `elements` in order, as ``appendElement(_:)`` one by one, with room made once.
    @inline(__always)
    mutating func appendElements(_ elements: UnsafeBufferPointer<Int32>) {
        main.appendLE32s(elements.count) { UInt32(bitPattern: elements[$0]) }
        count += elements.count
    }

    /// Moves the object's bytes to `arena` as one record (see ObjectRecord) and returns its
    /// address. The next object at this level starts after them; a buffer is emptied in
    /// place once it holds `emptiedAt` bytes, and released when above `keptScratch`.
    mutating func moveRecord(into arena: inout ChunkedBytes, keptScratch: Int, emptiedAt: Int) -> UInt64 {
        let reader = Int(uid)
        let classBits = UInt64(UInt32(bitPattern: classUID))
        let count = UInt64(count)
        let valuesCount = values.count - valuesStart
        // The header, just before the object's bytes, in the room `reset` kept.
        let headerStart = mainStart - ObjectRecord.varintSize(classBits) - ObjectRecord.varintSize(count)
        let countAt = main.storeVarint(classBits, at: headerStart)
        _ = main.storeVarint(count, at: countAt)
        let record = main.bytes(from: headerStart)
        let address = arena.append(size: record.count + valuesCount, reader: reader) { place in
            place.copyMemory(from: record)
            // Only dictionaries have values.
            if valuesCount > 0 {
                UnsafeMutableRawBufferPointer(rebasing: place[record.count...]).copyMemory(from: values.bytes(from: valuesStart))
            }
        }
        Self.release(&main, keptScratch: keptScratch, emptiedAt: emptiedAt)
        if valuesCount > 0 { Self.release(&values, keptScratch: keptScratch, emptiedAt: emptiedAt) }
        return address
    }

    /// Empties `buffer` once it holds `emptiedAt` bytes, and replaces it when its capacity
    /// is above `keptScratch` (the next object at this level starts at its end).
    @inline(__always)
    private static func release(_ buffer: inout RecordScratch, keptScratch: Int, emptiedAt: Int) {
        if buffer.capacity > keptScratch {
            buffer = RecordScratch()
        } else if buffer.count >= emptiedAt {
            buffer.removeAll()
        }
    }

    /// The object's bytes so far (copies, for ``ArchiveObjectTable/record(of:)``).
    var bytes: (main: [UInt8], values: [UInt8]) { (Array(main.bytes(from: mainStart)), Array(values.bytes(from: valuesStart))) }

    /// Sets the object's bytes (an object stored and opened again).
    mutating func setBytes(main: [UInt8], values: [UInt8]) {
        self.main = RecordScratch(capacity: Self.headerRoom + main.count)
        self.main.appendUninitialized(Self.headerRoom)
        self.main.appendBytes(main)
        self.values = RecordScratch(copying: values)
        mainStart = Self.headerRoom
        valuesStart = 0
    }
}

extension ArchiveObjectTable {
    /// Marks a payload as an open object's level rather than a record's offset.
    static let openFlag: UInt64 = 1 << 63
    /// Scratch buffers larger than this are released when their object is stored, not kept.
    private static let keptScratch = 1 << 16
    /// Scratch buffers are emptied once they hold this many bytes (see `OpenObject.mainStart`).
    private static let scratchEmptiedAt = 1 << 12

    /// A new object of `kind`, open for filling, of the class `classUID` gives. `classUID`
    /// runs after the object's entry is appended (a class entry it makes comes after the
    /// object, as the file's order wants) and before its level is set, which is then set once.
    @inline(__always)
    func openObject(kind: ObjectBox.Kind, classUID: () -> Int32) -> ObjectBox {
        let opened = openEntry(kind: kind, classUID: classUID)
        return ObjectBox(table: self, uid: opened.uid, kind: kind, level: opened.level)
    }

    /// ``openObject(kind:classUID:)`` without the box (which holds the table): the new
    /// object's UID and level.
    @inline(__always)
    func openEntry(kind: ObjectBox.Kind, classUID: () -> Int32) -> (uid: Int32, level: Int) {
        let uid = appendEntry(EntryKind(kind), Self.openFlag | UInt64(openDepth))
        occupyLevel(uid: uid, classUID: classUID())
        return (uid, openDepth - 1)
    }

    /// Opens a level for an object already in the table (its payload then names the level).
    private func pushLevel(uid: Int32, classUID: Int32) {
        payloads[Int(uid)] = Self.openFlag | UInt64(openDepth)
        occupyLevel(uid: uid, classUID: classUID)
    }

    @inline(__always)
    private func occupyLevel(uid: Int32, classUID: Int32) {
        if openDepth == openObjects.count { openObjects.append(OpenObject()) }
        openObjects[openDepth].reset(uid: uid, classUID: classUID)
        openDepth += 1
    }

    /// Objects opened so far and not yet stored: a mark for ``close(downTo:)``.
    var openMark: Int { openDepth }

    /// Stores every object opened since `mark` (the values that made them are encoded).
    func close(downTo mark: Int) {
        while openDepth > mark {
            openDepth -= 1
            store(level: openDepth)
        }
    }

    func closeAll() { close(downTo: 0) }

    /// Moves a level's bytes to the arena as a record.
    private func store(level: Int) {
        let uid = openObjects[level].uid
        payloads[Int(uid)] = openObjects[level].moveRecord(
            into: &arena, keptScratch: Self.keptScratch, emptiedAt: Self.scratchEmptiedAt)
    }

    /// The open level of `box`'s object: the level it was opened at while it still holds
    /// it (the usual case, no lookup), else through its payload; an object already stored
    /// is opened again (only when a container or `superEncoder` outlives the value that
    /// made it).
    @inline(__always)
    func openLevel(of box: ObjectBox) -> Int {
        openLevel(uid: box.uid, hint: box.level)
    }

    /// The open level of object `uid`, opened at level `hint` (see ``openLevel(of:)``).
    @inline(__always)
    func openLevel(uid: Int32, hint level: Int) -> Int {
        if level >= 0, level < openDepth, openObjects[level].uid == uid { return level }
        let payload = payloads[Int(uid)]
        if payload & Self.openFlag != 0 { return Int(truncatingIfNeeded: payload & ~Self.openFlag) }
        return reopen(uid)
    }

    // Appending to an open object by its UID and level hint, as ``ObjectBox`` does: for the
    // encoder's containers, which keep those without a box (a box holds the table, so making
    // one per field or element retained the table and released it).

    /// Appends a field to the `.fields` object `uid` (opened at level `hint`).
    @inline(__always)
    func appendField(key: Int32, _ value: ObjectBox.Value, uid: Int32, hint: Int) {
        let level = openLevel(uid: uid, hint: hint)
        if case .real = value { inlineRealCount &+= 1 }
        openObjects[level].appendField(key: key, value)
    }

    /// Appends an element to the `.array` object `uid` (opened at level `hint`).
    @inline(__always)
    func appendElement(_ element: Int32, uid: Int32, hint: Int) {
        let level = openLevel(uid: uid, hint: hint)
        openObjects[level].appendElement(element)
    }

    /// Appends elements to the `.array` object `uid` (opened at level `hint`), in order.
    @inline(__always)
    func appendElements(_ elements: UnsafeBufferPointer<Int32>, uid: Int32, hint: Int) {
        let level = openLevel(uid: uid, hint: hint)
        openObjects[level].appendElements(elements)
    }

    /// Fields, elements or entries so far of the object `uid` (opened at level `hint`).
    @inline(__always)
    func openCount(uid: Int32, hint: Int) -> Int {
        openObjects[openLevel(uid: uid, hint: hint)].count
    }

    @inline(never)
    private func reopen(_ uid: Int32) -> Int {
        let record = record(of: uid)
        pushLevel(uid: uid, classUID: record.classUID)
        let level = openDepth - 1
        openObjects[level].count = record.count
        openObjects[level].setBytes(main: record.main, values: record.values)
        return level
    }

    /// An object's class, count and bytes (copies: for conversions and the rare reopening).
    func record(of uid: Int32) -> (classUID: Int32, count: Int, main: [UInt8], values: [UInt8]) {
        let payload = payloads[Int(uid)]
        if payload & Self.openFlag != 0 {
            let object = openObjects[Int(truncatingIfNeeded: payload & ~Self.openFlag)]
            let bytes = object.bytes
            return (object.classUID, object.count, bytes.main, bytes.values)
        }
        var cursor = arena.cursor(at: payload)
        let bytes = cursor.bytes
        let classUID = cursor.classUID()
        let count = Int(cursor.varint())
        let start = cursor.position
        switch kinds[Int(uid)] {
        case .fields:
            cursor.skipFields(count)
            return (classUID, count, Array(bytes[start..<cursor.position]), [])
        case .dictionary:
            let middle = start + count * 4
            return (classUID, count, Array(bytes[start..<middle]), Array(bytes[middle..<(middle + count * 4)]))
        default:
            return (classUID, count, Array(bytes[start..<(start + count * 4)]), [])
        }
    }
}

extension ArchiveObjectTable.EntryKind {
    init(_ kind: ObjectBox.Kind) {
        switch kind {
        case .fields: self = .fields
        case .array: self = .array
        case .dictionary: self = .dictionary
        }
    }
}
