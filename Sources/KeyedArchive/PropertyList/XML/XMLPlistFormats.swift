import Foundation

// MARK: - Calendar arithmetic

/// Proleptic Gregorian calendar arithmetic on days (Howard Hinnant's algorithms), with
/// astronomical year numbering (year 0 exists, as in ISO 8601). Shared by the reader and
/// the writer. Callers keep years within nine digits, so nothing here can overflow.
enum XMLPlistCivilDate {
    /// Days from 1970-01-01 to 2001-01-01.
    static let referenceDayOffset: Int64 = 11_323

    static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 2001-01-01 to the given date. (Wrapping operators: callers bound the
    /// year, so they never actually wrap, and nothing here can trap.)
    static func daysSinceReferenceDate(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year &- 1 : year
        let era = (y >= 0 ? y : y &- 399) / 400
        let yoe = y &- era &* 400
        let mp = month > 2 ? month &- 3 : month &+ 9
        let doy = (153 &* mp &+ 2) / 5 &+ day &- 1
        let doe = yoe &* 365 &+ yoe / 4 &- yoe / 100 &+ doy
        return era &* 146_097 &+ doe &- 719_468 &- referenceDayOffset
    }

    /// The date `days` days after 2001-01-01.
    static func date(daysSinceReferenceDate days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days &+ referenceDayOffset &+ 719_468
        let era = (z >= 0 ? z : z &- 146_096) / 146_097
        let doe = z &- era &* 146_097
        let yoe = (doe &- doe / 1_460 &+ doe / 36_524 &- doe / 146_096) / 365
        let doy = doe &- (365 &* yoe &+ yoe / 4 &- yoe / 100)
        let mp = (5 &* doy &+ 2) / 153
        let day = doy &- (153 &* mp &+ 2) / 5 &+ 1
        let month = mp < 10 ? mp &+ 3 : mp &- 9
        let year = yoe &+ era &* 400 &+ (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

// MARK: - Base64

/// Strict base64 (RFC 4648 alphabet) with whitespace allowed anywhere. Padding is
/// required to complete the last group; leftover bits in the last group are ignored, as
/// Foundation and Python do.
enum XMLPlistBase64 {
    struct DecodeError: Error {
        var message: String
    }

    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Writes one line of base64 text at `line`: `tabs` tabs, the characters of
    /// `bytes[range]` (the last group padded with `=` when it is short, which only the
    /// data's last line can be), and a newline; `tabs + (range.count + 2) / 3 * 4 + 1`
    /// bytes in all.
    static func encodeLine(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, tabs: Int, into line: UnsafeMutablePointer<UInt8>) {
        alphabet.withUnsafeBufferPointer { alphabet in
            line.update(repeating: XMLByte.tab, count: tabs)
            var out = tabs
            var k = range.lowerBound
            let end = range.upperBound
            // Bounds: reads stay in bytes[range] (k + 2 < end, end <= bytes.count), every
            // alphabet index is 6 bits (< 64), and the writes are the count given above:
            // 4 per whole group, 4 for a last partial one, then the newline.
            while k + 2 < end {
                let group = UInt32(bytes[k]) << 16 | UInt32(bytes[k + 1]) << 8 | UInt32(bytes[k + 2])
                line[out] = alphabet[Int((group >> 18) & 0x3F)]
                line[out + 1] = alphabet[Int((group >> 12) & 0x3F)]
                line[out + 2] = alphabet[Int((group >> 6) & 0x3F)]
                line[out + 3] = alphabet[Int(group & 0x3F)]
                out += 4
                k += 3
            }
            if k < end {
                let b1: UInt32 = k + 1 < end ? UInt32(bytes[k + 1]) : 0
                let group = UInt32(bytes[k]) << 16 | b1 << 8
                line[out] = alphabet[Int((group >> 18) & 0x3F)]
                line[out + 1] = alphabet[Int((group >> 12) & 0x3F)]
                line[out + 2] = k + 1 < end ? alphabet[Int((group >> 6) & 0x3F)] : XMLByte.equals
                line[out + 3] = XMLByte.equals
                out += 4
            }
            line[out] = XMLByte.lf
        }
    }

    /// Sextet value per byte, or 0xFF when the byte is not in the alphabet.
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, c) in alphabet.enumerated() {
            table[Int(c)] = UInt8(truncatingIfNeeded: index)
        }
        return table
    }()

    static func decode(_ text: XMLPlistBytes) throws -> Data {
        var out = [UInt8]()
        try decode(text, into: &out)
        return Data(out)
    }

    /// Decodes `text` into `out` (emptied first, its capacity kept: the fast XML reader
    /// reuses one buffer for every `<data>`).
    static func decode(_ text: XMLPlistBytes, into out: inout [UInt8]) throws(DecodeError) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(text.count / 4 * 3 + 3)
        let table = decodeTable  // once per call, not once per character
        var accumulator: UInt32 = 0
        var sextets = 0
        var padding = 0
        for c in text {
            if XMLByte.isWhitespace(c) { continue }
            if c == XMLByte.equals {
                guard sextets >= 2, padding < 2 else { throw DecodeError(message: "misplaced '='") }
                padding += 1
                continue
            }
            guard padding == 0 else { throw DecodeError(message: "characters after padding") }
            let v = table[Int(c)]
            guard v != 0xFF else {
                throw DecodeError(message: "invalid character '\(Character(Unicode.Scalar(c)))'")
            }
            accumulator = (accumulator << 6) | UInt32(v)
            sextets += 1
            if sextets == 4 {
                out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                out.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                out.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator = 0
                sextets = 0
            }
        }
        switch (sextets, padding) {
        case (0, 0):
            break
        case (2, 2):
            out.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case (3, 1):
            out.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            out.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default:
            throw DecodeError(message: "length is not a multiple of 4")
        }
    }

    /// Encodes `bytes` without line breaks.
    static func encode(_ bytes: Data) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next()
            let b2 = iterator.next()
            let group = UInt32(b0) << 16 | UInt32(b1 ?? 0) << 8 | UInt32(b2 ?? 0)
            out.append(alphabet[Int((group >> 18) & 0x3F)])
            out.append(alphabet[Int((group >> 12) & 0x3F)])
            out.append(b1 == nil ? XMLByte.equals : alphabet[Int((group >> 6) & 0x3F)])
            out.append(b2 == nil ? XMLByte.equals : alphabet[Int(group & 0x3F)])
        }
        return out
    }
}
