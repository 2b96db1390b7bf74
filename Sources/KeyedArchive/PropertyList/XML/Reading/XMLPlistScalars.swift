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
    /// floats and `nan(...)` payloads. Shared by both readers. One pass over the text checks
    /// the grammar and gathers the digits (``scan(_:)``).
    static func real(_ s: XMLPlistBytes) -> Double? {
        guard s.count > 0 else { return nil }
        let scanned = scan(s)
        guard scanned.valid else {
            guard let special = specialReal(s.slice(scanned.signLength..<s.count)) else { return nil }
            if special.isNaN { return .nan }
            return scanned.negative ? -special : special
        }
        if let exact = exactDecimal(scanned) { return exact }
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

    /// What one pass over a real's text finds.
    struct Scan {
        /// Whether the whole text is a decimal real (the grammar above, specials aside).
        var valid = false
        var negative = false
        /// 1 when the text starts with a sign.
        var signLength = 0
        /// The significant digits (the first 19 of them) as an integer, how many there are
        /// (leading zeros not counted), and the power of ten that scales them.
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        /// An exponent too large to add up (it went past 999 with digits still to come).
        var exponentTooLarge = false
    }

    /// One pass over `s`: the grammar, the digits and the scale.
    @inline(__always)
    static func scan(_ s: XMLPlistBytes) -> Scan {
        var result = Scan()
        let count = s.count
        var k = 0
        result.negative = readSign(s, at: &k)
        result.signLength = k
        var mantissa: UInt64 = 0
        var digits = 0
        var bodyDigits = 0
        var scale = 0
        var seenDot = false
        while k < count {
            let c = s[k]  // k < count
            if c == XMLByte.dot {
                guard !seenDot else { break }
                seenDot = true
                k += 1
                continue
            }
            guard XMLByte.isDigit(c) else { break }
            if mantissa != 0 || c != XMLByte.zero { digits += 1 }
            // 19 digits stay below 10^19 < 2^64: no overflow (more need `Double(String)`).
            if digits <= 19 { mantissa = mantissa &* 10 &+ UInt64(c &- XMLByte.zero) }
            if seenDot { scale -= 1 }
            bodyDigits += 1
            k += 1
        }
        var valid = bodyDigits > 0
        if valid && k < count && (s[k] == XMLByte.lowerE || s[k] == XMLByte.upperE) {
            k += 1
            var negativeExponent = false
            if k < count && (s[k] == XMLByte.dash || s[k] == XMLByte.plus) {
                negativeExponent = s[k] == XMLByte.dash
                k += 1
            }
            var exponent = 0
            var exponentDigits = 0
            while k < count, XMLByte.isDigit(s[k]) {
                // Far outside the fast paths past 999; stops overflow.
                if exponent >= 1_000 { result.exponentTooLarge = true } else { exponent = exponent * 10 + Int(s[k] &- XMLByte.zero) }
                exponentDigits += 1
                k += 1
            }
            valid = exponentDigits > 0
            scale += negativeExponent ? -exponent : exponent
        }
        result.valid = valid && k == count
        result.mantissa = mantissa
        result.digits = digits
        result.scale = scale
        return result
    }

    /// A real already checked against the grammar, read without an intermediate string
    /// when it has at most 19 significant digits, correctly rounded as `Double(String)` rounds
    /// it; nil when it needs `Double(String)`.
    static func exactDecimal(_ s: XMLPlistBytes) -> Double? {
        exactDecimal(scan(s))
    }

    /// The value of a scanned real with at most 19 significant digits, or nil. With at most
    /// 15 digits and a small exponent the digits and the power of ten are both exact doubles,
    /// so one multiplication or division rounds correctly (Clinger's fast path); otherwise
    /// ``EiselLemire`` decides most cases.
    @inline(__always)
    static func exactDecimal(_ scanned: Scan) -> Double? {
        guard scanned.digits <= 19, !scanned.exponentTooLarge else { return nil }
        let mantissa = scanned.mantissa, scale = scanned.scale, negative = scanned.negative
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        // 15 digits stay below 10^15 < 2^53: every such mantissa is an exact double.
        guard scanned.digits <= 15, scale >= -22, scale <= 22 else {
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
