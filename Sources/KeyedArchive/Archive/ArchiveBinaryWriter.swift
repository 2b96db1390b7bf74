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
    private let table: ArchiveObjectTable

    /// Second pass: bytes are written, and every lookup below finds what the first stored.
    private var writing = false
    /// The next object's reference.
    private var next = 0

    // Sizes found by the first pass.
    private var scalarBytes = 0
    private var markerBytes = 0
    private var childRefs = 0
    /// `markerBytes` and `childRefs` before the `$objects` array.
    private var objectsArrayAt = (markerBytes: 0, childRefs: 0)

    // Shared objects, by value (filled by the first pass, read by the second).
    private var stringRefs: [String: Int] = [:]
    private var integerRefs = ScalarRefTable()
    private var unsignedRefs = ScalarRefTable()
    private var realRefs = ScalarRefTable()
    private var floatRefs = ScalarRefTable()
    private var wideRefs: [PropertyListWideInteger: Int] = [:]
    private var boolRefs: (false: Int, true: Int) = (-1, -1)
    /// UID objects by UID (every UID is below the table's count); `UInt32.max` when none,
    /// or when the reference does not fit (then in `largeUIDRefs`).
    private var uidRefs: [UInt32]
    private var largeUIDRefs: [Int32: Int] = [:]
    /// Data by a seeded hash of its bytes → index in `dataFirsts` (the first data with that
    /// hash); data whose hash is taken by different bytes goes to `dataCollisions`.
    private var dataByHash = ScalarRefTable()
    private var dataFirsts: [DataFirst] = []
    private var dataCollisions: [Data: Int] = [:]
    private static let dataSeed = UInt64.random(in: .min ... .max)
    /// What the first pass's lookups of integers, reals and data found or made, in walk
    /// order: the second pass reads them back instead of looking each up again, and the
    /// tables above are dropped before the file is allocated. Nil when a reference did
    /// not fit in 32 bits (then the second pass looks them up, as the first did).
    private var lookups: ChunkedArray<UInt32>? = ChunkedArray()
    private var nextLookup = 0

    // Second pass.
    private var refSize = 1
    private var offsetSize = 1
    private var tableStart = 0
    private var scalars = FileSink()
    private var containers = FileSink()
    private var offsets = FileSink()
    /// Where the `$objects` array's references go (written as each entry is numbered).
    private var objectsChildren = FileSink()

    // Scratch lists of references.
    private var keyRefs: [Int] = []
    private var childValues: [Int] = []

    init(table: ArchiveObjectTable) {
        self.table = table
        uidRefs = [UInt32](repeating: .max, count: table.count)
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
    private mutating func walk() -> Int {
        keyRefs.removeAll(keepingCapacity: true)
        for key in table.keys { keyRefs.append(string(key)) }
        let classKey = string("$class")
        let classesKey = string("$classes")
        let classNameKey = string("$classname")
        let objectsKey = string("NS.objects")
        let keysKey = string("NS.keys")
        // Read in the table itself (no copy), which the second pass frees as it goes.
        let entries = table.count
        for index in 0..<entries {
            let payload = table.payloads[index]
            let kind = table.kinds[index]
            let ref: Int
            switch kind {
            case .nullString: ref = newString("$null")
            case .string: ref = newString(table.storedString(payload))
            case .integer: ref = newInteger(Int64(bitPattern: payload))
            case .unsignedInteger: ref = unsignedInteger(payload)
            case .wideInteger: ref = wideInteger(table.wides[Int(payload)])
            case .real: ref = newReal(payload)
            case .float: ref = float(UInt32(truncatingIfNeeded: payload))
            case .bool: ref = bool(payload != 0)
            case .data:
                var cursor = table.arena.cursor(at: payload)
                ref = data(cursor.dataRange(), of: cursor)
            case .classEntry:
                let entry = table.classEntries[Int(payload)]
                childValues.removeAll(keepingCapacity: true)
                for name in entry.classes { childValues.append(string(name)) }
                let list = container(isDictionary: false, keys: [], values: childValues)
                let name = string(entry.name)
                ref = container(isDictionary: true, keys: [classesKey, classNameKey], values: [list, name])
            case .fields, .array, .dictionary:
                ref = object(at: payload, kind: kind, keys: (classKey, objectsKey, keysKey))
            }
            if writing {
                Self.putRef(ref, size: refSize, into: &objectsChildren)
                if index & 2_047 == 2_047 { releaseWritten(through: index) }
            }
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
    private mutating func releaseWritten(through index: Int) {
        guard lookups != nil else { return }
        table.releaseWritten(through: index)
        lookups?.release(below: nextLookup)
    }

    /// An object's dictionary: `$class` and its fields, `NS.objects`, or `NS.keys` and `NS.objects`.
    private mutating func object(at address: UInt64, kind: ArchiveObjectTable.EntryKind, keys: (class: Int, objects: Int, keys: Int)) -> Int {
        var cursor = table.arena.cursor(at: address)
        let classRef = uid(cursor.classUID())
        let count = Int(cursor.varint())
        switch kind {
        case .fields:
            // The values are scalars (no container comes between), so the dictionary's
            // references are written in place as each value is numbered.
            let entries = count + 1
            var open = openContainer(isDictionary: true, count: entries)
            if writing {
                Self.putRef(keys.class, size: refSize, into: &open.keys)
                Self.putRef(classRef, size: refSize, into: &open.values)
            }
            for _ in 0..<count {
                let (key, stored) = cursor.field()
                let value: Int
                switch stored {
                case .uid(let u): value = uid(u)
                case .integer(let i): value = integer(i)
                case .real(let bits): value = real(bits)
                case .float(let bits): value = float(bits)
                case .bool(let b): value = bool(b)
                case .data(let range): value = data(range, of: cursor)
                }
                if writing {
                    Self.putRef(keyRefs[Int(key)], size: refSize, into: &open.keys)
                    Self.putRef(value, size: refSize, into: &open.values)
                }
            }
            return closeContainer(open)
        case .array:
            let elements = uidArray(&cursor, count: count)
            return smallDictionary(keys: (keys.class, keys.objects, 0), values: (classRef, elements, 0), count: 2)
        default:
            let keyList = uidArray(&cursor, count: count)
            let valueList = uidArray(&cursor, count: count)
            return smallDictionary(keys: (keys.class, keys.keys, keys.objects), values: (classRef, keyList, valueList), count: 3)
        }
    }

    /// An array of `count` UID objects read from `cursor` (written in place, as above).
    private mutating func uidArray(_ cursor: inout ObjectRecord.Cursor, count: Int) -> Int {
        var open = openContainer(isDictionary: false, count: count)
        for _ in 0..<count {
            let ref = uid(cursor.uid())
            if writing { Self.putRef(ref, size: refSize, into: &open.values) }
        }
        return closeContainer(open)
    }

    /// A container whose references are written as they are found: in the second pass its
    /// marker is written and its references' places are set aside (it is the next
    /// container in the file; only scalars are numbered before it is closed).
    private struct OpenContainer {
        var start: Int
        var isDictionary: Bool
        var count: Int
        var keys = FileSink()
        var values = FileSink()
    }

    private mutating func openContainer(isDictionary: Bool, count: Int) -> OpenContainer {
        var open = OpenContainer(start: containers.position, isDictionary: isDictionary, count: count)
        if writing {
            BinaryPlistEncoding.putContainerMarker(isDictionary: isDictionary, count: count, into: &containers)
            if isDictionary {
                open.keys = containers
                containers.position += count * refSize
            }
            open.values = containers
            containers.position += count * refSize
        }
        return open
    }

    /// Numbers a container opened with ``openContainer(isDictionary:count:)``.
    private mutating func closeContainer(_ open: OpenContainer) -> Int {
        let ref = next
        next += 1
        if writing {
            BinaryPlistEncoding.putBigEndian(UInt64(open.start), size: offsetSize, into: &offsets)
        } else {
            markerBytes += BinaryPlistEncoding.markerSize(count: open.count)
            childRefs += open.isDictionary ? 2 * open.count : open.count
        }
        return ref
    }

    /// A dictionary of 2 or 3 entries.
    private mutating func smallDictionary(keys: (Int, Int, Int), values: (Int, Int, Int), count: Int) -> Int {
        var open = openContainer(isDictionary: true, count: count)
        if writing {
            Self.putRef(keys.0, size: refSize, into: &open.keys)
            Self.putRef(keys.1, size: refSize, into: &open.keys)
            Self.putRef(values.0, size: refSize, into: &open.values)
            Self.putRef(values.1, size: refSize, into: &open.values)
            if count > 2 {
                Self.putRef(keys.2, size: refSize, into: &open.keys)
                Self.putRef(values.2, size: refSize, into: &open.values)
            }
        }
        return closeContainer(open)
    }

    /// A reference, `refSize` bytes big-endian (each reference is below 2^(8 × refSize)).
    @inline(__always)
    private static func putRef(_ ref: Int, size refSize: Int, into sink: inout FileSink) {
        BinaryPlistEncoding.putBigEndian(UInt64(ref), size: refSize, into: &sink)
    }

    // MARK: - Objects

    /// Numbers a new object of `size` bytes; in the second pass records its offset.
    @inline(__always)
    private mutating func begin(size: Int, at position: Int) -> Int {
        let ref = next
        next += 1
        if writing {
            BinaryPlistEncoding.putBigEndian(UInt64(position), size: offsetSize, into: &offsets)
        } else {
            scalarBytes += size
        }
        return ref
    }

    @inline(__always)
    private mutating func beginScalar(size: Int) -> Int { begin(size: size, at: scalars.position) }

    /// A container of `values` (an array) or of `keys` and `values` (a dictionary).
    private mutating func container(isDictionary: Bool, keys: [Int], values: [Int]) -> Int {
        let ref = next
        next += 1
        if writing {
            BinaryPlistEncoding.putBigEndian(UInt64(containers.position), size: offsetSize, into: &offsets)
            BinaryPlistEncoding.putContainerMarker(isDictionary: isDictionary, count: values.count, into: &containers)
            for child in keys { Self.putRef(child, size: refSize, into: &containers) }
            for child in values { Self.putRef(child, size: refSize, into: &containers) }
        } else {
            markerBytes += BinaryPlistEncoding.markerSize(count: values.count)
            childRefs += keys.count + values.count
        }
        return ref
    }

    /// `$objects`: its references were written as each entry was numbered.
    private mutating func objectsArray(count: Int) -> Int {
        let ref = next
        next += 1
        if writing {
            BinaryPlistEncoding.putBigEndian(UInt64(containers.position), size: offsetSize, into: &offsets)
            BinaryPlistEncoding.putContainerMarker(isDictionary: false, count: count, into: &containers)
            containers.position += count * refSize
        } else {
            markerBytes += BinaryPlistEncoding.markerSize(count: count)
            childRefs += count
        }
        return ref
    }

    /// A string shared by value (`String` equality, as the builder's dictionary has it).
    private mutating func string(_ value: String) -> Int {
        if let ref = stringRefs[value], !(writing && ref == next) { return ref }
        let ref = newString(value)
        if !writing { stringRefs[value] = ref }
        return ref
    }

    private mutating func newString(_ value: String) -> Int {
        let ref = beginScalar(size: writing ? 0 : BinaryPlistEncoding.stringSize(value))
        if writing { BinaryPlistEncoding.putString(value, into: &scalars) }
        return ref
    }

    private mutating func newInteger(_ value: Int64) -> Int {
        let ref = beginScalar(size: BinaryPlistEncoding.integerSize(value))
        if writing { BinaryPlistEncoding.putInteger(value, into: &scalars) }
        return ref
    }

    private mutating func integer(_ value: Int64) -> Int {
        if let logged = replayedLookup(), logged != next { return logged }
        let key = UInt64(bitPattern: value)
        if !writing || lookups == nil, let ref = integerRefs.ref(for: key), !(writing && ref == next) { return logged(ref) }
        let ref = newInteger(value)
        if !writing { integerRefs.insert(key, ref) }
        return logged(ref)
    }

    private mutating func unsignedInteger(_ value: UInt64) -> Int {
        if value <= UInt64(Int64.max) { return integer(Int64(value)) }
        if let logged = replayedLookup(), logged != next { return logged }
        if !writing || lookups == nil, let ref = unsignedRefs.ref(for: value), !(writing && ref == next) { return logged(ref) }
        let ref = beginScalar(size: 17)
        if writing { BinaryPlistEncoding.putUnsignedAboveInt64(value, into: &scalars) } else { unsignedRefs.insert(value, ref) }
        return logged(ref)
    }

    private mutating func wideInteger(_ value: PropertyListWideInteger) -> Int {
        if let i = value.int64Value { return integer(i) }
        if let u = value.uint64Value { return unsignedInteger(u) }
        if let ref = wideRefs[value], !(writing && ref == next) { return ref }
        let ref = beginScalar(size: BinaryPlistEncoding.wideSize(value))
        if writing { BinaryPlistEncoding.putWide(value, into: &scalars) } else { wideRefs[value] = ref }
        return ref
    }

    private mutating func newReal(_ bits: UInt64) -> Int {
        let ref = beginScalar(size: 9)
        if writing { BinaryPlistEncoding.putReal(bits: bits, into: &scalars) }
        return ref
    }

    private mutating func real(_ bits: UInt64) -> Int {
        if let logged = replayedLookup(), logged != next { return logged }
        if !writing || lookups == nil, let ref = realRefs.ref(for: bits), !(writing && ref == next) { return logged(ref) }
        let ref = newReal(bits)
        if !writing { realRefs.insert(bits, ref) }
        return logged(ref)
    }

    private mutating func float(_ bits: UInt32) -> Int {
        if let logged = replayedLookup(), logged != next { return logged }
        if !writing || lookups == nil, let ref = floatRefs.ref(for: UInt64(bits)), !(writing && ref == next) { return logged(ref) }
        let ref = beginScalar(size: 5)
        if writing { BinaryPlistEncoding.putFloat(bits: bits, into: &scalars) } else { floatRefs.insert(UInt64(bits), ref) }
        return logged(ref)
    }

    /// In the second pass with a log: the reference the first pass's lookup gave at this
    /// point of the walk (`next` when the object is first written here).
    @inline(__always)
    private mutating func replayedLookup() -> Int? {
        guard writing, let lookups else { return nil }
        let ref = Int(lookups[nextLookup])
        nextLookup += 1
        return ref
    }

    /// In the first pass: logs what a lookup gave (see `lookups`); returns it.
    @inline(__always)
    private mutating func logged(_ ref: Int) -> Int {
        if !writing, lookups != nil {
            if let small = UInt32(exactly: ref) { lookups?.append(small) } else { lookups = nil }
        }
        return ref
    }

    private mutating func bool(_ value: Bool) -> Int {
        let existing = value ? boolRefs.true : boolRefs.false
        if existing >= 0, !(writing && existing == next) { return existing }
        let ref = beginScalar(size: 1)
        if writing { scalars.put(value ? 0x09 : 0x08) } else if value { boolRefs.true = ref } else { boolRefs.false = ref }
        return ref
    }

    private mutating func uid(_ value: Int32) -> Int {
        let index = Int(value)
        let known = uidRefs[index]
        if known != .max {
            let ref = Int(known)
            if !(writing && ref == next) { return ref }
        } else if !largeUIDRefs.isEmpty, let ref = largeUIDRefs[value], !(writing && ref == next) {
            return ref
        }
        let unsigned = UInt64(UInt32(bitPattern: value))
        let ref = beginScalar(size: BinaryPlistEncoding.uidSize(unsigned))
        if writing {
            BinaryPlistEncoding.putUID(unsigned, into: &scalars)
        } else if let small = UInt32(exactly: ref), small != .max {
            uidRefs[index] = small
        } else {
            largeUIDRefs[value] = ref
        }
        return ref
    }

    /// Where the first data with a hash is, in the table's records.
    private struct DataFirst {
        var start: Int
        var count: Int
        var chunk: UInt32
        var ref: UInt32
    }

    /// Data shared by its exact bytes (`range` of the chunk `cursor` reads).
    private mutating func data(_ range: Range<Int>, of cursor: ObjectRecord.Cursor) -> Int {
        let bytes = cursor.bytes[range]
        if let logged = replayedLookup() {
            return logged != next ? logged : newData(bytes)
        }
        let hash = bytes.withUnsafeBufferPointer { ByteHash.hash($0, seed: Self.dataSeed) }
        let first = dataByHash.ref(for: hash)
        if let first, table.arena.chunks[Int(dataFirsts[first].chunk)][dataFirsts[first].start..<(dataFirsts[first].start + dataFirsts[first].count)].elementsEqual(bytes) {
            let ref = Int(dataFirsts[first].ref)
            if !(writing && ref == next) { return logged(ref) }
        } else if !dataCollisions.isEmpty, let ref = dataCollisions[Data(bytes)], !(writing && ref == next) {
            return logged(ref)
        }
        let ref = newData(bytes)
        if writing { return ref }
        if first == nil, let chunk = UInt32(exactly: cursor.chunk), let small = UInt32(exactly: ref) {
            dataByHash.insert(hash, dataFirsts.count)
            dataFirsts.append(DataFirst(start: range.lowerBound, count: range.count, chunk: chunk, ref: small))
        } else {
            dataCollisions[Data(bytes)] = ref
        }
        return logged(ref)
    }

    private mutating func newData(_ bytes: ArraySlice<UInt8>) -> Int {
        let ref = beginScalar(size: BinaryPlistEncoding.markerSize(count: bytes.count) + bytes.count)
        if writing {
            BinaryPlistEncoding.putMarker(0x40, count: bytes.count, into: &scalars)
            bytes.withUnsafeBufferPointer { scalars.put(bytes: $0) }
        }
        return ref
    }
}
