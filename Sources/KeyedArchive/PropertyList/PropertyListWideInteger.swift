import Foundation

/// An integer of up to 128 bits of magnitude, for property-list integers outside
/// `Int64.min...UInt64.max` (the range of `Int128` and `UInt128` together).
///
/// The value is sign and magnitude, each half of the magnitude a `UInt64`, so the type
/// exists on every deployment target; on systems with `Int128` and `UInt128` convert with
/// ``init(_:)-(Int128)``, ``init(_:)-(UInt128)``, ``int128Value`` and ``uint128Value``.
/// Zero is never negative.
///
/// ```swift
/// // 2^64, one above UInt64.max:
/// let wide = PropertyListWideInteger(isNegative: false, magnitudeHigh: 1, magnitudeLow: 0)
/// assert(wide.description == "18446744073709551616")
/// let value = PropertyListValue.wideInteger(wide)
/// ```
public struct PropertyListWideInteger: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Whether the value is below zero.
    public let isNegative: Bool
    /// The upper 64 bits of the magnitude.
    public let magnitudeHigh: UInt64
    /// The lower 64 bits of the magnitude.
    public let magnitudeLow: UInt64

    /// The value `(isNegative ? -1 : 1) × (magnitudeHigh × 2^64 + magnitudeLow)`.
    public init(isNegative: Bool, magnitudeHigh: UInt64, magnitudeLow: UInt64) {
        self.isNegative = isNegative && (magnitudeHigh | magnitudeLow) != 0
        self.magnitudeHigh = magnitudeHigh
        self.magnitudeLow = magnitudeLow
    }

    /// The value of an integer of at most 128 bits (`Int128`, `UInt128` or narrower; the
    /// bits of a wider type's magnitude above 128 are not kept).
    init<T: FixedWidthInteger>(fixedWidth value: T) {
        let magnitude = value.magnitude
        self.init(isNegative: value < 0,
                  magnitudeHigh: UInt64(truncatingIfNeeded: magnitude >> 64),
                  magnitudeLow: UInt64(truncatingIfNeeded: magnitude))
    }

    /// Numeric order.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
        let lhsMagnitudeIsSmaller = (lhs.magnitudeHigh, lhs.magnitudeLow) < (rhs.magnitudeHigh, rhs.magnitudeLow)
        let rhsMagnitudeIsSmaller = (rhs.magnitudeHigh, rhs.magnitudeLow) < (lhs.magnitudeHigh, lhs.magnitudeLow)
        return lhs.isNegative ? rhsMagnitudeIsSmaller : lhsMagnitudeIsSmaller
    }

    /// The value as `Int64` when it is in `Int64.min...Int64.max`.
    public var int64Value: Int64? {
        guard magnitudeHigh == 0 else { return nil }
        if isNegative {
            return magnitudeLow <= UInt64(Int64.max) + 1 ? Int64(bitPattern: 0 &- magnitudeLow) : nil
        }
        return Int64(exactly: magnitudeLow)
    }

    /// The value as `UInt64` when it is in `0...UInt64.max`.
    public var uint64Value: UInt64? {
        magnitudeHigh == 0 && !isNegative ? magnitudeLow : nil
    }

    /// The value in decimal, with a leading `-` when negative.
    public var description: String {
        var high = magnitudeHigh
        var low = magnitudeLow
        var digits: [UInt8] = []
        repeat {
            let (q1, r1) = high.quotientAndRemainder(dividingBy: 10)
            let (q0, r0) = UInt64(10).dividingFullWidth((high: r1, low: low))
            high = q1
            low = q0
            digits.append(UInt8(truncatingIfNeeded: r0) &+ UInt8(ascii: "0"))
        } while high != 0 || low != 0
        if isNegative { digits.append(UInt8(ascii: "-")) }
        return String(decoding: digits.reversed(), as: UTF8.self)
    }

    /// The value converted to the integer type `T` when it fits exactly, else `nil`.
    /// Generic over `FixedWidthInteger`, so it serves `Int8` as well as `Int128`.
    func exactly<T: FixedWidthInteger>(as type: T.Type) -> T? {
        let magnitude: T.Magnitude
        if magnitudeHigh == 0 {
            guard let low = T.Magnitude(exactly: magnitudeLow) else { return nil }
            magnitude = low
        } else {
            guard T.Magnitude.bitWidth >= 128, let high = T.Magnitude(exactly: magnitudeHigh) else { return nil }
            magnitude = high << 64 | T.Magnitude(truncatingIfNeeded: magnitudeLow)
        }
        if !isNegative { return T(exactly: magnitude) }
        guard T.isSigned else { return nil }
        if let positive = T(exactly: magnitude) { return 0 - positive }
        return magnitude == T.min.magnitude ? T.min : nil
    }

    /// The value as the floating-point type `T` when it is exactly representable, else `nil`.
    func exactly<T: BinaryFloatingPoint>(as type: T.Type) -> T? {
        let leading = magnitudeHigh != 0 ? 128 - magnitudeHigh.leadingZeroBitCount : 64 - magnitudeLow.leadingZeroBitCount
        let trailing = magnitudeLow != 0 ? magnitudeLow.trailingZeroBitCount : 64 + magnitudeHigh.trailingZeroBitCount
        guard leading - trailing <= T.significandBitCount + 1 else { return nil }
        // Both halves then have few enough significant bits to convert exactly, and so does their sum.
        let magnitude = T(magnitudeHigh) * T(sign: .plus, exponent: 64, significand: 1) + T(magnitudeLow)
        guard magnitude.isFinite else { return nil }
        return isNegative ? -magnitude : magnitude
    }
}

extension PropertyListWideInteger {
    /// The magnitude times `radix` plus `digit`, or `nil` when it passes 128 bits.
    static func accumulate(_ high: UInt64, _ low: UInt64, radix: UInt64, digit: UInt64) -> (high: UInt64, low: UInt64)? {
        let lowProduct = low.multipliedFullWidth(by: radix)
        let (highProduct, o1) = high.multipliedReportingOverflow(by: radix)
        let (highSum, o2) = highProduct.addingReportingOverflow(lowProduct.high)
        let (lowSum, carry) = lowProduct.low.addingReportingOverflow(digit)
        let (highTotal, o3) = highSum.addingReportingOverflow(carry ? 1 : 0)
        guard !o1, !o2, !o3 else { return nil }
        return (highTotal, lowSum)
    }

    /// The one narrowing rule: `int` for values in `Int64`'s range, `unsigned` for the rest
    /// of `UInt64`'s, `wide` beyond (so 64-bit values read and write as they always have).
    func narrowest<R>(_ int: (Int64) -> R, _ unsigned: (UInt64) -> R, _ wide: (Self) -> R) -> R {
        if let i = int64Value { return int(i) }
        if let u = uint64Value { return unsigned(u) }
        return wide(self)
    }

    /// The narrowest property-list integer for a sign and 128-bit magnitude.
    static func value(isNegative: Bool, high: UInt64, low: UInt64) -> PropertyListValue {
        PropertyListWideInteger(isNegative: isNegative, magnitudeHigh: high, magnitudeLow: low)
            .narrowest(PropertyListValue.integer, PropertyListValue.unsignedInteger, PropertyListValue.wideInteger)
    }
}

extension PropertyListWideInteger {
    /// The value as a 128-bit two's-complement bit pattern (the 16-byte binary form), or
    /// `nil` when it is outside `Int128`'s range.
    var twosComplement128: (high: UInt64, low: UInt64)? {
        if !isNegative { return magnitudeHigh >> 63 == 0 ? (magnitudeHigh, magnitudeLow) : nil }
        guard magnitudeHigh < 1 << 63 || (magnitudeHigh == 1 << 63 && magnitudeLow == 0) else { return nil }
        return Self.negate(magnitudeHigh, magnitudeLow)
    }

    /// The low 128 bits of the value's two's-complement form, for the 32-byte binary form
    /// (whose upper 16 bytes are all 0x00, or all 0xFF when negative).
    var lowBitsOfTwosComplement: (high: UInt64, low: UInt64) {
        isNegative ? Self.negate(magnitudeHigh, magnitudeLow) : (magnitudeHigh, magnitudeLow)
    }

    /// `2^128 - (high, low)` modulo 2^128: two's-complement negation of a 128-bit pattern.
    static func negate(_ high: UInt64, _ low: UInt64) -> (high: UInt64, low: UInt64) {
        (~high &+ (low == 0 ? 1 : 0), 0 &- low)
    }
}

extension PropertyListWideInteger {
    /// The value as a `Decimal`, exactly (a `Decimal`'s mantissa holds 128 bits).
    var decimalValue: Decimal {
        let twoTo64 = Decimal(UInt64.max) + 1
        let magnitude = Decimal(magnitudeHigh) * twoTo64 + Decimal(magnitudeLow)
        return isNegative ? -magnitude : magnitude
    }
}
