import Foundation

/// Builds a `bplist00` file object by object.
///
/// Scalars are encoded into one byte buffer as they are added; containers record their
/// children's references and are written at the end, once the object count (and so the
/// narrowest reference width) is known. Equal strings, numbers, dates, data and UIDs are
/// stored once. Hashing is done by the caller's choice of entry point: the archive writer
/// adds keys it has already interned through ``string(_:)`` once per distinct key.
struct BinaryPropertyListBuilder {
    /// Encoded scalar objects, back to back.
    private var scalars: [UInt8] = []
    /// Per object: its offset in `scalars` (≥ 0), or `~index` into `containers`.
    private var locations: [Int] = []
    /// Containers, written after the scalars.
    private var containers: [Container] = []
    /// Child references of every container, back to back, in storage of their own (a
    /// container's are copied in with one capacity check, no uniqueness check). Shared by
    /// copies of the builder: a builder is used in place, never copied.
    private let childRefs = XMLPlistRefStack()

    private struct Container {
        var isDictionary: Bool
        var start: Int
        /// Number of entries (a dictionary has twice as many references).
        var count: Int
    }

    // Uniquing tables.
    /// Strings by their exact UTF-8 bytes: Swift's `==` calls canonically equivalent
    /// spellings (`"é"` and `"e"` + U+0301) equal, and uniting them would read one back as
    /// the other.
    private var stringRefs: [ExactString: Int] = [:]
    // Scalars by bit pattern, in seeded open-addressing tables (much cheaper than `Hasher`).
    private var integerRefs = ScalarRefTable()
    private var unsignedRefs = ScalarRefTable()
    private var realRefs = ScalarRefTable()
    private var floatRefs = ScalarRefTable()
    private var dateRefs = ScalarRefTable()
    /// Data by a seeded hash of its bytes (the first data with each hash, its bytes found
    /// where they are stored in `scalars`); the rare data whose hash is taken by different
    /// bytes goes to `dataCollisions` (a `Dictionary`, so crafted collisions cost what they
    /// cost before, not a long probe).
    private var dataByHash = ScalarRefTable()
    private var dataValues: [(start: Int, count: Int, ref: Int)] = []
    private var dataCollisions: [Data: Int] = [:]
    private static let dataSeed = UInt64.random(in: .min ... .max)
    /// Integers beyond 64 bits (rare): by value.
    private var wideRefs: [PropertyListWideInteger: Int] = [:]
    /// Small UIDs (the usual case, bounded by the archive's object count) in a dense table.
    private var smallUIDRefs: [Int] = []
    private var largeUIDRefs = ScalarRefTable()
    private var boolRefs: (false: Int, true: Int) = (-1, -1)

    /// Number of objects added so far.
    var objectCount: Int { locations.count }

    /// Whether equal integers and reals are stored once (see ``init(expectedObjects:expectedChildRefs:uniquingNumbers:)``).
    private let uniquesNumbers: Bool

    /// A builder with room for `expectedObjects` objects and `expectedChildRefs` container
    /// children.
    ///
    /// `uniquingNumbers: false` stores every integer and real as an object of its own: what
    /// a property list read from XML for decoding wants (each number there is its own
    /// element already, so uniquing would cost a hash lookup per number and save only
    /// bytes that are thrown away after the decode). Strings, data, dates and UIDs are
    /// uniqued either way.
    init(expectedObjects: Int = 0, expectedChildRefs: Int = 0, uniquingNumbers: Bool = true) {
        uniquesNumbers = uniquingNumbers
        scalars.reserveCapacity(expectedObjects * 8)
        locations.reserveCapacity(expectedObjects)
        childRefs.reserveCapacity(expectedChildRefs)
    }

    // MARK: - Scalars

    private mutating func beginScalar() -> Int {
        let ref = locations.count
        locations.append(scalars.count)
        return ref
    }

    mutating func integer(_ value: Int64) -> Int {
        guard uniquesNumbers else { return appendInteger(value) }
        let key = UInt64(bitPattern: value)
        if let ref = integerRefs.ref(for: key) { return ref }
        let ref = appendInteger(value)
        integerRefs.insert(key, ref)
        return ref
    }

    /// Adds an integer without looking for an equal one (the caller knows it is new).
    mutating func appendInteger(_ value: Int64) -> Int {
        let ref = beginScalar()
        BinaryPlistEncoding.putInteger(value, into: &scalars)
        return ref
    }

    /// An unsigned integer; values above `Int64.max` take the 16-byte form.
    mutating func unsignedInteger(_ value: UInt64) -> Int {
        if value <= UInt64(Int64.max) { return integer(Int64(value)) }
        guard uniquesNumbers else { return appendUnsignedAboveInt64(value) }
        if let ref = unsignedRefs.ref(for: value) { return ref }
        let ref = appendUnsignedAboveInt64(value)
        unsignedRefs.insert(value, ref)
        return ref
    }

    private mutating func appendUnsignedAboveInt64(_ value: UInt64) -> Int {
        let ref = beginScalar()
        BinaryPlistEncoding.putUnsignedAboveInt64(value, into: &scalars)
        return ref
    }

    /// An integer of any width: the 64-bit forms when it fits (byte for byte as
    /// ``integer(_:)`` and ``unsignedInteger(_:)`` write it), else 16 bytes signed, or 32
    /// bytes signed above `Int128.max` (a 16-byte integer is signed, as CoreFoundation and
    /// Python's plistlib read it).
    mutating func wideInteger(_ value: PropertyListWideInteger) -> Int {
        if let i = value.int64Value { return integer(i) }
        if let u = value.uint64Value { return unsignedInteger(u) }
        if let ref = wideRefs[value] { return ref }
        let ref = beginScalar()
        BinaryPlistEncoding.putWide(value, into: &scalars)
        wideRefs[value] = ref
        return ref
    }

    mutating func real(_ value: Double) -> Int {
        guard uniquesNumbers else { return appendReal(value) }
        let bits = value.bitPattern
        if let ref = realRefs.ref(for: bits) { return ref }
        let ref = appendReal(value)
        realRefs.insert(bits, ref)
        return ref
    }

    /// Adds an 8-byte real without looking for an equal one.
    mutating func appendReal(_ value: Double) -> Int {
        let ref = beginScalar()
        BinaryPlistEncoding.putReal(bits: value.bitPattern, into: &scalars)
        return ref
    }

    mutating func float(_ value: Float) -> Int {
        let bits = value.bitPattern
        if let ref = floatRefs.ref(for: UInt64(bits)) { return ref }
        let ref = beginScalar()
        BinaryPlistEncoding.putFloat(bits: bits, into: &scalars)
        floatRefs.insert(UInt64(bits), ref)
        return ref
    }

    mutating func bool(_ value: Bool) -> Int {
        let existing = value ? boolRefs.true : boolRefs.false
        if existing >= 0 { return existing }
        let ref = beginScalar()
        scalars.append(value ? 0x09 : 0x08)
        if value { boolRefs.true = ref } else { boolRefs.false = ref }
        return ref
    }

    mutating func date(_ secondsSince2001: Double) -> Int {
        let bits = secondsSince2001.bitPattern
        if let ref = dateRefs.ref(for: bits) { return ref }
        let ref = beginScalar()
        BinaryPlistEncoding.putReal(bits: bits, marker: 0x33, into: &scalars)
        dateRefs.insert(bits, ref)
        return ref
    }

    mutating func data(_ value: Data) -> Int {
        value.withUnsafeBytes { raw in data(bytes: raw.bindMemory(to: UInt8.self)) }
    }

    /// ``data(_:)`` of the data whose bytes are `bytes` (no `Data` made unless its hash is
    /// taken by other bytes).
    mutating func data(bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let hash = ByteHash.hash(bytes, seed: Self.dataSeed)
        let first = dataByHash.ref(for: hash)
        if let first {
            let stored = dataValues[first]
            if storedScalars(stored.start, stored.count, equal: bytes) { return stored.ref }
            if !dataCollisions.isEmpty, let ref = dataCollisions[Data(bytes)] { return ref }
        }
        let ref = beginScalar()
        BinaryPlistEncoding.putMarker(0x40, count: bytes.count, into: &scalars)
        let start = scalars.count
        scalars.append(contentsOf: bytes)
        if first == nil {
            dataByHash.insert(hash, dataValues.count)
            dataValues.append((start, bytes.count, ref))
        } else {
            dataCollisions[Data(bytes)] = ref
        }
        return ref
    }

    /// Whether `scalars[start..<start + count]` (checked against its bounds) holds `bytes`.
    private func storedScalars(_ start: Int, _ count: Int, equal bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == bytes.count, start >= 0, start <= scalars.count - count else { return false }
        guard count > 0, let other = bytes.baseAddress else { return true }
        return scalars.withUnsafeBufferPointer { stored in
            guard let base = stored.baseAddress else { return false }
            return memcmp(base + start, other, count) == 0
        }
    }

    mutating func string(_ value: String) -> Int {
        let key = ExactString(value)
        if let ref = stringRefs[key] { return ref }
        let ref = appendString(value)
        stringRefs[key] = ref
        return ref
    }

    /// Adds a string without looking for an equal one (the archive's strings are unique already).
    mutating func appendString(_ value: String) -> Int {
        let ref = beginScalar()
        BinaryPlistEncoding.putString(value, into: &scalars)
        return ref
    }

    /// Adds the string whose UTF-8 (well-formed) is `utf8` without looking for an equal one:
    /// the bytes ``appendString(_:)`` writes for that string, without making a `String`
    /// when it is ASCII.
    mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let ref = beginScalar()
        if !BinaryPlistEncoding.putASCIIString(utf8, into: &scalars) {
            BinaryPlistEncoding.putString(String(decoding: utf8, as: UTF8.self), into: &scalars)
        }
        return ref
    }

    /// The UID object for `value`: one inlined look-up when it is small and seen before.
    @inline(__always)
    mutating func uid(_ value: UInt64) -> Int {
        if value < 1 << 20, Int(value) < smallUIDRefs.count, smallUIDRefs[Int(value)] >= 0 { return smallUIDRefs[Int(value)] }
        return addUID(value)
    }

    /// ``uid(_:)`` for a UID not in the dense table yet (or too large for it).
    @inline(never)
    private mutating func addUID(_ value: UInt64) -> Int {
        if value < 1 << 20 {
            let index = Int(value)
            if index >= smallUIDRefs.count {
                // Grown by half at least (archives number objects upwards), within its bound.
                let size = Swift.min(Swift.max(index + 1, smallUIDRefs.count + smallUIDRefs.count / 2), 1 << 20)
                smallUIDRefs.append(contentsOf: repeatElement(-1, count: size - smallUIDRefs.count))
            }
            let ref = appendUID(value)
            smallUIDRefs[index] = ref
            return ref
        }
        if let ref = largeUIDRefs.ref(for: value) { return ref }
        let ref = appendUID(value)
        largeUIDRefs.insert(value, ref)
        return ref
    }

    private mutating func appendUID(_ value: UInt64) -> Int {
        let ref = beginScalar()
        BinaryPlistEncoding.putUID(value, into: &scalars)
        return ref
    }

    // MARK: - Containers

    /// Adds an array of already-added objects.
    mutating func array<C: Collection>(_ refs: C) -> Int where C.Element == Int {
        let ref = locations.count
        locations.append(~containers.count)
        containers.append(Container(isDictionary: false, start: childRefs.count, count: refs.count))
        appendChildren(refs)
        return ref
    }

    /// Adds an array of UID objects, one per archive UID.
    mutating func uidArray(_ uids: [Int32]) -> Int {
        let start = childRefs.count
        // `uid(_:)` adds scalars only, so the children stay contiguous.
        for value in uids { childRefs.push(uid(UInt64(UInt32(bitPattern: value)))) }
        let ref = locations.count
        locations.append(~containers.count)
        containers.append(Container(isDictionary: false, start: start, count: uids.count))
        return ref
    }

    /// Adds a dictionary; `keys` and `values` have the same count.
    mutating func dictionary<K: Collection, V: Collection>(keys: K, values: V) -> Int
    where K.Element == Int, V.Element == Int {
        let ref = locations.count
        locations.append(~containers.count)
        containers.append(Container(isDictionary: true, start: childRefs.count, count: keys.count))
        appendChildren(keys)
        appendChildren(values)
        return ref
    }

    /// Appends `refs` to `childRefs`: in one copy when they are contiguous (always, from
    /// the XML readers).
    @inline(__always)
    private func appendChildren<C: Collection>(_ refs: C) where C.Element == Int {
        if refs.withContiguousStorageIfAvailable({ childRefs.push(contentsOf: $0) }) == nil {
            for ref in refs { childRefs.push(ref) }
        }
    }

    // MARK: - Output

    /// Stores each of `values` as four bytes, big-endian (its low 32 bits), one store apiece
    /// from `base`; returns the bytes stored. The caller has counted the room (`layout()`).
    @inline(__always)
    private static func storeBigEndian32<S: Sequence>(_ values: S, at base: UnsafeMutableRawPointer) -> Int where S.Element == Int {
        var offset = 0
        for value in values {
            base.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, toByteOffset: offset, as: UInt32.self)
            offset &+= 4
        }
        return offset
    }

    /// Writes the file with `top` as its root object, into one buffer of the exact size.
    func finish(top: Int) -> [UInt8] {
        let layout = self.layout()
        return [UInt8](unsafeUninitializedCapacity: layout.total) { buffer, initialized in
            initialized = write(top: top, layout: layout, into: buffer)
        }
    }

    /// Writes the file with `top` as its root object straight into `Data` (no copy of an
    /// array into it: the archive encoder's output).
    func finishData(top: Int) -> Data {
        let layout = self.layout()
        var data = Data(count: layout.total)
        data.withUnsafeMutableBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            _ = write(top: top, layout: layout, into: buffer)
        }
        return data
    }

    /// Sizes of the file being finished.
    private struct Layout {
        var refSize: Int
        var offsetSize: Int
        var tableStart: Int
        var total: Int
    }

    private func layout() -> Layout {
        let count = locations.count
        let refSize = BinaryPlistEncoding.width(of: UInt64(max(count, 1) - 1))
        // Sizes first: every container's marker, length and references.
        var containerBytes = 0
        for container in containers {
            let refCount = container.isDictionary ? container.count * 2 : container.count
            containerBytes += BinaryPlistEncoding.markerSize(count: container.count) + refCount * refSize
        }
        let tableStart = 8 + scalars.count + containerBytes
        let offsetSize = BinaryPlistEncoding.width(of: UInt64(tableStart))
        return Layout(refSize: refSize, offsetSize: offsetSize, tableStart: tableStart,
                      total: tableStart + count * offsetSize + 32)
    }

    /// Writes the whole file into `buffer` (of exactly `layout.total` bytes, which
    /// `layout()` computed from the same objects) and returns the bytes written.
    private func write(top: Int, layout: Layout, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let count = locations.count
        let refSize = layout.refSize, offsetSize = layout.offsetSize, tableStart = layout.tableStart
        guard let start = UnsafeMutableRawPointer(buffer.baseAddress) else { return 0 }  // never: a file is 40 bytes or more
        do {
            var position = 0
            @inline(__always) func put(_ byte: UInt8) {
                buffer[position] = byte
                position += 1
            }
            @inline(__always) func putBigEndian(_ value: UInt64, size: Int) {
                var shift = (size - 1) * 8
                while shift >= 0 {
                    buffer[position] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
                    position += 1
                    shift -= 8
                }
            }
            for byte in [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30] as [UInt8] { put(byte) }  // "bplist00"
            scalars.withUnsafeBufferPointer { source in
                if let base = source.baseAddress, let destination = buffer.baseAddress {
                    (destination + position).update(from: base, count: source.count)
                }
            }
            position += scalars.count
            var containerOffsets = [Int](repeating: 0, count: containers.count)
            do {
                let children = childRefs.top(from: 0)  // nothing is pushed while writing
                for (index, container) in containers.enumerated() {
                    containerOffsets[index] = position
                    let high: UInt8 = container.isDictionary ? 0xD0 : 0xA0
                    if container.count < 15 {
                        put(high | UInt8(container.count))
                    } else {
                        put(high | 0x0F)
                        let size = BinaryPlistEncoding.width(of: UInt64(container.count))
                        put(0x10 | UInt8(size.trailingZeroBitCount))
                        putBigEndian(UInt64(container.count), size: size)
                    }
                    let refCount = container.isDictionary ? container.count * 2 : container.count
                    let range = container.start..<(container.start + refCount)
                    // The common widths unrolled (each reference is below 2^(8 × refSize)).
                    switch refSize {
                    case 1:
                        for i in range { put(UInt8(truncatingIfNeeded: children[i])) }
                    case 2:
                        for i in range {
                            put(UInt8(truncatingIfNeeded: children[i] >> 8))
                            put(UInt8(truncatingIfNeeded: children[i]))
                        }
                    case 4:
                        // Bounds: `refCount * 4` bytes from `position`, counted by `layout()`.
                        position += Self.storeBigEndian32(range.lazy.map { children[$0] }, at: start + position)
                    default:
                        for i in range { putBigEndian(UInt64(children[i]), size: refSize) }
                    }
                }
            }
            if offsetSize == 4 {
                // The usual width, one store per offset. Bounds: `count * 4` bytes from
                // `position`, counted by `layout()`.
                position += Self.storeBigEndian32(locations.lazy.map { $0 >= 0 ? 8 + $0 : containerOffsets[~$0] }, at: start + position)
            } else {
                for location in locations {
                    putBigEndian(UInt64(location >= 0 ? 8 + location : containerOffsets[~location]), size: offsetSize)
                }
            }
            for _ in 0..<6 { put(0) }
            put(UInt8(offsetSize))
            put(UInt8(refSize))
            putBigEndian(UInt64(count), size: 8)
            putBigEndian(UInt64(top), size: 8)
            putBigEndian(UInt64(tableStart), size: 8)
            return position
        }
    }
}

/// A string compared and hashed by its exact UTF-8 bytes, not by canonical equivalence.
struct ExactString: Hashable {
    let value: String

    init(_ value: String) { self.value = value }

    static func == (a: ExactString, b: ExactString) -> Bool {
        a.value.utf8.elementsEqual(b.value.utf8)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(value.utf8.count)
        // The bytes in one call (a byte at a time costs several times as much), copied
        // first when they are not contiguous (bridged strings), so equal strings hash alike.
        let hashed: Void? = value.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            Array(value.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
