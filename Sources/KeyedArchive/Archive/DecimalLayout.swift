import Foundation

/// NSDecimalNumber's keyed layout, converted through `Decimal`'s public API (its stored
/// fields are not public in swift-corelibs-foundation).
struct DecimalLayout: Equatable {
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
