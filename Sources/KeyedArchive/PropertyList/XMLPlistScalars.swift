import Foundation

/// Parsing of the scalar elements of an XML property list: `<integer>`, `<real>`,
/// `<date>` and `<data>`.
/// An `<integer>`: signed, above `Int64.max`, or beyond 64 bits.
enum XMLPlistInteger {
    case signed(Int64)
    case unsigned(UInt64)
    case wide(PropertyListWideInteger)
}

extension XMLPlistParser {
    // MARK: Integer

    /// Decimal or `0x` hexadecimal with an optional sign. Values in `Int64`'s range become
    /// `.signed`, the rest of `UInt64`'s `.unsigned`, and beyond that, up to a magnitude of
    /// 2^128 - 1, `.wide`; anything larger is an error.
    mutating func readInteger(_ tag: StartTag) throws -> XMLPlistInteger {
        let text = try readScalarText(tag, .integer)
        return try scalar(text, tag, .integer) { s in try integer(s, tag) }
    }

    private func integer(_ s: XMLPlistBytes, _ tag: StartTag) throws -> XMLPlistInteger {
        var k = 0
        let negative = XMLPlistDecimal.readSign(s, at: &k)
        var radix: UInt64 = 10
        if k + 1 < s.count, s[k] == XMLByte.zero, s[k + 1] == XMLByte.lowerX || s[k + 1] == XMLByte.upperX {
            radix = 16
            k += 2
        }
        guard k < s.count else { throw fail("malformed integer '\(s.string)'", at: tag.offset) }
        var magnitude: (high: UInt64, low: UInt64) = (0, 0)
        while k < s.count {
            let c = s[k]
            let digit: UInt64
            if radix == 16, let h = XMLByte.hexValue(c) {
                digit = UInt64(h)
            } else if radix == 10, XMLByte.isDigit(c) {
                digit = UInt64(c &- XMLByte.zero)
            } else {
                throw fail("malformed integer '\(s.string)'", at: tag.offset)
            }
            guard let next = PropertyListWideInteger.accumulate(magnitude.high, magnitude.low, radix: radix, digit: digit) else {
                throw fail("integer out of range '\(s.string)'", at: tag.offset)
            }
            magnitude = next
            k += 1
        }
        return PropertyListWideInteger(isNegative: negative, magnitudeHigh: magnitude.high, magnitudeLow: magnitude.low)
            .narrowest(XMLPlistInteger.signed, XMLPlistInteger.unsigned, XMLPlistInteger.wide)
    }

    // MARK: Real

    /// A `<real>`: the grammar and value of ``XMLPlistDecimal/real(_:)``.
    mutating func readReal(_ tag: StartTag) throws -> Double {
        let text = try readScalarText(tag, .real)
        return try scalar(text, tag, .real) { s in
            guard let value = XMLPlistDecimal.real(s) else {
                throw fail("malformed real '\(s.string)'", at: tag.offset)
            }
            return value
        }
    }

    // MARK: Date

    /// A `<date>`: the grammar and value of ``XMLPlistDateText/secondsSince2001(_:)``.
    mutating func readDate(_ tag: StartTag) throws -> Double {
        let text = try readScalarText(tag, .date)
        return try scalar(text, tag, .date) { s in
            switch XMLPlistDateText.secondsSince2001(s) {
            case .success(let seconds):
                return seconds
            case .failure(let why):
                throw fail("malformed date '\(s.string)' (\(why.message))", at: tag.offset)
            }
        }
    }

    // MARK: Data

    mutating func readData() throws -> Data {
        let start = i
        let content = try readText(closing: .data)
        do {
            return try withBytes(of: content) { try XMLPlistBase64.decode($0) }
        } catch let why as XMLPlistBase64.DecodeError {
            throw fail("malformed base64 in <data> (\(why.message))", at: start)
        }
    }
}

/// Reals read without an intermediate string.
enum XMLPlistDecimal {
    /// Skips an optional `-` or `+` at `k` (which must be inside `s`); true for `-`.
    @inline(__always)
    static func readSign(_ s: XMLPlistBytes, at k: inout Int) -> Bool {
        guard s[k] == XMLByte.dash || s[k] == XMLByte.plus else { return false }
        k += 1
        return s[k - 1] == XMLByte.dash
    }

    /// Powers of ten that are exact doubles (10^0 ... 10^22).
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`, or `nan`, `inf`,
    /// `infinity` (any case, optional sign); nil when `s` (trimmed, not empty) is none of
    /// these. The grammar is checked here because `Double.init(_: String)` also accepts hex
    /// floats and `nan(...)` payloads. Shared by both readers.
    static func real(_ s: XMLPlistBytes) -> Double? {
        var k = 0
        guard k < s.count else { return nil }
        let negative = readSign(s, at: &k)
        let body = s.slice(k..<s.count)
        if let special = specialReal(body) {
            if special.isNaN { return .nan }
            return negative ? -special : special
        }
        var intDigits = 0
        while k < s.count && XMLByte.isDigit(s[k]) { k += 1; intDigits += 1 }
        var fracDigits = 0
        if k < s.count && s[k] == XMLByte.dot {
            k += 1
            while k < s.count && XMLByte.isDigit(s[k]) { k += 1; fracDigits += 1 }
        }
        var valid = intDigits + fracDigits > 0
        if valid && k < s.count && (s[k] == XMLByte.lowerE || s[k] == XMLByte.upperE) {
            k += 1
            if k < s.count && (s[k] == XMLByte.dash || s[k] == XMLByte.plus) { k += 1 }
            var expDigits = 0
            while k < s.count && XMLByte.isDigit(s[k]) { k += 1; expDigits += 1 }
            valid = expDigits > 0
        }
        guard valid, k == s.count else { return nil }
        if let exact = exactDecimal(s) { return exact }
        return Double(s.string)
    }

    static func specialReal(_ body: XMLPlistBytes) -> Double? {
        func equalsIgnoringCase(_ word: StaticString) -> Bool {
            guard body.count == word.utf8CodeUnitCount else { return false }
            return word.withUTF8Buffer { w in
                zip(body, w).allSatisfy { XMLByte.lower($0) == $1 }
            }
        }
        if equalsIgnoringCase("nan") { return .nan }
        if equalsIgnoringCase("inf") || equalsIgnoringCase("infinity") { return .infinity }
        return nil
    }

    /// A real already checked against the grammar, read without an intermediate string
    /// when it has at most 19 significant digits, correctly rounded as `Double(String)` rounds
    /// it; nil when it needs `Double(String)`. With at most 15 digits and a small exponent the
    /// digits and the power of ten are both exact doubles, so one multiplication or division
    /// rounds correctly (Clinger's fast path); otherwise ``EiselLemire`` decides most cases.
    static func exactDecimal(_ s: XMLPlistBytes) -> Double? {
        var k = 0
        let negative = readSign(s, at: &k)
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenDot = false
        while k < s.count {
            let c = s[k]
            if c == XMLByte.dot { seenDot = true; k += 1; continue }
            guard XMLByte.isDigit(c) else { break }
            if mantissa != 0 || c != XMLByte.zero { digits += 1 }
            // 19 digits stay below 10^19 < 2^64: no overflow.
            guard digits <= 19 else { return nil }
            mantissa = mantissa &* 10 &+ UInt64(c &- XMLByte.zero)
            if seenDot { scale -= 1 }
            k += 1
        }
        if k < s.count {
            // An exponent (the grammar check guarantees `[eE][+-]?digits` here).
            k += 1
            var negativeExponent = false
            if s[k] == XMLByte.dash || s[k] == XMLByte.plus {
                negativeExponent = s[k] == XMLByte.dash
                k += 1
            }
            var exponent = 0
            while k < s.count {
                guard exponent < 1_000 else { return nil }  // far outside the fast path; stops overflow
                exponent = exponent * 10 + Int(s[k] &- XMLByte.zero)
                k += 1
            }
            scale += negativeExponent ? -exponent : exponent
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        // 15 digits stay below 10^15 < 2^53: every such mantissa is an exact double.
        guard digits <= 15, scale >= -22, scale <= 22 else {
            guard let magnitude = EiselLemire.double(significand: mantissa, exponent10: scale) else { return nil }
            return negative ? -magnitude : magnitude
        }
        let powers = exactPowersOfTen
        let magnitude = scale < 0 ? Double(mantissa) / powers[-scale] : Double(mantissa) * powers[scale]
        return negative ? -magnitude : magnitude
    }

}

/// The text of a `<date>`, read without an intermediate string (shared by both readers).
enum XMLPlistDateText {
    /// Why a date is malformed (the reader adds the text and the line).
    struct Malformed: Error {
        var message: String
    }

    /// `[-]Y...Y-MM-DDTHH:MM:SS[.fff]Z` in UTC, proleptic Gregorian with a year 0.
    /// The year has 1 to 9 digits, which keeps all arithmetic far from overflow.
    /// `s` is the trimmed content.
    static func secondsSince2001(_ s: XMLPlistBytes) -> Result<Double, Malformed> {
        do throws(Malformed) {
            return .success(try parse(s))
        } catch {
            return .failure(error)
        }
    }

    private static func parse(_ s: XMLPlistBytes) throws(Malformed) -> Double {
        func bad(_ why: String) -> Malformed { Malformed(message: why) }
        var k = 0
        var negativeYear = false
        if k < s.count && s[k] == XMLByte.dash { negativeYear = true; k += 1 }
        var year: Int64 = 0
        var yearDigits = 0
        while k < s.count && XMLByte.isDigit(s[k]) {
            guard yearDigits < 9 else { throw bad("year has too many digits") }
            year = year &* 10 &+ Int64(s[k] &- XMLByte.zero)
            yearDigits += 1
            k += 1
        }
        guard yearDigits > 0 else { throw bad("missing year") }
        if negativeYear { year = 0 &- year }

        func twoDigits(after separator: UInt8?, _ what: String) throws(Malformed) -> Int64 {
            if let separator {
                guard k < s.count, s[k] == separator else { throw bad("expected '\(Character(Unicode.Scalar(separator)))' before \(what)") }
                k += 1
            }
            guard k + 1 < s.count, XMLByte.isDigit(s[k]), XMLByte.isDigit(s[k + 1]) else {
                throw bad("expected two-digit \(what)")
            }
            let v = Int64(s[k] &- XMLByte.zero) &* 10 &+ Int64(s[k + 1] &- XMLByte.zero)
            k += 2
            return v
        }
        let month = try twoDigits(after: XMLByte.dash, "month")
        let day = try twoDigits(after: XMLByte.dash, "day")
        let hour = try twoDigits(after: XMLByte.upperT, "hour")
        let minute = try twoDigits(after: XMLByte.colon, "minute")
        let second = try twoDigits(after: XMLByte.colon, "second")
        var fraction = 0.0
        if k < s.count && s[k] == XMLByte.dot {
            let fracStart = k
            k += 1
            while k < s.count && XMLByte.isDigit(s[k]) { k += 1 }
            guard k > fracStart + 1, let f = Double(s.slice(fracStart..<k).string) else {
                throw bad("malformed fractional seconds")
            }
            fraction = f
        }
        guard k < s.count, s[k] == XMLByte.upperZ, k + 1 == s.count else {
            throw bad("expected 'Z' at the end")
        }
        guard month >= 1 && month <= 12 else { throw bad("month out of range") }
        guard day >= 1 && day <= XMLPlistCivilDate.daysInMonth(year: year, month: month) else { throw bad("day out of range") }
        guard hour <= 23 else { throw bad("hour out of range") }
        guard minute <= 59 else { throw bad("minute out of range") }
        guard second <= 59 else { throw bad("second out of range") }
        let days = XMLPlistCivilDate.daysSinceReferenceDate(year: year, month: month, day: day)
        let seconds = days &* 86_400 &+ hour &* 3_600 &+ minute &* 60 &+ second
        return Double(seconds) + fraction
    }
}
