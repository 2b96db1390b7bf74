import Foundation

extension Array where Element == UInt8 {
    /// Appends the decimal digits of `value` (after a `-` when `negative`), with no
    /// intermediate string: XML `<integer>` text and decoding-error messages.
    mutating func appendDecimal(_ value: UInt64, negative: Bool = false) {
        if negative { append(UInt8(ascii: "-")) }
        if value < 10 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        // 20 digits hold UInt64.max; the digits are produced backwards into a stack buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var position = 20
            var rest = value
            while rest > 0 {
                position -= 1  // at most 20 iterations: UInt64.max has 20 digits, so position stays >= 0
                buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<20]))
        }
    }
}

/// Decimal digits written straight into a buffer (the XML writers' `<integer>` text).
enum DecimalDigits {
    /// "00", "01", … "99": two digits per lookup.
    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// How many digits `value` has (1 for 0; at most 20).
    @inline(__always)
    static func count(_ value: UInt64) -> Int {
        var count = 1
        var threshold: UInt64 = 10  // 10^count
        while value >= threshold {
            count += 1
            if count == 20 { break }
            threshold *= 10  // 10^count for count <= 19: below UInt64.max
        }
        return count
    }

    /// Writes the `count(value)` digits of `value` at `start`.
    @inline(__always)
    static func write(_ value: UInt64, digits: Int, to start: UnsafeMutablePointer<UInt8>) {
        let pairs = Self.pairs.utf8Start
        var rest = value
        var end = digits
        // Bounds: `digits` is the number of digits of `value`, so each step writes inside
        // start[0..<digits] (two digits while at least two are left, then the last one),
        // and every pair index is at most 2 × 99 + 1 < 200, the table's size.
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) * 2
            rest /= 100
            end -= 2
            start[end] = pairs[pair]
            start[end + 1] = pairs[pair + 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) * 2
            start[end - 2] = pairs[pair]
            start[end - 1] = pairs[pair + 1]
        } else {
            start[end - 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest)
        }
    }
}
