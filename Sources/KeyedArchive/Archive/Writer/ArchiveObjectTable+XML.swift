import Foundation

extension ArchiveObjectTable {
    /// Writes the archive as an XML property list, streamed from the table (no tree), in
    /// the layout `XMLPropertyListWriter` gives the same archive as a `PropertyListValue`:
    /// a first pass over the table counts the bytes, a second writes them into a buffer of
    /// exactly that size, which becomes the result (see ``XMLPlistDocument``).
    ///
    /// With `refusingForbiddenText`, returns nil (writing nothing) when a string or key
    /// holds a character XML 1.0 cannot represent, found by the counting pass's scan for
    /// escapes (see ``XMLPlistEscaping``); `xmlForbiddenTextError()` then says where.
    func xml(refusingForbiddenText: Bool = false) -> Data? {
        finishEncoding()
        return XMLPlistDocument.checkedData(ArchiveXMLDocument(table: self), refusingForbiddenText: refusingForbiddenText)
    }
}

/// The archive's XML document, written from its object table.
private struct ArchiveXMLDocument: XMLPlistDocumentWriter {
    let table: ArchiveObjectTable
    /// The lines of the field keys as fields write them (`\t\t\t<key>…</key>\n`, escaped
    /// once here rather than once per field), one after another: key `i`'s line ends at
    /// `keyLineEnds[i]` and starts where key `i - 1`'s ends.
    private let keyLines: [UInt8]
    private let keyLineEnds: [Int]
    /// Whether a field key holds a character XML 1.0 cannot represent.
    private let keysHaveForbiddenText: Bool

    init(table: ArchiveObjectTable) {
        self.table = table
        var lines: [UInt8] = []
        var ends: [Int] = []
        var forbidden = false
        ends.reserveCapacity(table.keys.count)
        for key in table.keys {
            if let line = XMLPlistDocument.checkedBytes(FieldKeyLine(key: key), refusingForbiddenText: true) {
                lines += line
            } else {
                forbidden = true
                lines += XMLPlistDocument.bytes(FieldKeyLine(key: key))
            }
            ends.append(lines.count)
        }
        keyLines = lines
        keyLineEnds = ends
        keysHaveForbiddenText = forbidden
    }

    /// One field key's line.
    private struct FieldKeyLine: XMLPlistDocumentWriter {
        let key: String

        func write<Sink: XMLPlistByteSink>(into output: inout XMLPlistOutput<Sink>) {
            output.key(key, indent: 3)
        }
    }

    func write<Sink: XMLPlistByteSink>(into output: inout XMLPlistOutput<Sink>) {
        keyLines.withUnsafeBytes { keyLines in
            writeDocument(into: &output, keyLines: keyLines)
        }
    }

    private func writeDocument<Sink: XMLPlistByteSink>(into output: inout XMLPlistOutput<Sink>, keyLines: UnsafeRawBufferPointer) {
        if keysHaveForbiddenText { output.noteForbiddenText() }
        output.beginDocument()
        output.raw("<dict>\n")
        output.key("$version", indent: 1)
        output.integer(100_000, indent: 1)
        output.key("$archiver", indent: 1)
        output.string("NSKeyedArchiver", indent: 1)
        output.key("$top", indent: 1)
        if output.open(dictionary: true, count: table.top.count, indent: 1) {
            for entry in table.top {
                output.key(ArchiveKeyEscaping.escape(entry.key), indent: 2)
                output.uid(UInt64(UInt32(bitPattern: entry.uid)), indent: 2)
            }
            output.close(dictionary: true, indent: 1)
        }
        output.key("$objects", indent: 1)
        output.raw("\t<array>\n")  // never empty: UID 0 is $null
        let kinds = table.kinds, payloads = table.payloads
        for index in kinds.indices {
            let payload = payloads[index]
            switch kinds[index] {
            case .nullString: output.string("$null", indent: 2)
            case .string: output.string(table.storedString(payload), indent: 2)
            case .integer: output.integer(Int64(bitPattern: payload), indent: 2)
            case .unsignedInteger: output.unsignedInteger(payload, indent: 2)
            case .wideInteger: output.wideInteger(table.wides[Int(payload)], indent: 2)
            case .real: output.real(Double(bitPattern: payload), indent: 2)
            case .float: output.real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: payload))), indent: 2)
            case .bool: output.bool(payload != 0, indent: 2)
            case .data:
                var cursor = table.arena.cursor(at: payload)
                let range = cursor.dataRange()
                Self.data(of: cursor, range, indent: 2, into: &output)
            case .classEntry:
                let entry = table.classEntries[Int(payload)]
                output.raw("\t\t<dict>\n")
                output.key("$classes", indent: 3)
                if output.open(dictionary: false, count: entry.classes.count, indent: 3) {
                    for name in entry.classes { output.string(name, indent: 4) }
                    output.close(dictionary: false, indent: 3)
                }
                output.key("$classname", indent: 3)
                output.string(entry.name, indent: 3)
                output.raw("\t\t</dict>\n")
            case .fields, .array, .dictionary:
                writeObject(at: payload, kind: kinds[index], into: &output, keyLines: keyLines)
            }
        }
        output.raw("\t</array>\n")
        output.raw("</dict>\n")
        output.endDocument()
    }

    private func writeObject<Sink: XMLPlistByteSink>(at address: UInt64, kind: ArchiveObjectTable.EntryKind,
                                                 into output: inout XMLPlistOutput<Sink>, keyLines: UnsafeRawBufferPointer) {
        var cursor = table.arena.cursor(at: address)
        output.raw("\t\t<dict>\n")
        output.raw("\t\t\t<key>$class</key>\n")
        output.uid(UInt64(UInt32(bitPattern: cursor.classUID())), indent: 3)
        let count = Int(cursor.varint())
        switch kind {
        case .fields:
            for _ in 0..<count {
                let (key, stored) = cursor.field()
                let id = Int(key)
                let end = keyLineEnds[id]
                let start = id == 0 ? 0 : keyLineEnds[id - 1]
                // Bounds: 0 <= start <= end <= keyLines.count, by how init filled both.
                output.bytes(UnsafeRawBufferPointer(rebasing: keyLines[start..<end]))
                switch stored {
                case .uid(let u): output.uid(UInt64(UInt32(bitPattern: u)), indent: 3)
                case .integer(let i): output.integer(i, indent: 3)
                case .real(let bits): output.real(Double(bitPattern: bits), indent: 3)
                case .float(let bits): output.real(Double(Float(bitPattern: bits)), indent: 3)
                case .bool(let b): output.bool(b, indent: 3)
                case .data(let range): Self.data(of: cursor, range, indent: 3, into: &output)
                }
            }
        case .array:
            output.raw("\t\t\t<key>NS.objects</key>\n")
            Self.uidArray(&cursor, count: count, into: &output)
        default:
            output.raw("\t\t\t<key>NS.keys</key>\n")
            Self.uidArray(&cursor, count: count, into: &output)
            output.raw("\t\t\t<key>NS.objects</key>\n")
            Self.uidArray(&cursor, count: count, into: &output)
        }
        output.raw("\t\t</dict>\n")
    }

    /// `count` UIDs from `cursor`, as an array of UIDs in an object's dictionary.
    private static func uidArray<Sink: XMLPlistByteSink>(_ cursor: inout ObjectRecord.Cursor, count: Int,
                                                     into output: inout XMLPlistOutput<Sink>) {
        guard output.open(dictionary: false, count: count, indent: 3) else { return }
        for _ in 0..<count { output.uid(UInt64(UInt32(bitPattern: cursor.uid())), indent: 4) }
        output.close(dictionary: false, indent: 3)
    }

    /// A `<data>` element of the record bytes `range` (as the record's cursor gave it).
    private static func data<Sink: XMLPlistByteSink>(of cursor: ObjectRecord.Cursor, _ range: Range<Int>, indent level: Int,
                                                 into output: inout XMLPlistOutput<Sink>) {
        cursor.bytes.withUnsafeBytes { bytes in
            // The range is one the record's own length gave, inside its chunk; checked anyway.
            let range = range.clamped(to: 0..<bytes.count)
            output.data(UnsafeRawBufferPointer(rebasing: bytes[range]), indent: level)
        }
    }
}
