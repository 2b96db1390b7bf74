import Foundation

/// Writes a ``PropertyListValue`` as an XML property list, byte for byte in the layout
/// of Foundation's `PropertyListSerialization` (header, tab indentation, one element per
/// line, `<dict/>`/`<array/>` for empty containers, base64 data wrapped at 76 columns).
///
/// Decisions worth knowing:
/// - Dictionary entries are written in their stored order (the value type is ordered),
///   which makes the output deterministic without sorting.
/// - Reals use Swift's shortest round-trip description, so reading the output gives the
///   same bits back (except NaN payloads: every NaN is written as `nan`). A trailing
///   `.0` is dropped, as Foundation does (`<real>1</real>`). Infinities are written as
///   `+infinity` / `-infinity`, exactly as Foundation writes them.
/// - XML has no 4-byte real, so `.float` is written as the `Double` it widens to; it
///   reads back as `.real(Double(f))`.
/// - Dates are written in whole seconds (rounded down, as Foundation does) in UTC.
///   NaN dates are written as the reference date and dates outside nine-digit years are
///   clamped, since the format cannot express them. Years before 1 are written with a
///   `-` sign and astronomical numbering (`-0001` is 2 BC), as in ISO 8601.
/// - `.uid(n)` is written as `<dict><key>CF$UID</key><integer>n</integer></dict>`.
/// - The writer recurses once per nesting level; values deep enough to exhaust the
///   stack cannot be built or destroyed safely in Swift anyway.
enum XMLPropertyListWriter {
    /// The standard header, up to and including `<plist version="1.0">\n`.
    static let header: [UInt8] = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)

    /// Serializes `value` as a complete XML property-list document.
    static func write(_ value: PropertyListValue) -> [UInt8] {
        var writer = Writer()
        writer.out.append(contentsOf: header)
        writer.append(value, indent: 0)
        writer.append("</plist>\n")
        return writer.out
    }

    /// The text used for a real.
    static func realDescription(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// Earliest and latest writable dates: the first and last second of years
    /// -999999999 and 999999999 (what the reader accepts).
    static let earliestDate = XMLPlistCivilDate.daysSinceReferenceDate(year: -999_999_999, month: 1, day: 1) * 86_400
    static let latestDate = XMLPlistCivilDate.daysSinceReferenceDate(year: 999_999_999, month: 12, day: 31) * 86_400 + 86_399

    /// The text used for a date (seconds since 2001-01-01 UTC).
    static func dateDescription(_ seconds: Double) -> String {
        let whole: Int64
        if seconds.isNaN {
            whole = 0
        } else {
            let floored = seconds.rounded(.down)
            if floored <= Double(earliestDate) {
                whole = earliestDate
            } else if floored >= Double(latestDate) {
                whole = latestDate
            } else {
                whole = Int64(floored)
            }
        }
        // Floor division so times before the reference date land on the previous day.
        var days = whole / 86_400
        var secondOfDay = whole % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = XMLPlistCivilDate.date(daysSinceReferenceDate: days)
        func pad(_ v: Int64, _ width: Int) -> String {
            let digits = String(v)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        let yearText = year < 0 ? "-" + pad(0 &- year, 4) : pad(year, 4)
        return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3_600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }
}

private struct Writer {
    var out: [UInt8] = []

    init() {
        out.reserveCapacity(4_096)
    }

    mutating func append(_ text: String) {
        out.append(contentsOf: text.utf8)
    }

    mutating func appendIndent(_ count: Int) {
        for _ in 0..<max(count, 0) { out.append(UInt8(ascii: "\t")) }
    }

    /// Appends `text` with `&`, `<` and `>` escaped.
    mutating func appendEscaped(_ text: String) {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
            out.append(contentsOf: utf8)
            return
        }
        for c in utf8 {
            switch c {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            default: out.append(c)
            }
        }
    }

    /// Appends `<tag>text</tag>\n` (the caller has written the indentation).
    mutating func appendElement(_ tag: String, _ text: String) {
        append("<\(tag)>")
        append(text)
        append("</\(tag)>\n")
    }

    mutating func append(_ value: PropertyListValue, indent: Int) {
        appendIndent(indent)
        switch value {
        case .string(let s):
            append("<string>")
            appendEscaped(s)
            append("</string>\n")
        case .integer(let v):
            appendElement("integer", String(v))
        case .unsignedInteger(let v):
            appendElement("integer", String(v))
        case .wideInteger(let v):
            appendElement("integer", v.description)
        case .real(let d):
            appendElement("real", XMLPropertyListWriter.realDescription(d))
        case .float(let f):
            appendElement("real", XMLPropertyListWriter.realDescription(Double(f)))
        case .bool(let b):
            append(b ? "<true/>\n" : "<false/>\n")
        case .date(let d):
            appendElement("date", XMLPropertyListWriter.dateDescription(d))
        case .data(let d):
            append("<data>\n")
            appendBase64(d, indent: indent)
            appendIndent(indent)
            append("</data>\n")
        case .uid(let n):
            append("<dict>\n")
            appendIndent(indent + 1)
            append("<key>CF$UID</key>\n")
            appendIndent(indent + 1)
            appendElement("integer", String(n))
            appendIndent(indent)
            append("</dict>\n")
        case .array(let items):
            if items.isEmpty {
                append("<array/>\n")
                return
            }
            append("<array>\n")
            for item in items {
                append(item, indent: indent + 1)
            }
            appendIndent(indent)
            append("</array>\n")
        case .dictionary(let entries):
            if entries.isEmpty {
                append("<dict/>\n")
                return
            }
            append("<dict>\n")
            for entry in entries {
                appendIndent(indent + 1)
                append("<key>")
                appendEscaped(entry.key)
                append("</key>\n")
                append(entry.value, indent: indent + 1)
            }
            appendIndent(indent)
            append("</dict>\n")
        }
    }

    /// Base64 lines as Foundation writes them: each line is indented like the `<data>`
    /// tag (at most 8 tabs), tabs count as 8 columns, and lines stop at 76 columns. Since
    /// 76 - 8 × tabs is always a multiple of 4, every full line holds whole groups.
    mutating func appendBase64(_ data: Data, indent: Int) {
        let encoded = XMLPlistBase64.encode(data)
        let tabs = min(max(indent, 0), 8)
        let lineLength = 76 - 8 * tabs
        var start = 0
        while start < encoded.count {
            let end = min(start + lineLength, encoded.count)
            appendIndent(tabs)
            out.append(contentsOf: encoded[start..<end])
            out.append(UInt8(ascii: "\n"))
            start = end
        }
    }
}
