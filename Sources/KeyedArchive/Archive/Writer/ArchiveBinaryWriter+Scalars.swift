import Foundation

// The scalars of the file (see ArchiveBinaryWriter.swift): strings, numbers, UIDs and data,
// each shared by value as the builder shares them.
extension ArchiveBinaryWriter {
    /// A string shared by value (`String` equality, as the builder's dictionary has it).
    mutating func string(_ value: String) -> Int {
        if let ref = stringRefs[value], !(writing && ref == next) { return ref }
        let ref = newString(value)
        if !writing { stringRefs[value] = ref }
        return ref
    }

    mutating func newString(_ value: String) -> Int {
        let ref = beginScalar(size: writing ? 0 : BinaryPlistEncoding.stringSize(value))
        if writing { BinaryPlistEncoding.putString(value, into: &scalars) }
        return ref
    }

    /// A string entry of the table (`payload`, see ``StringEntryPayload``): the first pass
    /// takes its size from the payload (the string is not read), the second writes an ASCII
    /// string's bytes as they are (they were checked when it was stored).
    @inline(__always)
    mutating func newString(entry payload: UInt64) -> Int {
        guard let layout = StringEntryPayload.layout(payload) else { return newString(table.storedString(payload)) }
        let ref = beginScalar(size: layout.size)
        if writing {
            let value = table.storedString(payload)
            if layout.isASCII {
                value.withContiguousUTF8 { bytes in
                    BinaryPlistEncoding.putMarker(0x50, count: bytes.count, into: &scalars)
                    scalars.put(bytes: bytes)
                }
            } else {
                BinaryPlistEncoding.putString(value, into: &scalars)
            }
        }
        return ref
    }

    mutating func newInteger(_ value: Int64) -> Int {
        let ref = beginScalar(size: BinaryPlistEncoding.integerSize(value))
        if writing { BinaryPlistEncoding.putInteger(value, into: &scalars) }
        return ref
    }

    /// Inline: the second pass usually reads a logged reference back (see `replayedLookup()`).
    @inline(__always)
    mutating func integer(_ value: Int64) -> Int {
        if let logged = replayedLookup() { return logged != next ? logged : newInteger(value) }
        return lookUpInteger(value)
    }

    @inline(never)
    mutating func lookUpInteger(_ value: Int64) -> Int {
        let key = UInt64(bitPattern: value)
        // First pass: one probe finds the number, or stores it as the object numbered next.
        if !writing { return logged(integerRefs.refOrInsert(key, next) ?? newInteger(value)) }
        if lookups == nil, let ref = integerRefs.ref(for: key), ref != next { return ref }
        return newInteger(value)
    }

    mutating func unsignedInteger(_ value: UInt64) -> Int {
        if value <= UInt64(Int64.max) { return integer(Int64(value)) }
        if let logged = replayedLookup(), logged != next { return logged }
        if !writing || lookups == nil, let ref = unsignedRefs.ref(for: value), !(writing && ref == next) { return logged(ref) }
        let ref = beginScalar(size: 17)
        if writing { BinaryPlistEncoding.putUnsignedAboveInt64(value, into: &scalars) } else { unsignedRefs.insert(value, ref) }
        return logged(ref)
    }

    mutating func wideInteger(_ value: PropertyListWideInteger) -> Int {
        if let i = value.int64Value { return integer(i) }
        if let u = value.uint64Value { return unsignedInteger(u) }
        if let ref = wideRefs[value], !(writing && ref == next) { return ref }
        let ref = beginScalar(size: BinaryPlistEncoding.wideSize(value))
        if writing { BinaryPlistEncoding.putWide(value, into: &scalars) } else { wideRefs[value] = ref }
        return ref
    }

    mutating func newReal(_ bits: UInt64) -> Int {
        let ref = beginScalar(size: 9)
        if writing { BinaryPlistEncoding.putReal(bits: bits, into: &scalars) }
        return ref
    }

    /// Inline, as ``integer(_:)``.
    @inline(__always)
    mutating func real(_ bits: UInt64) -> Int {
        if let logged = replayedLookup() { return logged != next ? logged : newReal(bits) }
        return lookUpReal(bits)
    }

    @inline(never)
    mutating func lookUpReal(_ bits: UInt64) -> Int {
        // As in `lookUpInteger(_:)`.
        if !writing { return logged(realRefs.refOrInsert(bits, next) ?? newReal(bits)) }
        if lookups == nil, let ref = realRefs.ref(for: bits), ref != next { return ref }
        return newReal(bits)
    }

    mutating func float(_ bits: UInt32) -> Int {
        if let logged = replayedLookup(), logged != next { return logged }
        if !writing || lookups == nil, let ref = floatRefs.ref(for: UInt64(bits)), !(writing && ref == next) { return logged(ref) }
        let ref = beginScalar(size: 5)
        if writing { BinaryPlistEncoding.putFloat(bits: bits, into: &scalars) } else { floatRefs.insert(UInt64(bits), ref) }
        return logged(ref)
    }

    /// In the second pass with a log: the reference the first pass's lookup gave at this
    /// point of the walk (`next` when the object is first written here).
    @inline(__always)
    mutating func replayedLookup() -> Int? {
        guard writing, let lookups else { return nil }
        let ref = Int(lookups[nextLookup])
        nextLookup += 1
        return ref
    }

    /// In the first pass: logs what a lookup gave (see `lookups`); returns it.
    @inline(__always)
    mutating func logged(_ ref: Int) -> Int {
        if !writing, lookups != nil {
            if let small = UInt32(exactly: ref) { lookups?.append(small) } else { lookups = nil }
        }
        return ref
    }

    mutating func bool(_ value: Bool) -> Int {
        let existing = value ? boolRefs.true : boolRefs.false
        if existing >= 0, !(writing && existing == next) { return existing }
        let ref = beginScalar(size: 1)
        if writing { scalars.put(value ? 0x09 : 0x08) } else if value { boolRefs.true = ref } else { boolRefs.false = ref }
        return ref
    }

    /// Inline: a UID is one read of `uidRefs`, and a new one a few stores; only a UID whose
    /// reference does not fit there (`largeUIDRefs`) is looked up out of line.
    @inline(__always)
    mutating func uid(_ value: Int32) -> Int {
        let known = uidRefs[Int(value)]
        if known != .max {
            if !writing || Int(known) != next { return Int(known) }
        } else if !largeUIDRefs.isEmpty {
            return largeUID(value)
        }
        return newUID(value)
    }

    /// A UID kept in `largeUIDRefs`, or one not numbered yet.
    @inline(never)
    mutating func largeUID(_ value: Int32) -> Int {
        if let ref = largeUIDRefs[value], !(writing && ref == next) { return ref }
        return newUID(value)
    }

    /// A UID object numbered (first pass) or written (second) here.
    @inline(__always)
    mutating func newUID(_ value: Int32) -> Int {
        let unsigned = UInt64(UInt32(bitPattern: value))
        let ref = beginScalar(size: BinaryPlistEncoding.uidSize(unsigned))
        if writing {
            BinaryPlistEncoding.putUID(unsigned, into: &scalars)
        } else if let small = UInt32(exactly: ref), small != .max {
            uidRefs[Int(value)] = small
        } else {
            largeUIDRefs[value] = ref
        }
        return ref
    }

    /// Where the first data with a hash is, in the table's records.
    struct DataFirst {
        var start: Int
        var count: Int
        var chunk: UInt32
        var ref: UInt32
    }

    /// Data shared by its exact bytes (`range` of the chunk `cursor` reads).
    mutating func data(_ range: Range<Int>, of cursor: ObjectRecord.Cursor) -> Int {
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

    mutating func newData(_ bytes: ArraySlice<UInt8>) -> Int {
        let ref = beginScalar(size: BinaryPlistEncoding.markerSize(count: bytes.count) + bytes.count)
        if writing {
            BinaryPlistEncoding.putMarker(0x40, count: bytes.count, into: &scalars)
            bytes.withUnsafeBufferPointer { scalars.put(bytes: $0) }
        }
        return ref
    }
}
