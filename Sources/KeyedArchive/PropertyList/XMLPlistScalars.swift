import Foundation

/// Parsing of the scalar elements of an XML property list: `<integer>`, `<real>`,
/// `<date>` and `<data>`.
extension XMLPlistParser {
    // MARK: Integer

    /// Decimal or `0x` hexadecimal with an optional sign. Values in `Int64`'s range become
    /// `.integer`, the rest of `UInt64`'s `.unsignedInteger`, and beyond that, up to a
    /// magnitude of 2^128 - 1, `.wideInteger`; anything larger is an error.
    mutating func readInteger(_ tag: StartTag) throws -> PropertyListValue {
        let s = try readScalarText(tag, .integer)
        var k = s.startIndex
        var negative = false
        if s[k] == XMLByte.dash || s[k] == XMLByte.plus {
            negative = s[k] == XMLByte.dash
            k += 1
        }
        var radix: UInt64 = 10
        if k + 1 < s.endIndex, s[k] == XMLByte.zero, s[k + 1] == XMLByte.lowerX || s[k + 1] == XMLByte.upperX {
            radix = 16
            k += 2
        }
        guard k < s.endIndex else { throw fail("malformed integer '\(String(decoding: s, as: UTF8.self))'", at: tag.offset) }
        var magnitude: (high: UInt64, low: UInt64) = (0, 0)
        while k < s.endIndex {
            let c = s[k]
            let digit: UInt64
            if radix == 16, let h = XMLByte.hexValue(c) {
                digit = UInt64(h)
            } else if radix == 10, XMLByte.isDigit(c) {
                digit = UInt64(c &- XMLByte.zero)
            } else {
                throw fail("malformed integer '\(String(decoding: s, as: UTF8.self))'", at: tag.offset)
            }
            guard let next = PropertyListWideInteger.accumulate(magnitude.high, magnitude.low, radix: radix, digit: digit) else {
                throw fail("integer out of range '\(String(decoding: s, as: UTF8.self))'", at: tag.offset)
            }
            magnitude = next
            k += 1
        }
        return PropertyListWideInteger.value(isNegative: negative, high: magnitude.high, low: magnitude.low)
    }

    // MARK: Real

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`, or `nan`, `inf`,
    /// `infinity` (any case, optional sign). The grammar is checked here because
    /// `Double.init(_: String)` also accepts hex floats and `nan(...)` payloads.
    mutating func readReal(_ tag: StartTag) throws -> PropertyListValue {
        let s = try readScalarText(tag, .real)
        var k = s.startIndex
        var negative = false
        if s[k] == XMLByte.dash || s[k] == XMLByte.plus {
            negative = s[k] == XMLByte.dash
            k += 1
        }
        let body = s[k...]
        if let special = Self.specialReal(body) {
            if special.isNaN { return .real(.nan) }
            return .real(negative ? -special : special)
        }
        var intDigits = 0
        while k < s.endIndex && XMLByte.isDigit(s[k]) { k += 1; intDigits += 1 }
        var fracDigits = 0
        if k < s.endIndex && s[k] == XMLByte.dot {
            k += 1
            while k < s.endIndex && XMLByte.isDigit(s[k]) { k += 1; fracDigits += 1 }
        }
        var valid = intDigits + fracDigits > 0
        if valid && k < s.endIndex && (s[k] == XMLByte.lowerE || s[k] == XMLByte.upperE) {
            k += 1
            if k < s.endIndex && (s[k] == XMLByte.dash || s[k] == XMLByte.plus) { k += 1 }
            var expDigits = 0
            while k < s.endIndex && XMLByte.isDigit(s[k]) { k += 1; expDigits += 1 }
            valid = expDigits > 0
        }
        guard valid, k == s.endIndex, let d = Double(String(decoding: s, as: UTF8.self)) else {
            throw fail("malformed real '\(String(decoding: s, as: UTF8.self))'", at: tag.offset)
        }
        return .real(d)
    }

    static func specialReal(_ body: ArraySlice<UInt8>) -> Double? {
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

    // MARK: Date

    /// `[-]Y...Y-MM-DDTHH:MM:SS[.fff]Z` in UTC, proleptic Gregorian with a year 0.
    /// The year has 1 to 9 digits, which keeps all arithmetic far from overflow.
    mutating func readDate(_ tag: StartTag) throws -> PropertyListValue {
        let s = try readScalarText(tag, .date)
        func bad(_ why: String) -> PropertyListError {
            fail("malformed date '\(String(decoding: s, as: UTF8.self))' (\(why))", at: tag.offset)
        }
        var k = s.startIndex
        var negativeYear = false
        if s[k] == XMLByte.dash { negativeYear = true; k += 1 }
        var year: Int64 = 0
        var yearDigits = 0
        while k < s.endIndex && XMLByte.isDigit(s[k]) {
            guard yearDigits < 9 else { throw bad("year has too many digits") }
            year = year &* 10 &+ Int64(s[k] &- XMLByte.zero)
            yearDigits += 1
            k += 1
        }
        guard yearDigits > 0 else { throw bad("missing year") }
        if negativeYear { year = 0 &- year }

        func twoDigits(after separator: UInt8?, _ what: String) throws -> Int64 {
            if let separator {
                guard k < s.endIndex, s[k] == separator else { throw bad("expected '\(Character(Unicode.Scalar(separator)))' before \(what)") }
                k += 1
            }
            guard k + 1 < s.endIndex, XMLByte.isDigit(s[k]), XMLByte.isDigit(s[k + 1]) else {
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
        if k < s.endIndex && s[k] == XMLByte.dot {
            let fracStart = k
            k += 1
            while k < s.endIndex && XMLByte.isDigit(s[k]) { k += 1 }
            guard k > fracStart + 1, let f = Double(String(decoding: s[fracStart..<k], as: UTF8.self)) else {
                throw bad("malformed fractional seconds")
            }
            fraction = f
        }
        guard k < s.endIndex, s[k] == XMLByte.upperZ, k + 1 == s.endIndex else {
            throw bad("expected 'Z' at the end")
        }
        guard month >= 1 && month <= 12 else { throw bad("month out of range") }
        guard day >= 1 && day <= XMLPlistCivilDate.daysInMonth(year: year, month: month) else { throw bad("day out of range") }
        guard hour <= 23 else { throw bad("hour out of range") }
        guard minute <= 59 else { throw bad("minute out of range") }
        guard second <= 59 else { throw bad("second out of range") }
        let days = XMLPlistCivilDate.daysSinceReferenceDate(year: year, month: month, day: day)
        let seconds = days &* 86_400 &+ hour &* 3_600 &+ minute &* 60 &+ second
        return .date(Double(seconds) + fraction)
    }

    // MARK: Data

    mutating func readData() throws -> Data {
        let start = i
        let content = try readText(closing: .data)
        do {
            return try XMLPlistBase64.decode(content)
        } catch let why as XMLPlistBase64.DecodeError {
            throw fail("malformed base64 in <data> (\(why.message))", at: start)
        }
    }
}
