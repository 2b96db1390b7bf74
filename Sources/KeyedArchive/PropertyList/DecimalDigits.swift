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
