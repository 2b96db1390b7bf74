import Foundation

/// The bytes of a property list being read, borrowed in place from whoever holds them (the
/// caller's `Data`, a memory-mapped file, a buffer of converted XML): no copy is made.
///
/// Valid only while its owner keeps them: a reader is made inside the owner's
/// `withUnsafeBytes` and never outlives it (``PropertyListInput``; a decode closes its
/// decoders when it returns, see `ArchiveDecoder`). The readers check every offset and
/// length against ``count`` before they read; as a second line of defence, a read outside
/// the bytes returns zeros (and stops a debug build), so a missed check cannot read
/// memory that is not the input. Reads of ``none`` return zeros: the readers' checks
/// against an empty property list then throw.
struct PropertyListBytes: @unchecked Sendable {
    // @unchecked: read-only memory that its owner keeps alive and unchanged for as long
    // as this value is used (see above).
    /// Where the bytes start (tests check that they are the caller's own); `nil` only when
    /// ``count`` is 0, so a read that passed its range check has a base.
    let base: UnsafeRawPointer?
    /// The number of bytes.
    let count: Int

    /// The bytes of `buffer`, borrowed.
    init(_ buffer: UnsafeRawBufferPointer) {
        base = buffer.baseAddress
        count = buffer.baseAddress == nil ? 0 : buffer.count
    }

    /// No bytes: what a decoder reads after its decode has returned.
    static let none = PropertyListBytes(UnsafeRawBufferPointer(start: nil, count: 0))

    /// The byte at `position`.
    @inline(__always)
    subscript(position: Int) -> UInt8 {
        guard contains(position) else { return outside(position) }
        return base.unsafelyUnwrapped.load(fromByteOffset: position, as: UInt8.self)
    }

    /// The byte at `position`, or 0 when it is outside the bytes, without the debug stop:
    /// for readers whose parsing treats the end as a 0 byte (the XML readers, see
    /// ``XMLPlistBytes``).
    @inline(__always)
    func byteOrZero(at position: Int) -> UInt8 {
        guard contains(position) else { return 0 }
        return base.unsafelyUnwrapped.load(fromByteOffset: position, as: UInt8.self)
    }

    /// Whether `position` is in `0..<count`: one unsigned comparison covers both ends (a
    /// negative position is a huge unsigned value). True only when ``base`` is not nil.
    @inline(__always)
    func contains(_ position: Int) -> Bool {
        UInt(bitPattern: position) < UInt(bitPattern: count)
    }

    /// The bytes in `range`, borrowed.
    @inline(__always)
    subscript(range: Range<Int>) -> UnsafeRawBufferPointer {
        guard range.lowerBound >= 0, range.upperBound <= count, let base else {
            _ = outside(range.lowerBound)
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// An unsigned big-endian integer of `size` (1…8) bytes at `position`: one range check
    /// for all its bytes. (A `size` outside 1…8 reads no byte outside the range either.)
    @inline(__always)
    func bigEndian(at position: Int, size: Int) -> UInt64 {
        guard position >= 0, position <= count &- size else {
            _ = outside(position)
            return 0
        }
        let start = base.unsafelyUnwrapped + position
        // The widths references and offsets almost always have, without a loop.
        switch size {
        case 1:
            return UInt64(start.load(as: UInt8.self))
        case 2:
            return UInt64(UInt16(bigEndian: start.loadUnaligned(as: UInt16.self)))
        case 4:
            return UInt64(UInt32(bigEndian: start.loadUnaligned(as: UInt32.self)))
        case 8:
            return UInt64(bigEndian: start.loadUnaligned(as: UInt64.self))
        default:
            var value: UInt64 = 0
            var i = 0
            while i < size {
                value = value << 8 | UInt64(start.load(fromByteOffset: i, as: UInt8.self))
                i += 1
            }
            return value
        }
    }

    /// The ASCII string body at `range` (see ``BinaryPropertyList/asciiString(_:)``). Bytes
    /// checked as ASCII (eight at a time) are copied into the string as they are:
    /// `String(decoding:as:)` would check them again, as UTF-8, byte by byte.
    func asciiString(_ range: Range<Int>) -> String {
        let slice = self[range]
        if BinaryPlistEncoding.isASCII(slice.assumingMemoryBound(to: UInt8.self)) {
            return String(unsafeUninitializedCapacity: slice.count) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: slice)
                return slice.count
            }
        }
        var scalars = String.UnicodeScalarView()
        for byte in slice { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// The UTF-16BE string body at `range` of object `ref` (see
    /// ``BinaryPropertyList/utf16String(_:ref:)``), transcoded into the string's UTF-8
    /// storage in one pass: no array of units, no scalar-by-scalar append. An unpaired
    /// surrogate throws. (A unit takes at most 3 bytes of UTF-8, a surrogate pair 4 for
    /// its 2 units, so `units × 3` bytes always suffice.)
    func utf16String(_ range: Range<Int>, ref: Int) throws -> String {
        let slice = self[range]
        let units = slice.count / 2
        guard units > 0 else { return "" }
        return try String(unsafeUninitializedCapacity: units * 3) { utf8 in
            var out = 0
            var index = 0
            @inline(__always) func unit(_ at: Int) -> UInt32 {
                UInt32(slice[2 * at]) << 8 | UInt32(slice[2 * at + 1])
            }
            while index < units {
                var scalar = unit(index)
                index += 1
                if scalar < 0x80 {
                    utf8[out] = UInt8(truncatingIfNeeded: scalar)
                    out += 1
                    continue
                }
                if scalar & 0xF800 == 0xD800 {
                    // A high surrogate and the low one after it, or damage.
                    guard scalar < 0xDC00, index < units else { throw Self.invalidUTF16(ref) }
                    let low = unit(index)
                    guard low & 0xFC00 == 0xDC00 else { throw Self.invalidUTF16(ref) }
                    index += 1
                    scalar = 0x10000 + ((scalar & 0x3FF) << 10 | (low & 0x3FF))
                }
                out += Self.encodeUTF8(scalar, into: utf8, at: out)
            }
            return out
        }
    }

    /// Writes the UTF-8 form of `scalar` (at least 0x80, not a surrogate) at `position`
    /// of `utf8`, and returns its length in bytes.
    @inline(__always)
    private static func encodeUTF8(_ scalar: UInt32, into utf8: UnsafeMutableBufferPointer<UInt8>, at position: Int) -> Int {
        if scalar < 0x800 {
            utf8[position] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
            utf8[position + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 2
        }
        if scalar < 0x10000 {
            utf8[position] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
            utf8[position + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            utf8[position + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 3
        }
        utf8[position] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
        utf8[position + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
        utf8[position + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
        utf8[position + 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
        return 4
    }

    /// The error for a UTF-16 string body with an unpaired surrogate.
    @inline(never)
    private static func invalidUTF16(_ ref: Int) -> PropertyListError {
        BinaryPropertyList.failure(ref) { "invalid UTF-16 string" }
    }

    /// A read the readers' own checks should have refused: a bug, never the input's doing.
    @inline(never)
    private func outside(_ position: Int) -> UInt8 {
        // Reading a decoder after its decode returned (``none``) lands here by design.
        assert(base == nil, "read at \(position) outside \(count) bytes of property list")
        return 0
    }
}

/// What a ``BinaryPropertyList`` owns, when it owns anything: a copy of its bytes, and the
/// keys that its dictionaries repeated (see ``BinaryPropertyList/resolvingDuplicateKeys(keepingFirst:_:)``).
final class PropertyListOwner: Sendable {
    let copy: PropertyListBytesCopy?
    let duplicateKeys: [PropertyListDuplicateKey]

    init(copy: PropertyListBytesCopy?, duplicateKeys: [PropertyListDuplicateKey]) {
        self.copy = copy
        self.duplicateKeys = duplicateKeys
    }
}

/// Bytes copied into memory of their own, for a ``BinaryPropertyList`` that must own them.
final class PropertyListBytesCopy: @unchecked Sendable {
    // @unchecked: written once in init, then only read.
    private let memory: UnsafeMutableRawBufferPointer
    let bytes: PropertyListBytes

    init(_ data: Data) {
        memory = .allocate(byteCount: max(data.count, 1), alignment: 8)
        _ = data.copyBytes(to: memory.bindMemory(to: UInt8.self))
        bytes = PropertyListBytes(UnsafeRawBufferPointer(rebasing: memory[0..<data.count]))
    }

    deinit { memory.deallocate() }
}
