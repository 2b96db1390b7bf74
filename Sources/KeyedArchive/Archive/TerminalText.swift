import Foundation

/// The one escaping rule for archive text printed for a terminal: keys, `$top` keys, class
/// names and string values in ``KeyedArchiveView/render(options:)``, `dump`, `json`,
/// `verify` and the tool's error messages.
///
/// Control characters would let an archive rewrite the terminal — move the cursor, fake
/// lines, set the window title, write the clipboard (OSC 52) — and bidirectional overrides
/// would let it reorder what is shown. So every C0 control (U+0000–U+001F), DEL (U+007F),
/// C1 control (U+0080–U+009F), line and paragraph separator (U+2028, U+2029) and bidi
/// embedding, override and isolate (U+202A–U+202E, U+2066–U+2069) is written as `\u{…}`
/// (JSON output uses JSON's `\u00XX` form for the same characters).
package enum TerminalText {
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
}
