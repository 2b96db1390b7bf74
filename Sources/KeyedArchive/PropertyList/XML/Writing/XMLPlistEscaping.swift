/// Escaping of `&`, `<` and `>` in XML text, and the characters XML 1.0 cannot hold at all.
///
/// XML 1.0 has no way to write U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+FFFE or
/// U+FFFF, not even as a character reference: a document holding one is not well-formed,
/// and XML readers (Python's `plistlib`, libxml2, expat) reject it. Foundation writes them
/// raw anyway. The writer notes them in the scan it already makes for escaping, so that the
/// encoder can refuse such a string (``ArchiveEncoder/InvalidXMLCharacterStrategy``).
enum XMLPlistEscaping {
    /// What ``scan(_:)`` finds in a text.
    struct Scan {
        /// How many bytes escaping adds (4 for each `&`, 3 for each `<` or `>`).
        var growth: Int
        /// Whether the text may hold a character XML 1.0 cannot: it has a C0 control other
        /// than tab, line feed and carriage return (certainly), or the lead byte 0xEF of
        /// U+F000–U+FFFF (then ``hasForbiddenCharacter(_:)`` decides).
        var mayBeForbidden: Bool
    }

    /// One pass over `text`: the escaping growth and the forbidden-character flag.
    @inline(__always)
    static func scan(_ text: UnsafeBufferPointer<UInt8>) -> Scan {
        var growth = 0
        var flags: UInt8 = 0
        // Branch-free, so the loop vectorizes; at most 4 per byte, far below Int.max.
        for c in text {
            growth &+= (c == XMLByte.amp ? 4 : 0) &+ (c == XMLByte.lt || c == XMLByte.gt ? 3 : 0)
            let control = c < 0x20 && c != XMLByte.tab && c != XMLByte.lf && c != XMLByte.cr
            flags |= (control ? 1 : 0) | (c == 0xEF ? 1 : 0)
        }
        return Scan(growth: growth, mayBeForbidden: flags != 0)
    }

    /// Whether `text` (UTF-8) holds a character XML 1.0 cannot represent.
    static func hasForbiddenCharacter(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        firstForbiddenCharacter(text) != nil
    }

    /// The first character of `text` (UTF-8) that XML 1.0 cannot represent.
    static func firstForbiddenCharacter(_ text: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var i = 0
        while i < text.count {
            let c = text[i]
            if c < 0x20 && c != XMLByte.tab && c != XMLByte.lf && c != XMLByte.cr { return Unicode.Scalar(c) }
            // U+FFFE and U+FFFF: EF BF BE and EF BF BF.
            if c == 0xEF, i + 2 < text.count, text[i + 1] == 0xBF, text[i + 2] == 0xBE || text[i + 2] == 0xBF {
                return Unicode.Scalar(0xFFC0 | UInt32(text[i + 2] & 0x3F))
            }
            i += 1
        }
        return nil
    }

    /// "holds U+0008, which XML 1.0 cannot represent (XML readers reject the file)": the
    /// one wording of the refusal, for the encoder's error and the tool's.
    static func refusal(_ text: String) -> String {
        let hex = firstForbiddenCharacter(in: text).map { String($0.value, radix: 16, uppercase: true) } ?? "?"
        let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return "holds U+\(code), which XML 1.0 cannot represent (XML readers reject the file)"
    }

    /// The first character of `text` that XML 1.0 cannot represent.
    static func firstForbiddenCharacter(in text: String) -> Unicode.Scalar? {
        var text = text
        return text.withUTF8 { firstForbiddenCharacter($0) }
    }

    /// Writes `text` escaped at `start`, `text.count + scan(text).growth` bytes.
    static func write(_ text: UnsafeBufferPointer<UInt8>, to start: UnsafeMutablePointer<UInt8>) {
        var position = 0
        // Bounds: each byte writes the bytes `growth` counted for it (1, or 5 for `&`, 4
        // for `<` and `>`), so the writes stay in start[0..<text.count + growth(text)].
        func put(_ piece: StaticString) {
            start.advanced(by: position).update(from: piece.utf8Start, count: piece.utf8CodeUnitCount)
            position += piece.utf8CodeUnitCount
        }
        for c in text {
            switch c {
            case XMLByte.amp: put("&amp;")
            case XMLByte.lt: put("&lt;")
            case XMLByte.gt: put("&gt;")
            default:
                start[position] = c
                position += 1
            }
        }
    }
}
