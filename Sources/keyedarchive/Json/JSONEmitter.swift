import Foundation
import KeyedArchive

/// Writes an archive's object graph as plain JSON, the way forensic tools flatten it,
/// without recursion and within the document's visit budget.
///
/// Foundation's classes become the values they hold (``KeyedArchiveView/foundationValue(of:)``);
/// any other object becomes a JSON object of its fields plus its class name under
/// `$class`. Values (plain values and Foundation's value classes) are written in every
/// place they occur. An object or collection is written in full the first time it is
/// reached; a later reference to it becomes `{"$ref": N}`, and a reference back into an
/// object still being written (a cycle) `{"$cycle": true, "$ref": N}`, N being its index
/// in `$objects` (the #N of `dump`). So the output grows linearly with the archive.
///
/// With ``nested`` set (`--expand-nested`), data that holds a keyed archive is written as
/// `{"$archive": …}` and other property lists as `{"$plist": …}`, by the same loop, within
/// the same value budget and depth limit.
struct JSONEmitter {
    /// The archive being written: a nested one while its contents are written.
    private(set) var view: KeyedArchiveView
    /// Whether generic objects get a `$class` key.
    let includeClasses: Bool
    let pretty: Bool
    /// JSON containers nested deeper than this are refused (`ArchiveDecoder.Limits.maxDepth`).
    let maxDepth: Int
    /// The visits allowed in all (the input's budget, shared by nested archives).
    let visitLimit: Int
    private var budget: Int
    private var shown: Set<Int> = []
    private var open: Set<Int> = []
    /// Opens data that holds a property list; `nil` leaves data as base64.
    var nested: NestedPropertyLists?
    /// The enclosing archives' state while a nested property list is written.
    private var enclosing: [(view: KeyedArchiveView, shown: Set<Int>, open: Set<Int>)] = []

    init(view: KeyedArchiveView, includeClasses: Bool, pretty: Bool) {
        self.view = view
        self.includeClasses = includeClasses
        self.pretty = pretty
        maxDepth = view.limits.maxDepth
        visitLimit = view.visitBudget
        budget = visitLimit
    }

    private enum Task {
        /// A value, at its nesting depth (which is also its indentation).
        case value(ArchivedValue, depth: Int)
        case text(String)
        case newline(indent: Int)
        /// The object is written: it is no longer on the path.
        case close(Int)
        /// A nested property list is written: back to the enclosing archive.
        case leaveNested
    }

    /// One member of a JSON object (with a key) or array (without) still to be written.
    private typealias Member = (key: String?, value: ArchivedValue)

    /// Writes `value` and everything it refers to.
    mutating func write(_ value: ArchivedValue, depth: Int = 0, to out: inout OutputBuffer) throws(ToolError) {
        var tasks: [Task] = [.value(value, depth: depth)]
        try run(&tasks, to: &out)
    }

    /// Writes the JSON object `{key: value, …}` of several top-level entries.
    mutating func writeObject(_ members: [(key: String, value: ArchivedValue)], to out: inout OutputBuffer) throws(ToolError) {
        var tasks: [Task] = []
        try push(members: Self.sorted(members.map { ($0.key, $0.value) }), open: "{", close: "}", depth: 0, into: &tasks)
        try run(&tasks, to: &out)
    }

    private mutating func run(_ tasks: inout [Task], to out: inout OutputBuffer) throws(ToolError) {
        while let task = tasks.popLast() {
            switch task {
            case .text(let text): out.append(text)
            case .newline(let indent): if pretty { out.append("\n" + String(repeating: "  ", count: indent)) }
            case .close(let index): open.remove(index)
            case .leaveNested: if let outer = enclosing.popLast() { (view, shown, open) = outer }
            case .value(let value, let depth): try emit(value, depth: depth, tasks: &tasks, to: &out)
            }
        }
    }

    private mutating func charge(_ cost: Int) throws(ToolError) {
        budget -= cost
        guard budget >= 0 else {
            throw ToolError("the JSON would need more than \(visitLimit) visits (ArchiveDecoder.Limits.maxObjectVisits): the archive repeats its values too often to write them out ('dump' shows each object once)")
        }
    }

    /// Writes a scalar at once, or queues a container's members.
    private mutating func emit(_ value: ArchivedValue, depth: Int, tasks: inout [Task], to out: inout OutputBuffer) throws(ToolError) {
        try charge(1)
        switch value {
        case .reference(let index):
            try object(index, depth: depth, tasks: &tasks, to: &out)
        case .array(let items):
            try push(members: items.map { (nil, $0) }, open: "[", close: "]", depth: depth, into: &tasks)
        case .dictionary(let fields):
            try push(members: Self.sorted(fields.map { ($0.key, $0.value) }), open: "{", close: "}", depth: depth, into: &tasks)
        default:
            if case .data(let bytes) = value, try expandNested(bytes, depth: depth, into: &tasks) { return }
            try scalar(value, to: &out)
        }
    }

    /// Queues data that holds a property list as `{"$archive": VALUE}` (a keyed archive:
    /// its one top-level value, or an object of them) or `{"$plist": VALUE}`; `false` when
    /// the data is to be written as base64.
    private mutating func expandNested(_ bytes: Data, depth: Int, into tasks: inout [Task]) throws(ToolError) -> Bool {
        guard nested != nil, let content = nested?.open(bytes, level: enclosing.count + 1) else { return false }
        tasks.append(.leaveNested)
        enclosing.append((view, shown, open))
        shown = []
        open = []
        switch content {
        case .archive(let inner):
            view = inner
            let value: ArchivedValue = inner.topLevel.count == 1
                ? inner.topLevel[0].value : .dictionary(inner.topLevel.map { ArchivedField(key: $0.key, value: $0.value) })
            try push(members: [("$archive", value)], open: "{", close: "}", depth: depth, into: &tasks)
        case .propertyList(let tree):
            try push(members: [("$plist", tree)], open: "{", close: "}", depth: depth, into: &tasks)
        }
        return true
    }

    /// Queues `open`, the members (one per line when pretty), `close`.
    private func push(members: [Member], open: String, close: String, depth: Int, into tasks: inout [Task]) throws(ToolError) {
        guard depth < maxDepth else {
            throw ToolError("the object graph is nested more than \(maxDepth) levels deep (ArchiveDecoder.Limits.maxDepth)")
        }
        guard !members.isEmpty else { return tasks.append(.text(open + close)) }
        tasks.append(.text(close))
        tasks.append(.newline(indent: depth))
        tasks.reserveCapacity(tasks.count + 4 * members.count)
        for (position, member) in members.enumerated().reversed() {
            tasks.append(.value(member.value, depth: depth + 1))
            if let key = member.key { tasks.append(.text(Self.quoted(key) + (pretty ? ": " : ":"))) }
            tasks.append(.newline(indent: depth + 1))
            if position > 0 { tasks.append(.text(",")) }
        }
        tasks.append(.text(open))
    }

    private mutating func object(_ index: Int, depth: Int, tasks: inout [Task], to out: inout OutputBuffer) throws(ToolError) {
        guard index < view.objects.count else { return out.append("null") }
        let object = view.objects[index]
        if let plain = object.plainValue {
            if case .data(let bytes) = plain, try expandNested(bytes, depth: depth, into: &tasks) { return }
            return try scalar(plain, to: &out)
        }
        if object.isClassEntry {
            try charge(object.classes.count)
            let members = [
                ("$classes", "[" + object.classes.map { (pretty ? "\n" + indentation(depth + 2) : "") + Self.quoted($0) }
                    .joined(separator: ",") + (pretty ? "\n" + indentation(depth + 1) : "") + "]"),
                ("$classname", Self.quoted(object.classes.first ?? "")),
            ]
            return out.append(literalObject(members, depth: depth))
        }
        let interpreted = view.foundationValue(of: object)
        if case .data(let bytes)? = interpreted, try expandNested(bytes, depth: depth, into: &tasks) { return }
        if let interpreted, try foundationScalar(interpreted, to: &out) { return }
        if open.contains(index) {
            return out.append(literalObject([("$cycle", "true"), ("$ref", String(index))], depth: depth))
        }
        if shown.contains(index) {
            return out.append(literalObject([("$ref", String(index))], depth: depth))
        }
        shown.insert(index)
        open.insert(index)
        tasks.append(.close(index))
        switch interpreted {
        case .array(let items)?, .set(let items)?, .orderedSet(let items)?:
            try push(members: items.map { (nil, $0) }, open: "[", close: "]", depth: depth, into: &tasks)
        case .dictionary(let keys, let values)?:
            var members: [(String, ArchivedValue)] = []
            members.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) {
                members.append((try keyText(key, depth: depth + 1), value))
            }
            try push(members: Self.sorted(members), open: "{", close: "}", depth: depth, into: &tasks)
        default:
            // AppKit/UIKit values (colours, fonts…) as the library interprets them.
            var members: [(String, ArchivedValue)] = (view.appKitValue(of: object)?.fields ?? object.fields).map { ($0.key, $0.value) }
            if includeClasses, let name = object.className { members.append(("$class", .string(name))) }
            try push(members: Self.sorted(members), open: "{", close: "}", depth: depth, into: &tasks)
        }
    }

    private func indentation(_ depth: Int) -> String { String(repeating: "  ", count: depth) }

    /// A small object whose member values are already JSON text, laid out like any object.
    private func literalObject(_ members: [(key: String, json: String)], depth: Int) -> String {
        let separator = pretty ? "\n" + indentation(depth + 1) : ""
        let body = members.map { separator + Self.quoted($0.key) + (pretty ? ": " : ":") + $0.json }.joined(separator: ",")
        return "{" + body + (pretty ? "\n" + indentation(depth) : "") + "}"
    }

    /// Writes a Foundation value class as its value; `false` for collections.
    private mutating func foundationScalar(_ value: ArchivedFoundationValue, to out: inout OutputBuffer) throws(ToolError) -> Bool {
        switch value {
        case .string(let text): try scalar(.string(text), to: &out)
        case .data(let bytes): try scalar(.data(bytes), to: &out)
        case .date(let date): try scalar(.date(date), to: &out)
        case .url(let url): try scalar(.string(url.absoluteString), to: &out)
        case .uuid(let uuid): try scalar(.string(uuid.uuidString), to: &out)
        case .decimal(let number): out.append(number.isNaN ? "null" : number.description)
        case .null: out.append("null")
        case .array, .set, .orderedSet, .dictionary: return false
        }
        return true
    }

    /// A value with no references in it; long strings and data cost in proportion.
    private mutating func scalar(_ value: ArchivedValue, to out: inout OutputBuffer) throws(ToolError) {
        switch value {
        case .null: out.append("null")
        case .string(let text):
            try charge(text.utf8.count / 256)
            Self.quote(text, to: &out)
        case .integer(let number): out.append(String(number))
        case .unsignedInteger(let number): out.append(String(number))
        case .wideInteger(let number): out.append(number.description)
        case .real(let number): out.append(Self.real(number))
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .data(let bytes):
            try charge(bytes.count / 192)
            Self.quote(bytes.base64EncodedString(), to: &out)
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            if let text = ArchiveDateText.iso8601(sinceReferenceDate: seconds) {
                Self.quote(text, to: &out)
            } else {
                out.append(Self.real(seconds))
            }
        case .reference(let index): out.append(String(index))  // not reached: callers resolve references
        case .array, .dictionary: out.append("null")  // not reached: callers queue containers
        }
    }

    /// A dictionary key as a JSON object key: strings as they are, numbers as their
    /// text, `true`/`false`/`null` as those words (Python's `json.dumps` does the same),
    /// dates and data as their text, anything else as its compact JSON.
    private mutating func keyText(_ key: ArchivedValue, depth: Int) throws(ToolError) -> String {
        var compact = JSONEmitter(view: view, includeClasses: includeClasses, pretty: false)
        // Handed over, not shared, so that neither set is copied when it grows.
        compact.budget = budget
        swap(&compact.shown, &shown)
        defer { swap(&compact.shown, &shown) }
        var out = OutputBuffer.capturing()
        try compact.write(key, depth: depth, to: &out)
        budget = compact.budget
        let text = out.captured
        // A string key is its text (a key that is a string needs no quotes).
        guard text.hasPrefix("\"") else { return text }
        if case .string(let plain) = view.plainValue(key) ?? .null { return plain }
        if case .reference(let index) = key, index < view.objects.count {
            switch view.foundationValue(of: view.objects[index]) {
            case .string(let string)?: return string
            default: break
            }
        }
        // Dates and data: their text, which needs no unescaping.
        return String(text.dropFirst().dropLast())
    }

    /// Members with their keys in Unicode code-point order (as Python's
    /// `json.dumps(sort_keys=True)` and `jq -S` order them). When two members have the
    /// same key the later one wins, as when a Python `dict` is built from pairs.
    private static func sorted(_ members: [(String, ArchivedValue)]) -> [Member] {
        var latest: [String: Int] = [:]
        for (position, member) in members.enumerated() { latest[member.0] = position }
        return members.enumerated()
            .filter { latest[$0.element.0] == $0.offset }
            .map { (key: $0.element.0, value: $0.element.1) }
            .sorted { ($0.key ?? "").unicodeScalars.lexicographicallyPrecedes(($1.key ?? "").unicodeScalars) }
    }

    /// A real number: the shortest text that reads back as the same `Double` (Swift's
    /// `description`, which matches Python's `repr`). JSON has no NaN or infinity, so
    /// those become `null`.
    static func real(_ number: Double) -> String {
        number.isFinite ? number.description : "null"
    }

    static func quoted(_ text: String) -> String {
        var out = OutputBuffer.capturing()
        quote(text, to: &out)
        return out.captured
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
