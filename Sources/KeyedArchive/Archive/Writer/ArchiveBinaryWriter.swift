import Foundation

extension ArchiveObjectTable {
    /// Writes the archive as a binary property list, freeing the table as it goes: once.
    func binary() -> Data {
        finishEncoding()
        var writer = ArchiveBinaryWriter(table: self)
        return writer.write()
    }
}

/// Writes an ``ArchiveObjectTable`` as a `bplist00` file in two passes over the table and
/// no copy of it: the first numbers the file's objects and sizes them (so the reference
/// and offset widths are known), the second writes every byte straight into its place in
/// one buffer of the file's exact size. What the first pass's lookups of shared numbers
/// and data found is logged, so the second reads it back instead of hashing again.
///
/// The file is the one `BinaryPropertyListBuilder` makes from the same calls, byte for
/// byte: objects are numbered in the order the builder was fed (the field keys and a few
/// fixed strings, then each entry — its scalars and UIDs first, its containers last — then
/// `$objects`, `$top` and the root), scalars come first in the file and containers after
/// them, each in numbering order. Strings in the table, its integers and reals are new
/// objects; every other scalar is written once and shared, as the builder does.
struct ArchiveBinaryWriter {
    let table: ArchiveObjectTable

    /// Second pass: bytes are written, and every lookup below finds what the first stored.
    var writing = false
    /// The next object's reference.
    var next = 0

    // Sizes found by the first pass.
    var scalarBytes = 0
    var markerBytes = 0
    var childRefs = 0
    /// `markerBytes` and `childRefs` before the `$objects` array.
    var objectsArrayAt = (markerBytes: 0, childRefs: 0)

    // Shared objects, by value (filled by the first pass, read by the second).
    var stringRefs: [String: Int] = [:]
    var integerRefs = ScalarRefTable()
    var unsignedRefs = ScalarRefTable()
    var realRefs = ScalarRefTable()
    var floatRefs = ScalarRefTable()
    var wideRefs: [PropertyListWideInteger: Int] = [:]
    var boolRefs: (false: Int, true: Int) = (-1, -1)
    /// UID objects by UID (every UID is below the table's count); `UInt32.max` when none,
    /// or when the reference does not fit (then in `largeUIDRefs`).
    var uidRefs: [UInt32]
    var largeUIDRefs: [Int32: Int] = [:]
    /// Data by a seeded hash of its bytes → index in `dataFirsts` (the first data with that
    /// hash); data whose hash is taken by different bytes goes to `dataCollisions`.
    var dataByHash = ScalarRefTable()
    var dataFirsts: [DataFirst] = []
    var dataCollisions: [Data: Int] = [:]
    static let dataSeed = UInt64.random(in: .min ... .max)
    /// What the first pass's lookups of integers, reals and data found or made, in walk
    /// order: the second pass reads them back instead of looking each up again, and the
    /// tables above are dropped before the file is allocated. Nil when a reference did
    /// not fit in 32 bits (then the second pass looks them up, as the first did).
    var lookups: ChunkedArray<UInt32>? = ChunkedArray()
    var nextLookup = 0

    // Second pass.
    var refSize = 1
    var offsetSize = 1
    var tableStart = 0
    var scalars = FileSink()
    var containers = FileSink()
    var offsets = FileSink()
    /// Where the `$objects` array's references go (written as each entry is numbered).
    var objectsChildren = FileSink()

    // Scratch lists of references.
    var keyRefs: [Int] = []
    var childValues: [Int] = []

    init(table: ArchiveObjectTable) {
        self.table = table
        uidRefs = [UInt32](repeating: .max, count: table.count)
        // Room for half the inline reals at once: growing one step at a time rehashed each
        // real several times over, and room for all made a table about twice the size the
        // distinct ones need on typical records, whose prices, dates and units repeat (the
        // benchmark's 10,000 orders: 55,002 reals, 40,077 distinct; a table of 1.5 MB
        // instead of 768 KB, its every probe past the second-level cache and its pages
        // faulted in on every call). When they are all distinct it grows once. Capped at
        // one key per entry, so that an archive of many equal reals does not make room for
        // more keys than it has objects.
        realRefs = ScalarRefTable(capacity: min(table.inlineRealCount / 2, table.count))
    }

    /// The file.
    mutating func write() -> Data {
        walk()
        if lookups != nil {
            integerRefs.release()
            unsignedRefs.release()
            realRefs.release()
            floatRefs.release()
            dataByHash.release()
            PageRelease.free(&dataFirsts)
            dataCollisions = [:]
        }
        let count = next
        refSize = BinaryPlistEncoding.width(of: UInt64(max(count, 1) - 1))
        tableStart = 8 + scalarBytes + markerBytes + childRefs * refSize
        offsetSize = BinaryPlistEncoding.width(of: UInt64(tableStart))
        let total = tableStart + count * offsetSize + 32
        return OutputBuffer.data(count: total) { buffer in
            // Bounds: the first pass counted every byte the second writes, from the same
            // table through the same steps, and `total` is their sum (header, scalars,
            // containers, offset table, trailer); each sink starts where its region does.
            scalars = FileSink(buffer, at: 8)
            containers = FileSink(buffer, at: 8 + scalarBytes)
            offsets = FileSink(buffer, at: tableStart)
            let objectsArray = 8 + scalarBytes + objectsArrayAt.markerBytes + objectsArrayAt.childRefs * refSize
            objectsChildren = FileSink(buffer, at: objectsArray + BinaryPlistEncoding.markerSize(count: table.count))
            var header = FileSink(buffer, at: 0)
            for byte in [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30] as [UInt8] { header.put(byte) }  // "bplist00"
            writing = true
            next = 0
            let top = walk()
            var trailer = FileSink(buffer, at: tableStart + count * offsetSize)
            for _ in 0..<6 { trailer.put(0) }
            trailer.put(UInt8(offsetSize))
            trailer.put(UInt8(refSize))
            BinaryPlistEncoding.putBigEndian(UInt64(count), size: 8, into: &trailer)
            BinaryPlistEncoding.putBigEndian(UInt64(top), size: 8, into: &trailer)
            BinaryPlistEncoding.putBigEndian(UInt64(tableStart), size: 8, into: &trailer)
        }
    }

    // MARK: - The walk (both passes)

    /// Numbers (first pass) or writes (second) every object; returns the root's reference.
    @discardableResult
    mutating func walk() -> Int {
        keyRefs.removeAll(keepingCapacity: true)
        for key in table.keys { keyRefs.append(string(key)) }
        let classKey = string("$class")
        let classesKey = string("$classes")
        let classNameKey = string("$classname")
        let objectsKey = string("NS.objects")
        let keysKey = string("NS.keys")
        // Read in the table itself (no copy), which the second pass frees as it goes.
        let entries = table.count
        // Moved from record to record: one in the chunk of the one before is read without
        // a new reference to the chunk (see `ChunkedBytes.move(_:to:)`).
        var reader = ObjectRecord.Cursor([], at: 0, chunk: -1)
        var index = 0
        while index < entries {
            let kind = table.kinds[index]
            if kind == .real || kind == .integer, index &+ 1 < entries, table.kinds[index &+ 1] == kind {
                // A run of new numbers (an array of a million), in one loop (see ArchiveBinaryWriter+NumberRuns.swift).
                // A number alone (a dictionary's values between their keys) is written below:
                // setting a run up costs more than one number.
                let end = numberRun(from: index, to: entries, kind: kind)
                // The last point of release passed (see below), if any.
                let released = end & ~2_047 &- 1
                if writing, released >= index {
                    reader = ObjectRecord.Cursor([], at: 0, chunk: -1)
                    releaseWritten(through: released)
                }
                index = end
                continue
            }
            let payload = table.payloads[index]
            let ref: Int
            switch kind {
            case .nullString: ref = newString("$null")
            case .string: ref = newString(entry: payload)
            case .integer: ref = newInteger(Int64(bitPattern: payload))  // (alone; runs above)
            case .unsignedInteger: ref = unsignedInteger(payload)
            case .wideInteger: ref = wideInteger(table.wides[Int(payload)])
            case .real: ref = newReal(payload)  // (alone; runs above)
            case .float: ref = float(UInt32(truncatingIfNeeded: payload))
            case .bool: ref = bool(payload != 0)
            case .data:
                table.arena.move(&reader, to: payload)
                ref = data(reader.dataRange(), of: reader)
            case .classEntry:
                let entry = table.classEntries[Int(payload)]
                childValues.removeAll(keepingCapacity: true)
                for name in entry.classes { childValues.append(string(name)) }
                let list = container(isDictionary: false, keys: [], values: childValues)
                let name = string(entry.name)
                ref = container(isDictionary: true, keys: [classesKey, classNameKey], values: [list, name])
            case .fields, .array, .dictionary:
                table.arena.move(&reader, to: payload)
                ref = object(&reader, kind: kind, keys: (classKey, objectsKey, keysKey))
            }
            if writing {
                Self.putRef(ref, size: refSize, into: &objectsChildren)
                if index & 2_047 == 2_047 {
                    // The chunks about to be freed must be the table's alone.
                    reader = ObjectRecord.Cursor([], at: 0, chunk: -1)
                    releaseWritten(through: index)
                }
            }
            index += 1
        }
        if !writing { objectsArrayAt = (markerBytes, childRefs) }
        let objectsRef = objectsArray(count: entries)
        let topKeys = table.top.map { string(ArchiveKeyEscaping.escape($0.key)) }
        let topValues = table.top.map { uid($0.uid) }
        let topRef = container(isDictionary: true, keys: topKeys, values: topValues)
        let rootKeys = ["$version", "$archiver", "$top", "$objects"].map { string($0) }
        let version = integer(100_000)
        let archiver = string("NSKeyedArchiver")
        return container(isDictionary: true, keys: rootKeys, values: [version, archiver, topRef, objectsRef])
    }

    /// Frees the table's storage of entries `0...index` and the lookups read so far, so that
    /// the table's pages go as the file's come (not without the lookup log: the second pass
    /// then looks data up again anywhere in the table).
    mutating func releaseWritten(through index: Int) {
        guard lookups != nil else { return }
        table.releaseWritten(through: index)
        lookups?.release(below: nextLookup)
    }

    /// An object's dictionary: `$class` and its fields, `NS.objects`, or `NS.keys` and `NS.objects`.
    /// `cursor` is at the object's record.
    mutating func object(_ cursor: inout ObjectRecord.Cursor, kind: ArchiveObjectTable.EntryKind, keys: (class: Int, objects: Int, keys: Int)) -> Int {
        let classRef = uid(cursor.classUID())
        let count = Int(cursor.varint())
        switch kind {
        case .fields:
            // See ArchiveBinaryWriter+Fields.swift.
            return fieldsObject(&cursor, count: count, classKey: keys.class, classRef: classRef)
        case .array:
            let elements = uidArray(&cursor, count: count)
            return smallDictionary(keys: (keys.class, keys.objects, 0), values: (classRef, elements, 0), count: 2)
        default:
            let keyList = uidArray(&cursor, count: count)
            let valueList = uidArray(&cursor, count: count)
            return smallDictionary(keys: (keys.class, keys.keys, keys.objects), values: (classRef, keyList, valueList), count: 3)
        }
    }
}
