import Foundation

extension ArchiveObjectTable {
    /// Writes the archive as an XML property list, streamed from the table (no tree), in
    /// the layout `XMLPropertyListWriter` gives the same archive as a `PropertyListValue`.
    func xml() -> [UInt8] {
        finishEncoding()
        var output = XMLPlistOutput(capacity: count * 96 + 1_024)
        output.beginDocument()
        output.raw("<dict>\n")
        output.key("$version", indent: 1)
        output.integer(100_000, indent: 1)
        output.key("$archiver", indent: 1)
        output.string("NSKeyedArchiver", indent: 1)
        output.key("$top", indent: 1)
        if output.open(dictionary: true, count: top.count, indent: 1) {
            for entry in top {
                output.key(ArchiveKeyEscaping.escape(entry.key), indent: 2)
                output.uid(UInt64(UInt32(bitPattern: entry.uid)), indent: 2)
            }
            output.close(dictionary: true, indent: 1)
        }
        output.key("$objects", indent: 1)
        output.raw("\t<array>\n")  // never empty: UID 0 is $null
        for index in kinds.indices {
            let payload = payloads[index]
            switch kinds[index] {
            case .nullString: output.string("$null", indent: 2)
            case .string: output.string(storedString(payload), indent: 2)
            case .integer: output.integer(Int64(bitPattern: payload), indent: 2)
            case .unsignedInteger: output.unsignedInteger(payload, indent: 2)
            case .wideInteger: output.wideInteger(wides[Int(payload)], indent: 2)
            case .real: output.real(Double(bitPattern: payload), indent: 2)
            case .float: output.real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: payload))), indent: 2)
            case .bool: output.bool(payload != 0, indent: 2)
            case .data:
                var cursor = arena.cursor(at: payload)
                output.data(Data(cursor.bytes[cursor.dataRange()]), indent: 2)
            case .classEntry:
                let entry = classEntries[Int(payload)]
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
                writeObject(at: payload, kind: kinds[index], into: &output)
            }
        }
        output.raw("\t</array>\n")
        output.raw("</dict>\n")
        output.endDocument()
        return output.out
    }

    private func writeObject(at address: UInt64, kind: EntryKind, into output: inout XMLPlistOutput) {
        var cursor = arena.cursor(at: address)
        output.raw("\t\t<dict>\n")
        output.key("$class", indent: 3)
        output.uid(UInt64(UInt32(bitPattern: cursor.classUID())), indent: 3)
        let count = Int(cursor.varint())
        switch kind {
        case .fields:
            for _ in 0..<count {
                let (key, stored) = cursor.field()
                output.key(keys[Int(key)], indent: 3)
                switch stored {
                case .uid(let u): output.uid(UInt64(UInt32(bitPattern: u)), indent: 3)
                case .integer(let i): output.integer(i, indent: 3)
                case .real(let bits): output.real(Double(bitPattern: bits), indent: 3)
                case .float(let bits): output.real(Double(Float(bitPattern: bits)), indent: 3)
                case .bool(let b): output.bool(b, indent: 3)
                case .data(let range): output.data(Data(cursor.bytes[range]), indent: 3)
                }
            }
        case .array:
            output.key("NS.objects", indent: 3)
            Self.uidArray(&cursor, count: count, into: &output)
        default:
            output.key("NS.keys", indent: 3)
            Self.uidArray(&cursor, count: count, into: &output)
            output.key("NS.objects", indent: 3)
            Self.uidArray(&cursor, count: count, into: &output)
        }
        output.raw("\t\t</dict>\n")
    }

    /// `count` UIDs from `cursor`, as `XMLPlistOutput.uidArray` writes them.
    private static func uidArray(_ cursor: inout ObjectRecord.Cursor, count: Int, into output: inout XMLPlistOutput) {
        guard output.open(dictionary: false, count: count, indent: 3) else { return }
        for _ in 0..<count { output.uid(UInt64(UInt32(bitPattern: cursor.uid())), indent: 4) }
        output.close(dictionary: false, indent: 3)
    }
}
