import Foundation
import KeyedArchive

/// Prints an archive's object graph as an indented tree.
///
/// Each object is printed in full the first time it is reached; later references say
/// `-> #N Class (shown above)`, and a reference back to an object that is still open
/// (an ancestor) says `-> #N Class (cycle)`. Foundation's value classes are shown as
/// their value on one line, and collections list their items directly:
///
/// ```text
/// root: Note #1
///   title = "Some cool title"
///   array: NSArray #4 (3 items)
///     [0] = "Hello, World!"
///     [1] = 42
/// ```
struct TreePrinter {
    let view: KeyedArchiveView
    let palette: Palette
    /// Deeper objects are shown as `Class #N …` and not opened, to bound the output.
    let maxDepth: Int
    private var shown: Set<Int> = []
    private var open: Set<Int> = []
    private var out: OutputBuffer
    /// Opens data values that are property lists (`--expand-nested`); `nil` shows them as bytes.
    var nested: NestedExpansion?
    /// How many property lists enclose this one (1 for the input itself).
    var nestingLevel = 1

    init(view: KeyedArchiveView, palette: Palette, maxDepth: Int = 256, output: OutputBuffer) {
        self.view = view
        self.palette = palette
        self.maxDepth = maxDepth
        self.out = output
    }

    /// Prints every top-level entry, then flushes.
    mutating func printAll() {
        for entry in view.topLevel {
            print(label: entry.key, entry.value, depth: 0)
        }
        out.flush()
    }

    /// Prints only the value under one top-level key.
    mutating func print(key: String, _ value: ArchivedValue) {
        print(label: key, value, depth: 0)
        out.flush()
    }

    private mutating func line(_ depth: Int, _ text: String) {
        out.append(String(repeating: "  ", count: depth) + text + "\n")
    }

    private mutating func print(label: String, _ value: ArchivedValue, depth: Int) {
        switch value {
        case .reference(let index):
            object(label: label, index, depth: depth)
        case .array(let items):
            guard !items.isEmpty else { return line(depth, "\(label) = []") }
            line(depth, "\(label) = \(palette.paint(count(items.count, "item"), .dim))")
            for (position, item) in items.enumerated() {
                print(label: "[\(position)]", item, depth: depth + 1)
            }
        case .dictionary(let fields):
            guard !fields.isEmpty else { return line(depth, "\(label) = {}") }
            line(depth, "\(label) = \(palette.paint(count(fields.count, "entry"), .dim))")
            for field in fields { print(label: field.key, field.value, depth: depth + 1) }
        default:
            if case .data(let bytes) = value, expandNested(bytes, heading: "\(label) =", depth: depth) { return }
            line(depth, "\(label) = \(scalar(value))")
        }
    }

    private mutating func object(label: String, _ index: Int, depth: Int) {
        guard index < view.objects.count else { return line(depth, "\(label) = <invalid #\(index)>") }
        let object = view.objects[index]
        if let plain = object.plainValue {
            if case .data(let bytes) = plain, expandNested(bytes, heading: "\(label) =", depth: depth) { return }
            return line(depth, "\(label) = \(scalar(plain))")
        }
        let name = object.className ?? "class entry"
        let title = palette.paint(name, .boldCyan) + " " + palette.paint("#\(index)", .dim)
        if open.contains(index) {
            return line(depth, "\(label): -> \(title) \(palette.paint("(cycle)", .boldRed))")
        }
        if shown.contains(index) {
            return line(depth, "\(label): -> \(title) \(palette.paint("(shown above)", .dim))")
        }
        guard depth < maxDepth else { return line(depth, "\(label): \(title) …") }
        shown.insert(index)
        open.insert(index)
        defer { open.remove(index) }

        let interpreted = FoundationValue.interpret(object, in: view)
        if case .collection(let items)? = interpreted {
            line(depth, "\(label): \(title) \(palette.paint("(\(count(items.count, "item")))", .dim))")
            for (position, item) in items.enumerated() {
                print(label: "[\(position)]", item, depth: depth + 1)
            }
            return
        }
        if case .dictionary(let keys, let values)? = interpreted {
            // Shown as a dictionary only when every key is a plain value.
            let plainKeys = keys.compactMap { FoundationValue.plain($0, in: view) }
            if plainKeys.count == keys.count {
                line(depth, "\(label): \(title) \(palette.paint("(\(count(keys.count, "entry")))", .dim))")
                for (key, value) in zip(plainKeys, values) {
                    print(label: scalar(key), value, depth: depth + 1)
                }
                return
            }
        }
        if case .data(let bytes)? = interpreted, expandNested(bytes, heading: "\(label): \(title) =", depth: depth) { return }
        if let special = interpreted, let text = summary(special) {
            return line(depth, "\(label): \(title) = \(text)")
        }
        line(depth, "\(label): \(title)")
        for field in object.fields { print(label: field.key, field.value, depth: depth + 1) }
    }

    /// The one-line form of a Foundation value class, or `nil` for containers.
    private func summary(_ value: FoundationValue) -> String? {
        switch value {
        case .string(let text): return scalar(.string(text))
        case .data(let bytes): return scalar(.data(bytes))
        case .date(let seconds):
            return palette.paint(ISODate.string(sinceReferenceDate: seconds) ?? "\(seconds) s since 2001", .blue)
        case .url(let text), .uuid(let text): return palette.paint(text, .blue)
        case .decimal(let text): return palette.paint(text ?? "NaN", .yellow)
        case .null: return palette.paint("null", .magenta)
        case .collection, .dictionary: return nil
        }
    }

    private func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun == "entry" ? "entries" : noun + "s")"
    }

    /// A value with no references in it, coloured by kind.
    private func scalar(_ value: ArchivedValue) -> String {
        switch value {
        case .null: return palette.paint("nil", .magenta)
        case .string(let text): return palette.paint(Self.quoted(text), .green)
        case .integer(let number): return palette.paint(String(number), .yellow)
        case .unsignedInteger(let number): return palette.paint(String(number), .yellow)
        case .real(let number): return palette.paint(number.description, .yellow)
        case .bool(let flag): return palette.paint(flag ? "true" : "false", .yellow)
        case .data(let bytes):
            let hex = bytes.prefix(16).map { String(format: "%02x", $0) }.joined()
            return palette.paint("<\(count(bytes.count, "byte")): \(hex)\(bytes.count > 16 ? "…" : "")>", .magenta)
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            return palette.paint(ISODate.string(sinceReferenceDate: seconds) ?? "\(seconds) s since 2001", .blue)
        case .reference(let index): return "#\(index)"
        case .array(let items): return "[\(count(items.count, "item"))]"
        case .dictionary(let fields): return "{\(count(fields.count, "entry"))}"
        }
    }

    /// A string in double quotes with `\`, `"`, control characters and line separators
    /// escaped, so that every value stays on its line.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                result += String(format: "\\u{%02x}", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

// MARK: - Nested property lists

extension TreePrinter {
    /// Prints data that holds a property list as a heading and, one level deeper, its
    /// contents (a keyed archive's top-level entries, or the plain value); false when the
    /// data is to be shown as bytes. Nested output shares the depth limit of the rest.
    private mutating func expandNested(_ bytes: Data, heading: String, depth: Int) -> Bool {
        guard nested != nil, let content = nested?.open(bytes, level: nestingLevel) else { return false }
        line(depth, "\(heading) \(palette.paint("\(content.kind), \(count(bytes.count, "byte"))", .dim))")
        switch content {
        case .propertyList(let tree):
            nestingLevel += 1
            print(label: "plist", tree, depth: depth + 1)
            nestingLevel -= 1
        case .archive(let inner):
            // The nested printer takes over the output buffer, then hands it back.
            var child = TreePrinter(view: inner, palette: palette, maxDepth: maxDepth, output: out)
            out = OutputBuffer.capturing()
            child.nested = nested
            child.nestingLevel = nestingLevel + 1
            for entry in inner.topLevel { child.print(label: entry.key, entry.value, depth: depth + 1) }
            out = child.out
            nested = child.nested
        }
        return true
    }
}
