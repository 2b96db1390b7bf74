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
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: append(scalar, to: &result)
            }
        }
        return result + "\""
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
