import Foundation

/// The bytes the XML readers read, in place: an array's storage, a `Data`'s, a mapped file's,
/// never copied.
///
/// Every read goes through this type and is checked against the end, explicitly, by the
/// package's one borrowed-bytes type (``PropertyListBytes/byteOrZero(at:)``):
/// release builds do not check an unsafe pointer's subscript, so a reader's own `k < n`
/// tests are not the last line. A read outside the bytes gives 0, a byte that no markup,
/// tag or literal the readers compare with contains, so an index past the end turns into a
/// failed match (an error, or the fast reader giving up), never into a read outside the
/// input or a trap. Ranges are clamped to the bytes the same way.
///
/// The pointer is only valid inside the `withUnsafeBytes` (or similar) call that gave it;
/// the readers keep a value of this type only while they run inside that call, and what
/// they return (strings, `Data`, binary property-list bytes) is always copied out.
struct XMLPlistBytes: RandomAccessCollection {
    /// The borrowed bytes and their checked reads (one rule for every reader in the package).
    private let bytes: PropertyListBytes

    init(_ buffer: UnsafeRawBufferPointer) {
        bytes = PropertyListBytes(buffer)
    }

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.init(UnsafeRawBufferPointer(buffer))
    }

    var count: Int { bytes.count }
    var startIndex: Int { 0 }
    var endIndex: Int { bytes.count }

    /// The byte at `k`, or 0 when `k` is not in `0..<count`.
    @inline(__always)
    subscript(k: Int) -> UInt8 { bytes.byteOrZero(at: k) }

    /// The eight bytes at `k` as a little-endian word, zeros standing in for bytes outside
    /// the input. The 8-byte load happens only when `0 <= k` and `k + 8 <= count`.
    @inline(__always)
    func word(_ k: Int) -> UInt64 {
        if let base = bytes.base, k >= 0, k <= count &- 8 {
            return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: k, as: UInt64.self))
        }
        var w: UInt64 = 0
        var shift: UInt64 = 0
        var m = k
        while shift < 64 && m < count {
            w |= UInt64(self[m]) << shift  // checked
            shift += 8
            m += 1
        }
        return w
    }

    /// Five words to compare with the input, and the mask of the bytes that count in each.
    typealias MaskedWords = (words: (UInt64, UInt64, UInt64, UInt64, UInt64), masks: (UInt64, UInt64, UInt64, UInt64, UInt64))

    /// Whether the 40 bytes at `k`, masked, are `pattern`'s: one range check when they all lie
    /// inside the input, else ``word(_:)`` by word (zeros past the end).
    @inline(__always)
    func matches(_ pattern: MaskedWords, at k: Int) -> Bool {
        @inline(__always) func differs(_ load: (Int) -> UInt64) -> UInt64 {
            (load(0) ^ pattern.words.0) & pattern.masks.0 | (load(8) ^ pattern.words.1) & pattern.masks.1
                | (load(16) ^ pattern.words.2) & pattern.masks.2 | (load(24) ^ pattern.words.3) & pattern.masks.3
                | (load(32) ^ pattern.words.4) & pattern.masks.4
        }
        if let base = bytes.base, k >= 0, k <= count &- 40 {
            return differs { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: k &+ $0, as: UInt64.self)) } == 0
        }
        return matchesNearEnd(pattern, at: k)
    }

    /// ``matches(_:at:)`` where the 40 bytes do not all lie inside the input: word by word
    /// (out of line, so that the usual case stays small enough to inline).
    @inline(never)
    private func matchesNearEnd(_ pattern: MaskedWords, at k: Int) -> Bool {
        (word(k) ^ pattern.words.0) & pattern.masks.0 | (word(k &+ 8) ^ pattern.words.1) & pattern.masks.1
            | (word(k &+ 16) ^ pattern.words.2) & pattern.masks.2 | (word(k &+ 24) ^ pattern.words.3) & pattern.masks.3
            | (word(k &+ 32) ^ pattern.words.4) & pattern.masks.4 == 0
    }

    /// Three words to compare with the input, and the mask of the bytes that count in each.
    typealias ShortMaskedWords = (words: (UInt64, UInt64, UInt64), masks: (UInt64, UInt64, UInt64))

    /// Whether the 24 bytes at `k`, masked, are `pattern`'s (as ``matches(_:at:)``).
    @inline(__always)
    func matches(_ pattern: ShortMaskedWords, at k: Int) -> Bool {
        if let base = bytes.base, k >= 0, k <= count &- 24 {
            @inline(__always) func load(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: base.loadUnaligned(fromByteOffset: k &+ offset, as: UInt64.self))
            }
            return (load(0) ^ pattern.words.0) & pattern.masks.0 | (load(8) ^ pattern.words.1) & pattern.masks.1
                | (load(16) ^ pattern.words.2) & pattern.masks.2 == 0
        }
        return matchesNearEnd(pattern, at: k)
    }

    @inline(never)
    private func matchesNearEnd(_ pattern: ShortMaskedWords, at k: Int) -> Bool {
        (word(k) ^ pattern.words.0) & pattern.masks.0 | (word(k &+ 8) ^ pattern.words.1) & pattern.masks.1
            | (word(k &+ 16) ^ pattern.words.2) & pattern.masks.2 == 0
    }

    /// Up to `limit` (at most 19) decimal digits from `start`: their value, below 10^19 < 2^64
    /// so it cannot overflow, and where the digits end. One range check when all `limit`
    /// bytes lie inside the input (then the loop reads them directly), else each byte checked.
    @inline(__always)
    func decimalDigits(from start: Int, limit: Int) -> (value: UInt64, end: Int) {
        var value: UInt64 = 0
        if let base = bytes.base, start >= 0, start <= count &- limit {
            var k = start
            let end = start &+ limit
            while k < end {
                let digit = base.load(fromByteOffset: k, as: UInt8.self) &- XMLByte.zero
                guard digit < 10 else { break }
                value = value &* 10 &+ UInt64(digit)
                k &+= 1
            }
            return (value, k)
        }
        var k = start
        while k < count, k - start < limit {
            let digit = self[k] &- XMLByte.zero  // checked
            guard digit < 10 else { break }
            value = value &* 10 &+ UInt64(digit)
            k += 1
        }
        return (value, k)
    }

    /// The bytes in `range`, clamped to `0..<count`, indexed from 0.
    @inline(__always)
    func slice(_ range: Range<Int>) -> XMLPlistBytes {
        let lower = Swift.min(Swift.max(range.lowerBound, 0), count)
        let upper = Swift.min(Swift.max(range.upperBound, lower), count)
        guard let base = bytes.base else { return self }
        return XMLPlistBytes(UnsafeRawBufferPointer(start: base + lower, count: upper - lower))
    }

    /// The bytes as a typed buffer (for hashing, comparing and building a `String`).
    @inline(__always)
    var buffer: UnsafeBufferPointer<UInt8> {
        guard let base = bytes.base else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The bytes as text (valid UTF-8 where the readers call it: they validate the input first).
    var string: String {
        String(decoding: buffer, as: UTF8.self)
    }

    /// Without white space at either end.
    func trimmingWhitespace() -> XMLPlistBytes {
        var lower = 0
        var upper = count
        while lower < upper && XMLByte.isWhitespace(self[lower]) { lower += 1 }
        while upper > lower && XMLByte.isWhitespace(self[upper - 1]) { upper -= 1 }
        return slice(lower..<upper)
    }

    /// Where `self[range]` (clamped) stops being well-formed UTF-8 (RFC 3629: no overlong
    /// forms, no surrogates, nothing above U+10FFFF), and why; nil when it is well-formed.
    /// A sequence must end inside the range.
    func utf8Problem(in range: Range<Int>) -> (offset: Int, message: String)? {
        let end = Swift.min(Swift.max(range.upperBound, 0), count)
        var k = Swift.min(Swift.max(range.lowerBound, 0), end)
        while k < end {
            let c0 = self[k]
            if c0 < 0x80 {
                k += 1
                // A run of ASCII, eight bytes at a time (`word` loads only inside the input).
                while k + 8 <= end, word(k) & 0x8080_8080_8080_8080 == 0 {
                    k += 8
                }
                continue
            }
            let length: Int
            var lowerBound: UInt8 = 0x80
            var upperBound: UInt8 = 0xBF
            switch c0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lowerBound = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upperBound = 0x9F
            case 0xF0: length = 4; lowerBound = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upperBound = 0x8F
            default:
                if k == 0 && (c0 == 0xFE || c0 == 0xFF) {
                    return (k, "input looks like UTF-16, only UTF-8 is supported")
                }
                return (k, "invalid UTF-8 byte 0x\(String(c0, radix: 16, uppercase: true))")
            }
            guard length <= end - k else { return (k, "truncated UTF-8 sequence") }
            let c1 = self[k + 1]
            guard c1 >= lowerBound && c1 <= upperBound else { return (k, "invalid UTF-8 sequence") }
            var m = 2
            while m < length {
                let c = self[k + m]
                guard c >= 0x80 && c <= 0xBF else { return (k, "invalid UTF-8 sequence") }
                m += 1
            }
            k += length
        }
        return nil
    }
}
