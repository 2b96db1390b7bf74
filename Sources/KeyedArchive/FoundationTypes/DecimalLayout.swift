import Foundation

/// NSDecimalNumber's keyed layout, converted through `Decimal`'s public API (its stored
/// fields are not public in swift-corelibs-foundation).
struct DecimalLayout: Hashable {
    var exponent: Int
    var isNegative: Bool
    /// Little-endian 16-bit words of the mantissa (at most 8).
    var words: [UInt16]

    /// The number of significant mantissa words (`NS.length`).
    var length: Int {
        var count = words.count
        while count > 0, words[count - 1] == 0 { count -= 1 }
        return count
    }

    /// The 16 mantissa bytes as Apple writes them (`NS.mantissa` with `NS.mantissa.bo` = 1).
    var mantissaBytes: Data {
        var bytes = [UInt8]()
        bytes.reserveCapacity(16)
        for index in 0..<8 {
            let word = index < words.count ? words[index] : 0
            bytes.append(UInt8(word & 0xFF))
            bytes.append(UInt8(word >> 8))
        }
        return Data(bytes)
    }

    /// Splits a decimal into mantissa and exponent, from its plain-digits description.
    init(_ value: Decimal) {
        isNegative = value.isNaN || value < 0
        guard !value.isNaN, !value.isZero else {
            exponent = 0
            words = []
            return
        }
        var digits: [UInt8] = []
        var exponent = 0
        var afterPoint = false
        var text = Substring(value.description)
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        for character in text {
            if character == "." {
                afterPoint = true
            } else if let digit = character.wholeNumberValue {
                digits.append(UInt8(digit))
                if afterPoint { exponent -= 1 }
            }
        }
        // Compact: trailing zeros move into the exponent; leading zeros go.
        while digits.count > 1, digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        var words: [UInt16] = []
        for digit in digits {
            // words = words × 10 + digit, in base 65536.
            var carry = UInt32(digit)
            for index in words.indices {
                let product = UInt32(words[index]) * 10 + carry
                words[index] = UInt16(product & 0xFFFF)
                carry = product >> 16
            }
            if carry != 0 { words.append(UInt16(carry)) }
        }
        self.exponent = exponent
        self.words = Array(words.prefix(8))
    }

    init(exponent: Int, isNegative: Bool, words: [UInt16]) {
        self.exponent = exponent
        self.isNegative = isNegative
        self.words = words
    }

    /// The decimal this layout describes. Length 0 with the sign set is NaN, as in Foundation.
    var decimal: Decimal {
        let length = self.length
        if length == 0 { return isNegative ? Decimal.nan : Decimal.zero }
        var significand = Decimal.zero
        for index in stride(from: length - 1, through: 0, by: -1) {
            significand = significand * 65_536 + Decimal(words[index])
        }
        return Decimal(sign: isNegative ? .minus : .plus, exponent: exponent, significand: significand)
    }
}

// MARK: - Reading the archived fields

extension DecimalLayout {
    /// The layout NSDecimalNumber's archived fields describe: `NS.mantissa` (eight 16-bit
    /// words; `NS.mantissa.bo` 1 or absent for little-endian, as Apple writes them, any
    /// other value for big-endian), `NS.length` (how many words count), `NS.exponent`,
    /// `NS.negative`. `nil` when the fields are out of range (exponent outside −128…127,
    /// length outside 0…8, fewer mantissa bytes than the length needs).
    ///
    /// The one reading of these fields: the decoder's `Decimal` layout and
    /// ``KeyedArchiveView/foundationValue(of:)`` both call it.
    init?(mantissa: [UInt8], length: Int64, exponent: Int64, isNegative: Bool, byteOrder: Int64?) {
        guard (-128...127).contains(exponent), (0...8).contains(length), mantissa.count >= 2 * Int(length) else { return nil }
        let littleEndian = byteOrder.map { $0 == 1 } ?? true
        var words: [UInt16] = []
        words.reserveCapacity(Int(length))
        for index in 0..<Int(length) {
            let first = UInt16(mantissa[2 * index]), second = UInt16(mantissa[2 * index + 1])
            words.append(littleEndian ? second << 8 | first : first << 8 | second)
        }
        self.init(exponent: Int(exponent), isNegative: isNegative, words: words)
    }

    /// Whether the layout is NaN (length 0 with the sign set).
    var isNaN: Bool { length == 0 && isNegative }

    /// The exact number as text, digits computed here rather than through `Decimal` so
    /// nothing is rounded: `-12.5`, `0`, `1.5e45` (exponent form when more than 40 zeros
    /// would be written), `NaN`. Valid JSON number text except for `NaN`.
    var exactText: String {
        if isNaN { return "NaN" }
        var words = Array(self.words.prefix(length))
        let digits = Self.decimalDigits(&words)
        if digits == "0" { return "0" }
        return (isNegative ? "-" : "") + Self.place(digits, exponent: exponent)
    }

    /// The base-10 digits of a little-endian base-65536 number (consumed).
    private static func decimalDigits(_ words: inout [UInt16]) -> String {
        var groups: [UInt32] = []  // base 10_000, least significant first
        while words.contains(where: { $0 != 0 }) {
            var remainder: UInt32 = 0
            for index in words.indices.reversed() {
                let current = remainder << 16 | UInt32(words[index])
                words[index] = UInt16(current / 10_000)
                remainder = current % 10_000
            }
            groups.append(remainder)
        }
        guard let top = groups.last else { return "0" }
        var text = String(top)
        for group in groups.dropLast().reversed() {
            let part = String(group)
            text += String(repeating: "0", count: 4 - part.count) + part
        }
        return text
    }

    /// `digits × 10^exponent` written out; trailing zeros of a fraction are dropped.
    private static func place(_ digits: String, exponent: Int) -> String {
        let characters = Array(digits)
        let point = characters.count + exponent  // digits before the decimal point
        if exponent >= 0, point <= 40 {
            return digits + String(repeating: "0", count: exponent)
        }
        if exponent < 0, point > -40 {
            let whole = point > 0 ? String(characters[..<point]) : "0"
            let fraction = String(repeating: "0", count: max(0, -point)) + String(characters[max(0, point)...])
            let trimmed = fraction.reversed().drop(while: { $0 == "0" }).reversed()
            return trimmed.isEmpty ? whole : whole + "." + String(trimmed)
        }
        let rest = String(characters.dropFirst().reversed().drop(while: { $0 == "0" }).reversed())
        return String(characters[0]) + (rest.isEmpty ? "" : "." + rest) + "e\(point - 1)"
    }
}
