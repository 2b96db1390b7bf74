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
        XMLPlistDocument.bytes(TreeDocument(value: value))
    }

    /// A ``PropertyListValue`` as a document.
    struct TreeDocument: XMLPlistDocumentWriter {
        let value: PropertyListValue

        func write<Sink: XMLPlistByteSink>(into output: inout XMLPlistOutput<Sink>) {
            output.beginDocument()
            output.value(value, indent: 0)
            output.endDocument()
        }
    }

    /// The text used for a real.
    static func realDescription(_ value: Double) -> String {
        String(decoding: XMLPlistDocument.bytes(RealDocument(value: value)), as: UTF8.self)
    }

    /// A real's text alone.
    private struct RealDocument: XMLPlistDocumentWriter {
        let value: Double

        func write<Sink: XMLPlistByteSink>(into output: inout XMLPlistOutput<Sink>) {
            output.realText(value)
        }
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

/// Writes one XML property-list document through an ``XMLPlistOutput``: called twice,
/// once to count the bytes and once to write them, so it must write the same bytes both
/// times (it reads its value, never changes it).
protocol XMLPlistDocumentWriter {
    func write<Sink: XMLPlistByteSink>(into output: inout XMLPlistOutput<Sink>)
}

/// Runs a document writer twice (see ``XMLPlistByteSink``): counting, then into a buffer of
/// exactly the counted size, which becomes the result without a copy. A `Data` of 32 MB or
/// more is written differently (``data(_:large:)``).
enum XMLPlistDocument {
    /// Documents at least this large get their `Data` from a block that grows: glibc's
    /// largest mmap threshold, above which a `Data`'s pages are fresh whichever way it is
    /// made (below it, an exact-size `Data` is usually served warm from the heap).
    static let largeDocumentBytes = 1 << 25

    static func bytes<Writer: XMLPlistDocumentWriter>(_ writer: Writer) -> [UInt8] {
        checkedBytes(writer, refusingForbiddenText: false) ?? []
    }

    /// ``bytes(_:)``, or nil (with nothing written) when `refusingForbiddenText` and the
    /// counting pass met a string or key XML 1.0 cannot hold (see ``XMLPlistEscaping``).
    static func checkedBytes<Writer: XMLPlistDocumentWriter>(_ writer: Writer, refusingForbiddenText: Bool) -> [UInt8]? {
        guard case .bytes(let bytes) = boundedBytes(writer, refusingForbiddenText: refusingForbiddenText) else { return nil }
        return bytes
    }

    /// What ``boundedBytes(_:refusingForbiddenText:maxBytes:)`` gives.
    enum Bounded {
        case bytes([UInt8])
        /// A string or key holds a character XML 1.0 cannot represent; nothing written.
        case forbiddenText
        /// The document would pass the limit; nothing written.
        case tooLarge
    }

    /// ``checkedBytes(_:refusingForbiddenText:)`` of a document of at most `maxBytes`
    /// bytes: the counting pass stops past them, so a larger one costs about `maxBytes`
    /// of work (and no memory) to refuse. A forbidden character counted before the limit
    /// is reported first.
    static func boundedBytes<Writer: XMLPlistDocumentWriter>(_ writer: Writer, refusingForbiddenText: Bool,
                                                           maxBytes: Int = .max) -> Bounded {
        let (total, reals, forbidden) = size(of: writer, stoppingPast: maxBytes)
        if forbidden && refusingForbiddenText { return .forbiddenText }
        if total > maxBytes { return .tooLarge }
        return .bytes([UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            initialized = fill(UnsafeMutableBufferPointer(rebasing: buffer[0..<total]), with: writer, reals: reals)
        })
    }

    /// The document as `Data`. The counting pass stops formatting reals once it has counted
    /// ``largeDocumentBytes``; a document that large is written into an
    /// ``XMLPlistGrowingSink`` started at the size counted, taking the reals' kept texts
    /// while they last and formatting the rest where they are written. So the reals of a
    /// large document are formatted once and mostly not kept, and a smaller one is written
    /// as before, into a `Data` of its exact size. (`large`: the size from which a document
    /// counts as large, for tests.)
    static func data<Writer: XMLPlistDocumentWriter>(_ writer: Writer, large: Int = largeDocumentBytes) -> Data {
        checkedData(writer, large: large, refusingForbiddenText: false) ?? Data()
    }

    /// ``data(_:large:)``, or nil (with nothing written) when `refusingForbiddenText` and
    /// the counting pass met a string or key XML 1.0 cannot hold (see ``XMLPlistEscaping``).
    static func checkedData<Writer: XMLPlistDocumentWriter>(_ writer: Writer, large: Int = largeDocumentBytes,
                                                           refusingForbiddenText: Bool) -> Data? {
        let (counted, reals, forbidden) = size(of: writer, limit: large)
        if forbidden && refusingForbiddenText { return nil }
        if counted >= large {
            var output = XMLPlistOutput(XMLPlistGrowingSink(capacity: counted + counted / 4), reals: reals)
            writer.write(into: &output)
            if let data = output.sink.takeData() { return data }
            let exact = size(of: writer)  // no memory for the block: the exact way
            return exactData(writer, count: exact.count, reals: exact.reals)
        }
        return exactData(writer, count: counted, reals: reals)
    }

    /// A `Data` of the exact, counted size.
    static func exactData<Writer: XMLPlistDocumentWriter>(_ writer: Writer, count: Int, reals: XMLPlistRealTexts) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { raw in
            _ = fill(raw.bindMemory(to: UInt8.self), with: writer, reals: reals)
        }
        return data
    }

    /// The document's size (or, past `limit`, the size without the rest of its reals), the
    /// texts of its reals (those counted) for the writing pass, and whether a string or key
    /// holds a character XML 1.0 cannot represent.
    /// Past `maxBytes`, a tree stops being counted (the count is then only known to pass them).
    static func size<Writer: XMLPlistDocumentWriter>(of writer: Writer, limit: Int = .max, stoppingPast maxBytes: Int = .max)
        -> (count: Int, reals: XMLPlistRealTexts, forbidden: Bool) {
        var counter = XMLPlistOutput(XMLPlistByteCounter(limit: limit, stoppingPast: maxBytes))
        writer.write(into: &counter)
        var reals = counter.reals
        reals.startReplay()
        return (counter.sink.count, reals, counter.hasForbiddenText)
    }

    /// Writes the document into `buffer` (its counted size); returns the bytes written.
    private static func fill<Writer: XMLPlistDocumentWriter>(_ buffer: UnsafeMutableBufferPointer<UInt8>, with writer: Writer,
                                                            reals: XMLPlistRealTexts) -> Int {
        var output = XMLPlistOutput(XMLPlistBufferSink(buffer), reals: reals)
        writer.write(into: &output)
        assert(output.sink.isComplete, "the XML writer's passes disagree on the document's size")
        return output.sink.position
    }
}

/// Streaming XML property-list output: each method appends one complete element (its
/// indentation, tags and text) straight to its sink, with no intermediate tree and no
/// string per element. ``XMLPropertyListWriter`` drives it from a ``PropertyListValue``;
/// the archive encoder drives it from its object table (`ArchiveObjectTable.xml()`), so
/// both write the same bytes for the same value.
struct XMLPlistOutput<Sink: XMLPlistByteSink> {
    var sink: Sink
    /// The reals' texts, kept by the counting pass for the writing pass.
    private(set) var reals: XMLPlistRealTexts
    /// Whether a string or key written holds a character XML 1.0 cannot represent (most C0
    /// controls, U+FFFE, U+FFFF), which is then written as it is (see ``XMLPlistEscaping``).
    private(set) var hasForbiddenText = false

    init(_ sink: Sink, reals: XMLPlistRealTexts = XMLPlistRealTexts()) {
        self.sink = sink
        self.reals = reals
    }

    // MARK: Pieces

    @inline(__always)
    mutating func raw(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        // Bounds: `count` bytes, the static string's.
        sink.append(count: count) { start in
            var pieces = XMLPlistPieces(start)
            pieces.put(text)
        }
    }

    /// Appends bytes as they are.
    @inline(__always)
    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        // Bounds: `bytes.count` bytes, the buffer's.
        sink.append(count: bytes.count) { start in
            var pieces = XMLPlistPieces(start)
            pieces.bytes(bytes)
        }
    }

    @inline(__always)
    mutating func indent(_ count: Int) {
        let count = max(count, 0)
        // Bounds: `count` tabs.
        sink.append(count: count) { start in
            var pieces = XMLPlistPieces(start)
            pieces.tabs(count)
        }
    }

    /// One line in one piece: `level` tabs, `open`, a text of `textCount` bytes (which
    /// `text` writes, exactly that many) and `close`.
    @inline(__always)
    mutating func line(_ level: Int, _ open: StaticString, _ textCount: Int, _ close: StaticString,
                       _ text: (inout XMLPlistPieces) -> Void) {
        Self.line(into: &sink, level, open, textCount, close, text)
    }

    /// ``line(_:_:_:_:_:)`` into `sink` alone (so a caller can write a line while it holds
    /// another of the output's parts, such as the reals' texts).
    @inline(__always)
    private static func line(into sink: inout Sink, _ level: Int, _ open: StaticString, _ textCount: Int,
                             _ close: StaticString, _ text: (inout XMLPlistPieces) -> Void) {
        let level = max(level, 0)
        let count = level + open.utf8CodeUnitCount + textCount + close.utf8CodeUnitCount
        // Bounds: the four pieces written below are the four counted here.
        sink.append(count: count) { start in
            var pieces = XMLPlistPieces(start)
            pieces.tabs(level)
            pieces.put(open)
            text(&pieces)
            pieces.put(close)
            assert(pieces.position == count, "a line's text is not the size it was counted")
        }
    }

    /// One line that is only `level` tabs and `tag`.
    @inline(__always)
    mutating func line(_ level: Int, _ tag: StaticString) {
        line(level, tag, 0, "") { _ in }
    }

    /// A line of escaped text (`<string>`, `<key>`). The scan that counts what escaping
    /// adds also notes a character XML 1.0 cannot hold (see ``hasForbiddenText``).
    @inline(__always)
    mutating func escapedLine(_ level: Int, _ open: StaticString, _ value: String, _ close: StaticString) {
        var value = value
        value.withUTF8 { text in
            let scan = XMLPlistEscaping.scan(text)
            if scan.mayBeForbidden { noteForbidden(text) }
            line(level, open, text.count + scan.growth, close) { $0.escaped(text, growth: scan.growth) }
        }
    }

    /// Sets ``hasForbiddenText`` when `text` holds a character XML 1.0 cannot (out of line:
    /// only texts with a control character or the lead byte of U+F000–U+FFFF get here).
    @inline(never)
    private mutating func noteForbidden(_ text: UnsafeBufferPointer<UInt8>) {
        if XMLPlistEscaping.hasForbiddenCharacter(text) { hasForbiddenText = true }
    }

    /// Records that the document holds a character XML 1.0 cannot represent, for text a
    /// writer puts in some other way (field keys written once and copied).
    mutating func noteForbiddenText() { hasForbiddenText = true }

    /// A line whose text is an integer, `-` first when `negative`.
    @inline(__always)
    mutating func integerLine(_ level: Int, _ magnitude: UInt64, negative: Bool) {
        let digits = DecimalDigits.count(magnitude)
        line(level, "<integer>", digits + (negative ? 1 : 0), "</integer>\n") { pieces in
            if negative { pieces.put("-") }
            pieces.digits(magnitude, count: digits)
        }
    }

    /// A real as Foundation writes it: Swift's shortest round-trip text without a trailing
    /// `.0`, `nan`, `+infinity`, `-infinity`.
    mutating func realText(_ value: Double) {
        let text = XMLPlistRealText(value)
        text.withBytes { bytes($0) }
    }

    // MARK: Document

    mutating func beginDocument() {
        XMLPropertyListWriter.header.withUnsafeBytes { bytes($0) }
    }

    mutating func endDocument() {
        raw("</plist>\n")
    }

    // MARK: Elements (each a whole line, or lines, at `level`)

    @inline(__always)
    mutating func string(_ value: String, indent level: Int) {
        escapedLine(level, "<string>", value, "</string>\n")
    }

    @inline(__always)
    mutating func key(_ value: String, indent level: Int) {
        escapedLine(level, "<key>", value, "</key>\n")
    }

    @inline(__always)
    mutating func integer(_ value: Int64, indent level: Int) {
        integerLine(level, value.magnitude, negative: value < 0)
    }

    @inline(__always)
    mutating func unsignedInteger(_ value: UInt64, indent level: Int) {
        integerLine(level, value, negative: false)
    }

    /// An integer beyond 64 bits, as decimal text (``PropertyListWideInteger/description``).
    mutating func wideInteger(_ value: PropertyListWideInteger, indent level: Int) {
        var text = value.description
        text.withUTF8 { text in
            line(level, "<integer>", text.count, "</integer>\n") { $0.bytes(UnsafeRawBufferPointer(text)) }
        }
    }

    /// XML has no 4-byte real: a `Float` is written as the `Double` it widens to.
    @inline(__always)
    mutating func real(_ value: Double, indent level: Int) {
        if sink.skipsReals { return }  // a counting pass that has counted enough
        reals.withText(of: value) { text in
            Self.line(into: &sink, level, "<real>", text.count, "</real>\n") { $0.bytes(text) }
        }
    }

    @inline(__always)
    mutating func bool(_ value: Bool, indent level: Int) {
        if value { line(level, "<true/>\n") } else { line(level, "<false/>\n") }
    }

    mutating func date(_ seconds: Double, indent level: Int) {
        var text = XMLPropertyListWriter.dateDescription(seconds)
        text.withUTF8 { text in
            line(level, "<date>", text.count, "</date>\n") { $0.bytes(UnsafeRawBufferPointer(text)) }
        }
    }

    mutating func data(_ value: Data, indent level: Int) {
        value.withUnsafeBytes { data($0, indent: level) }
    }

    mutating func data(_ value: UnsafeRawBufferPointer, indent level: Int) {
        line(level, "<data>\n")
        base64(value, indent: level)
        line(level, "</data>\n")
    }

    /// `<dict><key>CF$UID</key><integer>n</integer></dict>`, on four lines, in one piece.
    @inline(__always)
    mutating func uid(_ value: UInt64, indent level: Int) {
        let level = max(level, 0)
        let inner = level + 1
        let open: StaticString = "<dict>\n", key: StaticString = "<key>CF$UID</key>\n"
        let integer: StaticString = "<integer>", integerEnd: StaticString = "</integer>\n"
        let close: StaticString = "</dict>\n"
        let digits = DecimalDigits.count(value)
        let count = level + open.utf8CodeUnitCount + inner + key.utf8CodeUnitCount + inner + integer.utf8CodeUnitCount
            + digits + integerEnd.utf8CodeUnitCount + level + close.utf8CodeUnitCount
        // Bounds: the eleven pieces written below are the eleven counted here.
        sink.append(count: count) { start in
            var pieces = XMLPlistPieces(start)
            pieces.tabs(level)
            pieces.put(open)
            pieces.tabs(inner)
            pieces.put(key)
            pieces.tabs(inner)
            pieces.put(integer)
            pieces.digits(value, count: digits)
            pieces.put(integerEnd)
            pieces.tabs(level)
            pieces.put(close)
            assert(pieces.position == count, "a UID is not the size it was counted")
        }
    }

    /// Opens a dictionary (`isDictionary`) or array of `count` items; an empty one is
    /// written whole (`<dict/>`, `<array/>`) and the result is false: do not close it.
    mutating func open(dictionary isDictionary: Bool, count: Int, indent level: Int) -> Bool {
        if count == 0 {
            if isDictionary { line(level, "<dict/>\n") } else { line(level, "<array/>\n") }
            return false
        }
        if isDictionary { line(level, "<dict>\n") } else { line(level, "<array>\n") }
        return true
    }

    mutating func close(dictionary isDictionary: Bool, indent level: Int) {
        if isDictionary { line(level, "</dict>\n") } else { line(level, "</array>\n") }
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
            for item in items {
                if sink.isPastLimit { return }
                self.value(item, indent: level + 1)
            }
            close(dictionary: false, indent: level)
        case .dictionary(let entries):
            guard open(dictionary: true, count: entries.count, indent: level) else { return }
            for entry in entries {
                if sink.isPastLimit { return }
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
    mutating func base64(_ bytes: UnsafeRawBufferPointer, indent level: Int) {
        let tabs = min(max(level, 0), 8)
        let bytesPerLine = (76 - 8 * tabs) / 4 * 3
        var start = 0
        let count = bytes.count
        while start < count {
            let end = min(start + bytesPerLine, count)
            // The line: its tabs, 4 characters per 3 input bytes or part of them, a newline.
            let length = tabs + (end - start + 2) / 3 * 4 + 1
            sink.append(count: length) { line in
                XMLPlistBase64.encodeLine(bytes, start..<end, tabs: tabs, into: line)
            }
            start = end
        }
    }
}
