/// Where ``XMLPlistOutput`` puts its bytes. The XML writers run twice over what they
/// write: into an ``XMLPlistByteCounter`` to learn the document's exact size, then into an
/// ``XMLPlistBufferSink`` over a buffer of that size, so the text is written once, in
/// place, with no growing buffer and no copy. (A `Data` of 32 MB or more is counted only
/// that far and written into an ``XMLPlistGrowingSink``: see ``XMLPlistDocument``.)
protocol XMLPlistByteSink {
    /// Appends `count` bytes, all of which `fill` writes from the pointer it is given. A
    /// sink that only counts never calls `fill`.
    mutating func append(count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void)

    /// True for a counting pass that has counted as far as it needs to: reals are then
    /// neither formatted nor counted (see ``XMLPlistByteCounter/init(limit:)``).
    var skipsReals: Bool { get }

    /// True for a counting pass that has counted past the most the caller allows: a tree
    /// being written stops there (see ``XMLPlistByteCounter/init(limit:stoppingPast:)``).
    var isPastLimit: Bool { get }
}

extension XMLPlistByteSink {
    var skipsReals: Bool { false }
    var isPastLimit: Bool { false }
}

/// The first pass: counts the bytes and writes none.
struct XMLPlistByteCounter: XMLPlistByteSink {
    private(set) var count = 0
    private let limit: Int
    private let maxBytes: Int

    /// A counter that, once `limit` bytes are counted, stops formatting (and keeping, and
    /// counting) reals: what is left of a large document is then only walked, and its exact
    /// size is not known (see ``XMLPlistDocument/data(_:large:)``). Past `maxBytes`, a tree
    /// stops being walked at its next element (``isPastLimit``): a document too large to
    /// write costs its limit to count, not its size.
    init(limit: Int = .max, stoppingPast maxBytes: Int = .max) {
        self.limit = limit
        self.maxBytes = maxBytes
    }

    var skipsReals: Bool { count >= limit }

    var isPastLimit: Bool { count > maxBytes }

    @inline(__always)
    mutating func append(count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        self.count += count
    }
}

/// The second pass: writes into a buffer the first pass sized.
struct XMLPlistBufferSink: XMLPlistByteSink {
    private let start: UnsafeMutablePointer<UInt8>?
    private let capacity: Int
    /// Bytes written so far.
    private(set) var position = 0
    /// Set when a piece did not fit (the two passes disagreed): it was left out.
    private(set) var overflowed = false

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        start = buffer.baseAddress
        capacity = buffer.count
    }

    /// Whether the buffer was filled exactly: every piece written, and no byte left over.
    var isComplete: Bool { !overflowed && position == capacity }

    @inline(__always)
    mutating func append(count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        // Bounds: `position <= capacity` always holds (it only grows by a `count` checked
        // here), so `capacity &- position` is the room left, and `fill` is given exactly
        // `count` bytes inside the buffer. A piece that does not fit is left out rather
        // than written past the end (the first pass counted every piece, so none is).
        guard let start, count >= 0, count <= capacity &- position else {
            overflowed = true
            return
        }
        fill(start + position)
        position &+= count
    }
}

/// Writes the pieces of one appended run of bytes, front to back, from the start the
/// sink gave. Whoever appends counts the pieces first and asks the sink for exactly that
/// many bytes, so every piece lands inside them (the bounds argument of each caller).
struct XMLPlistPieces {
    private let start: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    private(set) var position = 0

    @inline(__always)
    init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
    }

    @inline(__always)
    mutating func put(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        UnsafeMutableRawPointer(start + position).copyMemory(from: text.utf8Start, byteCount: count)
        position += count
    }

    @inline(__always)
    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }  // empty
        UnsafeMutableRawPointer(start + position).copyMemory(from: source, byteCount: bytes.count)
        position += bytes.count
    }

    @inline(__always)
    mutating func tabs(_ count: Int) {
        var k = 0
        while k < count {
            start[position + k] = XMLByte.tab
            k += 1
        }
        position += max(count, 0)
    }

    /// The `count` (= `DecimalDigits.count(value)`) digits of `value`.
    @inline(__always)
    mutating func digits(_ value: UInt64, count: Int) {
        DecimalDigits.write(value, digits: count, to: start + position)
        position += count
    }

    /// `text` escaped, `text.count + growth` bytes (`growth` from `XMLPlistEscaping.scan`).
    @inline(__always)
    mutating func escaped(_ text: UnsafeBufferPointer<UInt8>, growth: Int) {
        if growth == 0 {
            bytes(UnsafeRawBufferPointer(text))
        } else {
            XMLPlistEscaping.write(text, to: start + position)
            position += text.count + growth
        }
    }
}

/// A real's text as Foundation writes it: Swift's shortest round-trip text (what
/// `description` gives, captured from `Double.write(to:)` without making a `String`)
/// without a trailing `.0`; whole numbers below 10^15 as their digits (`-0` for -0.0), and
/// numbers of one to four decimals between 0.001 and 10^11 from their digits too
/// (``appendShortDecimal(_:)``); `nan`, `+infinity`, `-infinity`.
struct XMLPlistRealText: TextOutputStream {
    /// The longest text is 24 bytes (`-2.2250738585072014e-308`).
    private static let capacity = 32
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0
    /// Set if Swift's text did not fit (never, for a `Double`): `description` is used instead.
    private var overflowed = false
    private let value: Double

    init(_ value: Double) {
        self.init(quick: value)
        if count == 0 { formatInFull() }
    }

    /// The text of a real that is not a quick one (``quick(_:)`` gave nil), from Swift's
    /// shortest-text algorithm straight away.
    init(notQuick value: Double) {
        self.value = value
        formatInFull()
    }

    /// The text of `value` when it is one of the quick ones (``quick(_:)``), else empty.
    @inline(__always)
    private init(quick value: Double) {
        self.value = value
        if value.isNaN {
            append("nan")
            return
        }
        if value.isInfinite {
            append(value < 0 ? "-infinity" : "+infinity")
            return
        }
        // Below 10^15 the conversion truncates exactly, and converting back is exact
        // (< 2^53): equal only for a whole number (cheaper than `rounded`, a call into libm;
        // `Int64` rather than `UInt64`, one instruction each way).
        if value.magnitude < 1e15, case let whole = Int64(value.magnitude), Double(whole) == value.magnitude {
            if value.sign == .minus { append("-") }
            let magnitude = UInt64(truncatingIfNeeded: whole)  // 0 <= whole < 10^15
            let digits = DecimalDigits.count(magnitude)  // at most 15
            let start = count
            withUnsafeMutableBytes(of: &storage) { raw in
                // Bounds: start <= 1 and digits <= 15, inside the 32 bytes of storage.
                if let base = raw.baseAddress {
                    DecimalDigits.write(magnitude, digits: digits, to: base.assumingMemoryBound(to: UInt8.self) + start)
                }
            }
            count += digits
            return
        }
        _ = appendShortDecimal(value)
    }

    /// The text of `value` when it is spelled from its digits (NaN, the infinities, whole
    /// numbers below 10^15, and numbers of one to four decimals from 0.001 to 10^11): a few
    /// dozen instructions, where Swift's shortest-text algorithm takes hundreds. Nil for any
    /// other real.
    @inline(__always)
    static func quick(_ value: Double) -> XMLPlistRealText? {
        let text = XMLPlistRealText(quick: value)
        return text.count == 0 ? nil : text
    }

    /// Swift's shortest round-trip text, without a trailing `.0`.
    private mutating func formatInFull() {
        value.write(to: &self)
        if count >= 2, byte(count - 1) == XMLByte.zero, byte(count - 2) == XMLByte.dot { count -= 2 }
    }

    /// Writes `value` as `[-]digits.decimals` when it has one to four decimals (the shortest
    /// such, ending in a nonzero digit), 0.001 <= |value| < 10^11, and that text reads back
    /// as `value`; false (nothing written) otherwise. That text is then Swift's own: it has at
    /// most 15 significant digits, and no two decimals of at most 15 significant digits read
    /// as the same `Double`, so no other text of as few digits reads back as `value`; and
    /// Swift writes a number of this size without an exponent.
    @inline(__always)
    private mutating func appendShortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 0.001, magnitude < 1e11, Self.mayHaveFourDecimals(magnitude) else { return false }
        var power: UInt64 = 10
        var scale = 10.0
        for decimals in 1...4 {
            let scaled = magnitude * scale
            // `scaled` is below 10^15 < 2^53: `truncated` is it truncated, and equal to it only
            // when it is a whole number; then both it and `scale` are exact and the division
            // rounds once, as reading the text would.
            let truncated = Int64(scaled)
            if Double(truncated) == scaled, scaled / scale == magnitude {
                let digits = UInt64(truncatingIfNeeded: truncated)  // 0 < truncated < 10^15
                guard digits % 10 != 0 else { return false }  // a shorter text: left to Swift
                if value.sign == .minus { append("-") }
                let whole = digits / power
                let wholeDigits = DecimalDigits.count(whole)
                let start = count
                withUnsafeMutableBytes(of: &storage) { raw in
                    // Bounds: start <= 1, at most 11 whole digits, then `.` and 4 decimals:
                    // at most 17 of the storage's 32 bytes. The decimals are written as the
                    // digits of power + fraction (a leading 1, then zeros kept), whose 1 the
                    // point replaces.
                    guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                    DecimalDigits.write(whole, digits: wholeDigits, to: base + start)
                    DecimalDigits.write(power + digits % power, digits: decimals + 1, to: base + start + wholeDigits)
                    base[start + wholeDigits] = XMLByte.dot
                }
                count += wholeDigits + 1 + decimals
                return true
            }
            power *= 10
            scale *= 10
        }
        return false
    }

    /// False when no text of one to four decimals reads as `magnitude` (0.001 <= magnitude <
    /// 10^11), in a few instructions where the four tries of ``appendShortDecimal(_:)`` each
    /// fail only after a multiplication and two conversions (most reals that are not prices).
    /// If `magnitude` is the double nearest `N / 10^d` for a whole `N` and `d <= 4`, then
    /// `M = N × 10^(4 - d)` is a whole number and `s = magnitude × 10^4` (rounded) is within
    /// about 2 × 2^-53 × s (two roundings) of it, well within 2^-51 × s. True
    /// is not a promise: the tries decide.
    @inline(__always)
    static func mayHaveFourDecimals(_ magnitude: Double) -> Bool {
        let s = magnitude * 10_000  // below 10^15: the conversion truncates exactly
        let fraction = s - Double(Int64(s))  // exact: in [0, 1)
        let distance = fraction <= 0.5 ? fraction : 1 - fraction  // exact for fraction >= 0.5
        return distance <= s * 0x1p-51
    }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        append(buffer)
    }

    private mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= Self.capacity - count else {
            overflowed = true
            return
        }
        let start = count
        withUnsafeMutableBytes(of: &storage) { raw in
            // Bounds: start + bytes.count <= capacity, the storage's 32 bytes (checked above).
            if let target = raw.baseAddress, let source = bytes.baseAddress {
                (target + start).copyMemory(from: source, byteCount: bytes.count)
            }
        }
        count += bytes.count
    }

    private func byte(_ index: Int) -> UInt8 {
        withUnsafeBytes(of: storage) { $0[index] }  // index < count <= 32
    }

    /// The text's bytes.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if overflowed {
            var description = value.description
            return description.withUTF8 { text in
                let trimmed = text.count >= 2 && text[text.count - 1] == XMLByte.zero && text[text.count - 2] == XMLByte.dot
                return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[0..<(trimmed ? text.count - 2 : text.count)])))
            }
        }
        return withUnsafeBytes(of: storage) { raw in
            // Bounds: count <= capacity, the storage's size.
            body(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }
}
