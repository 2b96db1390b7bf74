import KeyedArchive

/// NSDecimalNumber's archived layout turned into exact JSON number text.
///
/// The fields: `NS.mantissa` (16 bytes: eight 16-bit words, `NS.mantissa.bo` = 1 for
/// little-endian, as Apple writes them), `NS.length` (how many words count),
/// `NS.exponent` (a power of ten), `NS.negative`. Length 0 with the sign set is NaN.
/// The digits are computed here rather than through `Decimal`, so nothing is rounded.
enum DecimalText {
    enum Value: Equatable {
        /// Valid JSON number text, such as `-12.5` or `1.5e45`.
        case number(String)
        case notANumber
    }

    /// The number an NSDecimalNumber object holds, or `nil` when its fields are not the
    /// expected layout.
    static func value(of object: ArchivedObject) -> Value? {
        guard case .data(let mantissa)? = object["NS.mantissa"],
              let length = integer(object["NS.length"]), (0...8).contains(length),
              let exponent = integer(object["NS.exponent"]), abs(exponent) <= 10_000,
              mantissa.count >= length * 2
        else { return nil }
        var isNegative = false
        if case .bool(let flag)? = object["NS.negative"] { isNegative = flag }
        let littleEndian = integer(object["NS.mantissa.bo"]).map { $0 == 1 } ?? true
        let bytes = [UInt8](mantissa)
        var words: [UInt16] = (0..<length).map { index in
            let first = UInt16(bytes[2 * index]), second = UInt16(bytes[2 * index + 1])
            return littleEndian ? first | second << 8 : first << 8 | second
        }
        if length == 0 { return isNegative ? .notANumber : .number("0") }
        let digits = decimalDigits(&words)
        if digits == "0" { return .number("0") }
        return .number((isNegative ? "-" : "") + place(digits, exponent: exponent))
    }

    private static func integer(_ value: ArchivedValue?) -> Int? {
        switch value {
        case .integer(let number)?: return Int(exactly: number)
        case .unsignedInteger(let number)?: return Int(exactly: number)
        default: return nil
        }
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

    /// `digits × 10^exponent` written out, in exponent form when that would take more
    /// than 40 zeros; trailing zeros of a fraction are dropped.
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
