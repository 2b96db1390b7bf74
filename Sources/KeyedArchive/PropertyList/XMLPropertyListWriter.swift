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
        var output = XMLPlistOutput()
        output.beginDocument()
        output.value(value, indent: 0)
        output.endDocument()
        return output.out
    }

    /// The text used for a real.
    static func realDescription(_ value: Double) -> String {
        var output = XMLPlistOutput(capacity: 32)
        output.realText(value)
        return String(decoding: output.out, as: UTF8.self)
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

/// Streaming XML property-list output: each method appends one complete element (its
/// indentation, tags and text) straight to the byte buffer, with no intermediate tree and no
/// string per element. ``XMLPropertyListWriter`` drives it from a ``PropertyListValue``; the
/// archive encoder drives it from its object table (`ArchiveObjectTable.xml()`), so both
/// write the same bytes for the same value.
struct XMLPlistOutput {
    var out: [UInt8] = []

    init(capacity: Int = 4_096) {
        out.reserveCapacity(capacity)
    }

    // MARK: Pieces

    @inline(__always)
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    @inline(__always)
    mutating func indent(_ count: Int) {
        var k = 0
        while k < count {
            out.append(XMLByte.tab)
            k += 1
        }
    }

    /// Appends the decimal digits of `value`, with no intermediate string.
    @inline(__always)
    mutating func decimal(_ value: UInt64, negative: Bool = false) {
        out.appendDecimal(value, negative: negative)
    }

    @inline(__always)
    mutating func signed(_ value: Int64) {
        decimal(value.magnitude, negative: value < 0)
    }

    /// Appends `text` with `&`, `<` and `>` escaped.
    mutating func escaped(_ text: String) {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == XMLByte.amp || $0 == XMLByte.lt || $0 == XMLByte.gt }) else {
            out.append(contentsOf: utf8)
            return
        }
        for c in utf8 {
            switch c {
            case XMLByte.amp: raw("&amp;")
            case XMLByte.lt: raw("&lt;")
            case XMLByte.gt: raw("&gt;")
            default: out.append(c)
            }
        }
    }

    /// A real as Foundation writes it: Swift's shortest round-trip text without a trailing
    /// `.0`, `nan`, `+infinity`, `-infinity`.
    mutating func realText(_ value: Double) {
        if value.isNaN { return raw("nan") }
        if value.isInfinite { return value < 0 ? raw("-infinity") : raw("+infinity") }
        if value == value.rounded(.towardZero), value.magnitude < 1e15 {
            // Whole numbers below 10^15 print as their digits (`1.0` → `1`, `-0.0` → `-0`).
            return decimal(UInt64(value.magnitude), negative: value.sign == .minus)
        }
        let text = value.description
        let utf8 = text.utf8
        if utf8.count >= 2, utf8.last == XMLByte.zero, utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == XMLByte.dot {
            out.append(contentsOf: utf8.dropLast(2))
        } else {
            out.append(contentsOf: utf8)
        }
    }

    // MARK: Document

    mutating func beginDocument() {
        out.append(contentsOf: XMLPropertyListWriter.header)
    }

    mutating func endDocument() {
        raw("</plist>\n")
    }

    // MARK: Elements (each a whole line, or lines, at `level`)

    mutating func string(_ value: String, indent level: Int) {
        indent(level)
        raw("<string>")
        escaped(value)
        raw("</string>\n")
    }

    mutating func key(_ value: String, indent level: Int) {
        indent(level)
        raw("<key>")
        escaped(value)
        raw("</key>\n")
    }

    mutating func integer(_ value: Int64, indent level: Int) {
        indent(level)
        raw("<integer>")
        signed(value)
        raw("</integer>\n")
    }

    mutating func unsignedInteger(_ value: UInt64, indent level: Int) {
        indent(level)
        raw("<integer>")
        decimal(value)
        raw("</integer>\n")
    }

    /// An integer beyond 64 bits, as decimal text (``PropertyListWideInteger/description``).
    mutating func wideInteger(_ value: PropertyListWideInteger, indent level: Int) {
        indent(level)
        raw("<integer>")
        out.append(contentsOf: value.description.utf8)
        raw("</integer>\n")
    }

    /// XML has no 4-byte real: a `Float` is written as the `Double` it widens to.
    mutating func real(_ value: Double, indent level: Int) {
        indent(level)
        raw("<real>")
        realText(value)
        raw("</real>\n")
    }

    mutating func bool(_ value: Bool, indent level: Int) {
        indent(level)
        if value { raw("<true/>\n") } else { raw("<false/>\n") }
    }

    mutating func date(_ seconds: Double, indent level: Int) {
        indent(level)
        raw("<date>")
        out.append(contentsOf: XMLPropertyListWriter.dateDescription(seconds).utf8)
        raw("</date>\n")
    }

    mutating func data(_ value: Data, indent level: Int) {
        indent(level)
        raw("<data>\n")
        base64(value, indent: level)
        indent(level)
        raw("</data>\n")
    }

    /// `<dict><key>CF$UID</key><integer>n</integer></dict>`, on four lines.
    mutating func uid(_ value: UInt64, indent level: Int) {
        indent(level)
        raw("<dict>\n")
        indent(level + 1)
        raw("<key>CF$UID</key>\n")
        unsignedInteger(value, indent: level + 1)
        indent(level)
        raw("</dict>\n")
    }

    /// Opens a dictionary (`isDictionary`) or array of `count` items; an empty one is
    /// written whole (`<dict/>`, `<array/>`) and the result is false: do not close it.
    mutating func open(dictionary isDictionary: Bool, count: Int, indent level: Int) -> Bool {
        indent(level)
        if count == 0 {
            if isDictionary { raw("<dict/>\n") } else { raw("<array/>\n") }
            return false
        }
        if isDictionary { raw("<dict>\n") } else { raw("<array>\n") }
        return true
    }

    mutating func close(dictionary isDictionary: Bool, indent level: Int) {
        indent(level)
        if isDictionary { raw("</dict>\n") } else { raw("</array>\n") }
    }

    /// An array of UIDs (NSArray and NSDictionary bodies in archives).
    mutating func uidArray(_ uids: [Int32], indent level: Int) {
        guard open(dictionary: false, count: uids.count, indent: level) else { return }
        for value in uids { uid(UInt64(UInt32(bitPattern: value)), indent: level + 1) }
        close(dictionary: false, indent: level)
    }

    // MARK: Trees

    mutating func value(_ value: PropertyListValue, indent level: Int) {
        switch value {
        case .string(let s): string(s, indent: level)
        case .integer(let v): integer(v, indent: level)
        case .unsignedInteger(let v): unsignedInteger(v, indent: level)
        case .wideInteger(let v): wideInteger(v, indent: level)
        case .real(let d): real(d, indent: level)
        case .float(let f): real(Double(f), indent: level)
        case .bool(let b): bool(b, indent: level)
        case .date(let d): date(d, indent: level)
        case .data(let d): data(d, indent: level)
        case .uid(let n): uid(n, indent: level)
        case .array(let items):
            guard open(dictionary: false, count: items.count, indent: level) else { return }
            for item in items { self.value(item, indent: level + 1) }
            close(dictionary: false, indent: level)
        case .dictionary(let entries):
            guard open(dictionary: true, count: entries.count, indent: level) else { return }
            for entry in entries {
                key(entry.key, indent: level + 1)
                self.value(entry.value, indent: level + 1)
            }
            close(dictionary: true, indent: level)
        }
    }

    // MARK: Base64

    /// Base64 lines as Foundation writes them: each line is indented like the `<data>`
    /// tag (at most 8 tabs), tabs count as 8 columns, and lines stop at 76 columns. Since
    /// 76 - 8 × tabs is always a multiple of 4, every full line holds whole groups of 3
    /// input bytes, so the text is encoded straight into the output, line by line.
    mutating func base64(_ data: Data, indent level: Int) {
        let tabs = min(max(level, 0), 8)
        let bytesPerLine = (76 - 8 * tabs) / 4 * 3
        let alphabet = XMLPlistBase64.alphabet
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            let count = bytes.count
            while start < count {
                let end = min(start + bytesPerLine, count)
                indent(tabs)
                var k = start
                // Whole groups: k + 2 < end keeps every read inside bytes (end <= count).
                while k + 2 < end {
                    let group = UInt32(bytes[k]) << 16 | UInt32(bytes[k + 1]) << 8 | UInt32(bytes[k + 2])
                    out.append(alphabet[Int((group >> 18) & 0x3F)])
                    out.append(alphabet[Int((group >> 12) & 0x3F)])
                    out.append(alphabet[Int((group >> 6) & 0x3F)])
                    out.append(alphabet[Int(group & 0x3F)])
                    k += 3
                }
                // The last 1 or 2 bytes of the data (only on the last line), padded.
                if k < end {
                    let b1: UInt32 = k + 1 < end ? UInt32(bytes[k + 1]) : 0
                    let group = UInt32(bytes[k]) << 16 | b1 << 8
                    out.append(alphabet[Int((group >> 18) & 0x3F)])
                    out.append(alphabet[Int((group >> 12) & 0x3F)])
                    out.append(k + 1 < end ? alphabet[Int((group >> 6) & 0x3F)] : XMLByte.equals)
                    out.append(XMLByte.equals)
                }
                out.append(XMLByte.lf)
                start = end
            }
        }
    }
}
