import Foundation

/// Where the bytes of a `bplist00` object go: the builder's growing buffer, or the archive
/// writer's buffer of the file's exact size.
protocol BinaryPlistSink {
    mutating func put(_ byte: UInt8)
    /// `value`'s low `size` bytes, most significant first (see
    /// ``BinaryPlistEncoding/putBigEndian(_:size:into:)``).
    mutating func putBigEndian(_ value: UInt64, size: Int)
    /// Every byte of `bytes`, in order.
    mutating func put(bytes: UnsafeBufferPointer<UInt8>)
}

extension BinaryPlistSink {
    /// References and offsets take 1 to 4 bytes in any file that fits in memory: those
    /// widths are written without a loop.
    @inline(__always)
    mutating func putBigEndian(_ value: UInt64, size: Int) {
        switch size {
        case 1:
            put(UInt8(truncatingIfNeeded: value))
        case 2:
            put(UInt8(truncatingIfNeeded: value >> 8))
            put(UInt8(truncatingIfNeeded: value))
        case 4:
            put(UInt8(truncatingIfNeeded: value >> 24))
            put(UInt8(truncatingIfNeeded: value >> 16))
            put(UInt8(truncatingIfNeeded: value >> 8))
            put(UInt8(truncatingIfNeeded: value))
        default:
            var shift = (size - 1) * 8
            while shift >= 0 {
                put(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
                shift -= 8
            }
        }
    }
}

extension Array: BinaryPlistSink where Element == UInt8 {
    @inline(__always)
    mutating func put(_ byte: UInt8) { append(byte) }

    @inline(__always)
    mutating func put(bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// The byte forms of binary property-list objects, and their sizes: one place for both
/// writers (``BinaryPropertyListBuilder`` and the archive's two-pass writer), so they
/// cannot disagree on a single byte.
enum BinaryPlistEncoding {
    /// Bytes needed to store `value` (at least 1): 1, 2, 4 or 8.
    @inline(__always)
    static func width(of value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    /// `value`'s low `size` bytes, most significant first.
    @inline(__always)
    static func putBigEndian<S: BinaryPlistSink>(_ value: UInt64, size: Int, into sink: inout S) {
        sink.putBigEndian(value, size: size)
    }

    /// Bytes of an integer object (marker and body): narrowest width for non-negative
    /// values, 8 bytes for negative ones (as CoreFoundation writes them).
    @inline(__always)
    static func integerSize(_ value: Int64) -> Int {
        switch value {
        case 0...0xFF: return 2
        case 0...0xFFFF: return 3
        case 0...0xFFFF_FFFF: return 5
        default: return 9
        }
    }

    @inline(__always)
    static func putInteger<S: BinaryPlistSink>(_ value: Int64, into sink: inout S) {
        switch value {
        case 0...0xFF:
            sink.put(0x10); sink.put(UInt8(value))
        case 0...0xFFFF:
            sink.put(0x11); putBigEndian(UInt64(value), size: 2, into: &sink)
        case 0...0xFFFF_FFFF:
            sink.put(0x12); putBigEndian(UInt64(value), size: 4, into: &sink)
        default:
            sink.put(0x13); putBigEndian(UInt64(bitPattern: value), size: 8, into: &sink)
        }
    }

    /// Bytes of a marker with a count: the low nibble below 15, else an integer after it.
    @inline(__always)
    static func markerSize(count: Int) -> Int {
        count < 15 ? 1 : 1 + integerSize(Int64(count))
    }

    @inline(__always)
    static func putMarker<S: BinaryPlistSink>(_ high: UInt8, count: Int, into sink: inout S) {
        if count < 15 {
            sink.put(high | UInt8(count))
        } else {
            sink.put(high | 0x0F)
            putInteger(Int64(count), into: &sink)
        }
    }

    /// An unsigned integer above `Int64.max`: the 16-byte form (17 bytes).
    static func putUnsignedAboveInt64<S: BinaryPlistSink>(_ value: UInt64, into sink: inout S) {
        sink.put(0x14)
        putBigEndian(0, size: 8, into: &sink)
        putBigEndian(value, size: 8, into: &sink)
    }

    /// Bytes of an integer beyond 64 bits: 16 bytes signed, or 32 above `Int128.max`.
    static func wideSize(_ value: PropertyListWideInteger) -> Int {
        value.twosComplement128 != nil ? 17 : 33
    }

    static func putWide<S: BinaryPlistSink>(_ value: PropertyListWideInteger, into sink: inout S) {
        if let bits = value.twosComplement128 {
            sink.put(0x14)
            putBigEndian(bits.high, size: 8, into: &sink)
            putBigEndian(bits.low, size: 8, into: &sink)
        } else {
            let bits = value.lowBitsOfTwosComplement
            let fill: UInt64 = value.isNegative ? .max : 0
            sink.put(0x15)
            putBigEndian(fill, size: 8, into: &sink)
            putBigEndian(fill, size: 8, into: &sink)
            putBigEndian(bits.high, size: 8, into: &sink)
            putBigEndian(bits.low, size: 8, into: &sink)
        }
    }

    /// An 8-byte real (9 bytes); `marker` 0x23, or 0x33 for a date.
    @inline(__always)
    static func putReal<S: BinaryPlistSink>(bits: UInt64, marker: UInt8 = 0x23, into sink: inout S) {
        sink.put(marker)
        putBigEndian(bits, size: 8, into: &sink)
    }

    /// A 4-byte real (5 bytes).
    @inline(__always)
    static func putFloat<S: BinaryPlistSink>(bits: UInt32, into sink: inout S) {
        sink.put(0x22)
        putBigEndian(UInt64(bits), size: 4, into: &sink)
    }

    @inline(__always)
    static func uidSize(_ value: UInt64) -> Int { 1 + width(of: value) }

    @inline(__always)
    static func putUID<S: BinaryPlistSink>(_ value: UInt64, into sink: inout S) {
        let size = width(of: value)
        sink.put(0x80 | UInt8(size - 1))
        putBigEndian(value, size: size, into: &sink)
    }

    /// Bytes of a string object: ASCII as bytes, anything else as UTF-16 big-endian.
    static func stringSize(_ value: String) -> Int {
        stringSize(utf8Count: value.utf8.count, utf16Count: value.utf16.count)
    }

    /// ``stringSize(_:)`` of a string of `utf8Count` UTF-8 bytes and `utf16Count` UTF-16
    /// units: the string is ASCII exactly when the two are equal (any other scalar takes
    /// more UTF-8 bytes than UTF-16 units). Both counts are O(1) for a native ASCII string.
    @inline(__always)
    static func stringSize(utf8Count: Int, utf16Count: Int) -> Int {
        if utf8Count == utf16Count { return markerSize(count: utf8Count) + utf8Count }
        return markerSize(count: utf16Count) + 2 * utf16Count
    }

    static func putString<S: BinaryPlistSink>(_ value: String, into sink: inout S) {
        let wroteASCII = value.withContiguousUTF8 { putASCIIString($0, into: &sink) }
        if wroteASCII { return }
        let units = value.utf16
        putMarker(0x60, count: units.count, into: &sink)
        for unit in units {
            sink.put(UInt8(unit >> 8))
            sink.put(UInt8(unit & 0xFF))
        }
    }

    /// Writes the string whose UTF-8 is `utf8` when it is all ASCII (as ``putString(_:into:)``
    /// would) and returns true; returns false, having written nothing, otherwise.
    @inline(__always)
    static func putASCIIString<S: BinaryPlistSink>(_ utf8: UnsafeBufferPointer<UInt8>, into sink: inout S) -> Bool {
        guard isASCII(utf8) else { return false }
        putMarker(0x50, count: utf8.count, into: &sink)
        sink.put(bytes: utf8)
        return true
    }

    /// Whether every byte is below 0x80, eight bytes at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let n = bytes.count
        var high: UInt64 = 0
        var i = 0
        // `i + 8 <= n`: each 8-byte load lies inside the buffer.
        while i + 8 <= n {
            high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < n {
            high |= UInt64(base[i])
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Bytes of a container marker with its count (a dictionary's count is its entries).
    @inline(__always)
    static func putContainerMarker<S: BinaryPlistSink>(isDictionary: Bool, count: Int, into sink: inout S) {
        putMarker(isDictionary ? 0xD0 : 0xA0, count: count, into: &sink)
    }
}
