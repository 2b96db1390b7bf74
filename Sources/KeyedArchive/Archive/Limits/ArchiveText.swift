import Foundation

/// The one escaping helper for text that comes from an archive (keys, class names, string
/// values, `$top` keys) on its way to a terminal or into generated Swift source. Each
/// output has its own rule here, side by side, and nothing else in the package escapes
/// archive text.
///
/// **Terminal** (``escaped(_:)``, ``quoted(_:)``): ``KeyedArchiveView/render(options:)``,
/// `dump`, `json`, `verify` and the tool's error messages. Control characters would let an
/// archive rewrite the terminal — move the cursor, fake lines, set the window title, write
/// the clipboard (OSC 52) — and bidirectional overrides would let it reorder what is shown.
/// So every C0 control (U+0000–U+001F), DEL (U+007F), C1 control (U+0080–U+009F), line and
/// paragraph separator (U+2028, U+2029) and bidi embedding, override and isolate
/// (U+202A–U+202E, U+2066–U+2069) is written as `\u{…}` (JSON output uses JSON's `\u00XX`
/// form for the same characters). Other characters (emoji joiners, accents) are shown.
///
/// **File names** (``escapedPath(_:)``): the paths `verify` and `swift --check` print, whose
/// bytes come from the file system and need not be UTF-8. The terminal rule, plus: a
/// backslash is written `\\`, and each byte of a sequence that is not UTF-8 `\xNN` (two
/// lowercase hex digits). Every backslash in the result then starts an escape, so two
/// different names never print alike (a name holding a backslash and `n` prints `\\n`, one
/// holding a line feed `\n`; one holding the text `\xff` prints `\\xff`, one holding the
/// byte 0xFF `\xff`), and the name's bytes can be read back from what is printed.
///
/// **Swift source** (``swiftEscaped(_:backtick:)``): string literals and comments that
/// `keyedarchive swift` writes. Stricter, because source must also not be *misread* by a
/// reviewer: every control, format (bidi, zero-width), separator other than the space,
/// private-use, unassigned and default-ignorable character is written as `\u{…}`, as is a
/// combining mark that does not follow a letter or digit; quotes and backslashes are
/// escaped (so `\(` cannot open an interpolation), and `/*` and `*/` never appear, so a
/// value cannot end the comment it is in.
package enum ArchiveText {
    /// Whether `scalar` must not reach a terminal as it is.
    @inline(__always)
    package static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` with every character ``mustEscape(_:)`` names written as `\u{…}` (tab, line
    /// feed and carriage return as `\t`, `\n`, `\r`); everything else as it is.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: mustEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    /// `text` in double quotes, with `\` and `"` escaped as well, so that a string value
    /// stays on its line and reads back unambiguously.
    ///
    /// Works on UTF-8 bytes (every character it escapes is found by its bytes), and copies
    /// printable ASCII with nothing to escape (the usual case) whole, so that a long value
    /// printed in many places costs copying time per byte.
    package static func quoted(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return "\"" + text + "\"" }
        var out: [UInt8] = [0x22]
        out.reserveCapacity(text.utf8.count + 2)
        func escape(_ value: UInt32) { out += Array(("\\u{" + hex(value) + "}").utf8) }
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            let next = i + 1 < utf8.count ? utf8[i + 1] : 0
            let third = i + 2 < utf8.count ? utf8[i + 2] : 0
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x09: out += [0x5C, 0x74]
            case 0..<0x20, 0x7F: escape(UInt32(byte))
            case 0xC2 where (0x80...0x9F).contains(next):  // C1 controls
                escape(UInt32(next))
                i += 1
            case 0xE2 where next == 0x80 && (0xA8...0xAE).contains(third):  // U+2028…U+202E
                escape(0x2000 + UInt32(third - 0x80))
                i += 2
            case 0xE2 where next == 0x81 && (0xA6...0xA9).contains(third):  // U+2066…U+2069
                escape(0x2040 + UInt32(third - 0x80))
                i += 2
            default: out.append(byte)
            }
            i += 1
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    /// A file name's bytes for a terminal (see the type's discussion): the terminal rule,
    /// `\` as `\\`, and each byte that is not part of well-formed UTF-8 as `\xNN`.
    ///
    /// ```swift
    /// ArchiveText.escapedPath(Array("a\\n".utf8) + [0xFF])   // a\\n\xff
    /// ```
    package static func escapedPath(_ bytes: [UInt8]) -> String {
        var result = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                position += encoded.count
                let scalar = Unicode.UTF8.decode(encoded)
                if scalar == "\\" { result += "\\\\" } else { append(scalar, to: &result) }
            case .error(let length):
                for byte in bytes[position..<min(position + length, bytes.count)] { result += "\\x" + hex(UInt32(byte)) }
                position += length
            case .emptyInput:
                return result
            }
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where mustEscape(scalar): result += "\\u{" + hex(scalar.value) + "}"
        default: result.unicodeScalars.append(scalar)
        }
    }

    /// At least two lowercase hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }

    // MARK: - Swift source

    /// `text` for the body of a Swift string literal or a `//` comment (see the type's
    /// discussion); with `backtick`, backticks are escaped too, for a code span.
    package static func swiftEscaped(_ text: String, backtick: Bool) -> String {
        var result = ""
        var previousIsPlain = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "`" where backtick: result += "\\u{60}"
            case "*", "/":
                // Never `*/` or `/*` in a comment, whatever the surrounding comment style.
                if let last = result.unicodeScalars.last, last == "*" || last == "/" {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            case " "..."~":
                // Printable ASCII other than the above: as it is.
                result.unicodeScalars.append(scalar)
                previousIsPlain = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                continue
            default:
                // A combining mark is written out only after a letter or digit it can
                // attach to, never after a quote, a backslash or an escape.
                let isMark = scalar.properties.generalCategory.isCombiningMark
                if mustEscapeInSource(scalar) || (isMark && !previousIsPlain) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                    previousIsPlain = false
                    continue
                }
                result.unicodeScalars.append(scalar)
                previousIsPlain = scalar.properties.isAlphabetic || scalar.properties.numericType != nil || isMark
                continue
            }
            previousIsPlain = false
        }
        return result
    }

    /// Characters that are invisible, break a line or are not assigned: control, format
    /// (bidi overrides, zero-width), line and paragraph separators, surrogates, private
    /// use, unassigned, and every separator but the plain space. A superset of the
    /// terminal rule's ``mustEscape(_:)``.
    private static func mustEscapeInSource(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return true
        case .spaceSeparator:
            return scalar != " "
        default:
            return scalar.properties.isNoncharacterCodePoint || scalar.properties.isDefaultIgnorableCodePoint
        }
    }
}

extension Unicode.GeneralCategory {
    /// Nonspacing, spacing combining or enclosing mark.
    package var isCombiningMark: Bool { self == .nonspacingMark || self == .spacingMark || self == .enclosingMark }
}
