/// Writes a ``JSONValue``: pretty-printed with a 2-space indent (the layout of Python's
/// `json.dumps(indent=2)`), or compact on one line with no spaces.
struct JSONWriter {
    let pretty: Bool

    func write(_ value: JSONValue, to out: inout OutputBuffer, newline: Bool = true) {
        write(value, depth: 0, to: &out)
        if newline { out.append("\n") }
    }

    private func write(_ value: JSONValue, depth: Int, to out: inout OutputBuffer) {
        switch value {
        case .null: out.append("null")
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .number(let text): out.append(text)
        case .string(let text): Self.quote(text, to: &out)
        case .array(let items):
            guard !items.isEmpty else { return out.append("[]") }
            out.append("[")
            for (position, item) in items.enumerated() {
                if position > 0 { out.append(",") }
                newline(depth + 1, &out)
                write(item, depth: depth + 1, to: &out)
            }
            newline(depth, &out)
            out.append("]")
        case .object(let entries):
            guard !entries.isEmpty else { return out.append("{}") }
            out.append("{")
            for (position, entry) in entries.enumerated() {
                if position > 0 { out.append(",") }
                newline(depth + 1, &out)
                Self.quote(entry.key, to: &out)
                out.append(pretty ? ": " : ":")
                write(entry.value, depth: depth + 1, to: &out)
            }
            newline(depth, &out)
            out.append("}")
        }
    }

    private func newline(_ depth: Int, _ out: inout OutputBuffer) {
        guard pretty else { return }
        out.append("\n" + String(repeating: "  ", count: depth))
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t`…
    /// or `\u00XX`; everything else (non-ASCII included) written as UTF-8.
    static func quote(_ text: String, to out: inout OutputBuffer) {
        out.append(byte: 0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.append("\\\"")
            case 0x5C: out.append("\\\\")
            case 0x0A: out.append("\\n")
            case 0x0D: out.append("\\r")
            case 0x09: out.append("\\t")
            case 0x08: out.append("\\b")
            case 0x0C: out.append("\\f")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append("\\u00")
                out.append(byte: hex[Int(byte >> 4)])
                out.append(byte: hex[Int(byte & 0xF)])
            default: out.append(byte: byte)
            }
        }
        out.append(byte: 0x22)
    }
}
