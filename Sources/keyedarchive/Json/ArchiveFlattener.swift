import Foundation
import KeyedArchive

/// Turns an archive's object graph into plain JSON, the way forensic tools flatten it.
///
/// Foundation's classes become the values they hold (see ``FoundationValue``); any other
/// object becomes a JSON object of its fields plus its class name under `$class`. An
/// object reached twice is written out twice (JSON has no references), except along a
/// cycle: a reference back to an object that is still being written becomes
/// `{"$ref": N, "$cycle": true}`.
struct ArchiveFlattener {
    /// The archive being written (a nested one while `--expand-nested` writes it).
    private(set) var view: KeyedArchiveView
    /// Whether generic objects get a `$class` key.
    let includeClasses: Bool
    /// How deep the graph may nest before the output is refused (protects the stack).
    let maxDepth: Int
    /// How many JSON values may be produced before the output is refused: an archive
    /// that shares objects at every level would otherwise expand exponentially.
    private var budget: Int
    /// The objects on the path being written: reaching one of them again is a cycle.
    private var open: Set<Int> = []
    /// Opens data values that are property lists (`--expand-nested`); `nil` leaves them as base64.
    var nested: NestedExpansion?
    /// How many property lists enclose this one (1 for the input itself).
    var nestingLevel = 1

    /// The most JSON values one document may hold.
    static let maxValues = 5_000_000

    init(view: KeyedArchiveView, includeClasses: Bool, maxDepth: Int = 10_000, maxValues: Int = maxValues) {
        self.view = view
        self.includeClasses = includeClasses
        self.maxDepth = maxDepth
        self.budget = maxValues
    }

    /// The value under one top-level key.
    mutating func flatten(_ value: ArchivedValue) throws(ToolError) -> JSONValue {
        var estimate = ExpansionEstimate(view: view, limit: budget + 1)
        guard estimate.count(value) <= budget else { throw Self.tooLarge }
        return try flatten(value, depth: 0)
    }

    private static let tooLarge = ToolError(
        "the JSON would hold more than \(maxValues) values: the archive shares objects so heavily that writing each place out in full explodes ('dump' shows each shared object once)")

    private mutating func flatten(_ value: ArchivedValue, depth: Int) throws(ToolError) -> JSONValue {
        budget -= 1
        guard budget >= 0 else { throw Self.tooLarge }
        guard depth <= maxDepth else {
            throw ToolError("the object graph is nested more than \(maxDepth) levels deep")
        }
        switch value {
        case .reference(let index): return try object(index, depth: depth)
        case .array(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            for item in items { result.append(try flatten(item, depth: depth + 1)) }
            return .array(result)
        case .dictionary(let fields):
            var entries: [(key: String, value: JSONValue)] = []
            for field in fields { entries.append((field.key, try flatten(field.value, depth: depth + 1))) }
            return .sortedObject(entries)
        default:
            if case .data(let bytes) = value, let expanded = try expandNested(bytes, depth: depth) { return expanded }
            return Self.scalar(value)
        }
    }

    /// A value with no references in it.
    static func scalar(_ value: ArchivedValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .string(let text): return .string(text)
        case .integer(let number): return .number(String(number))
        case .unsignedInteger(let number): return .number(String(number))
        case .real(let number): return .real(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return .string(bytes.base64EncodedString())
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            return ISODate.string(sinceReferenceDate: seconds).map { .string($0) } ?? .real(seconds)
        case .reference(let index): return .number(String(index))  // not reached: callers resolve references
        case .array, .dictionary: return .null  // not reached: callers recurse into containers
        }
    }

    private mutating func object(_ index: Int, depth: Int) throws(ToolError) -> JSONValue {
        guard index < view.objects.count else { return .null }
        let object = view.objects[index]
        if let plain = object.plainValue {
            if case .data(let bytes) = plain, let expanded = try expandNested(bytes, depth: depth) { return expanded }
            return Self.scalar(plain)
        }
        if open.contains(index) {
            return .sortedObject([("$cycle", .bool(true)), ("$ref", .number(String(index)))])
        }
        open.insert(index)
        defer { open.remove(index) }
        if object.isClassEntry {
            return .sortedObject([
                ("$classes", .array(object.classes.map { .string($0) })),
                ("$classname", .string(object.classes.first ?? "")),
            ])
        }
        if let special = FoundationValue.interpret(object, in: view) {
            return try foundation(special, depth: depth)
        }
        var entries: [(key: String, value: JSONValue)] = []
        for field in object.fields {
            entries.append((field.key, try flatten(field.value, depth: depth + 1)))
        }
        if includeClasses, let name = object.className { entries.append(("$class", .string(name))) }
        return .sortedObject(entries)
    }

    /// Data that holds a property list, written in its place as `{"$archive": …}` (a keyed
    /// archive, flattened as the input is) or `{"$plist": …}`; `nil` to write it as base64.
    /// Nested values share this flattener's value budget and depth limit.
    private mutating func expandNested(_ bytes: Data, depth: Int) throws(ToolError) -> JSONValue? {
        guard nested != nil, let content = nested?.open(bytes, level: nestingLevel) else { return nil }
        switch content {
        case .propertyList(let tree):
            nestingLevel += 1
            let inner: JSONValue = try flatten(tree, depth: depth + 1)
            nestingLevel -= 1
            return JSONValue.sortedObject([(key: "$plist", value: inner)])
        case .archive(let view):
            let inner: JSONValue = try flattenNested(view, depth: depth)
            return JSONValue.sortedObject([(key: "$archive", value: inner)])
        }
    }

    /// A nested archive: its one top-level value, or an object of them. The flattener
    /// switches to the nested archive's objects for the time, so that depth and budget
    /// carry on from the enclosing data value.
    private mutating func flattenNested(_ inner: KeyedArchiveView, depth: Int) throws(ToolError) -> JSONValue {
        let outerView = view
        let outerOpen = open
        view = inner
        open = []
        nestingLevel += 1
        var result: JSONValue
        if inner.topLevel.count == 1 {
            result = try flatten(inner.topLevel[0].value, depth: depth + 1)
        } else {
            var entries: [(key: String, value: JSONValue)] = []
            for entry in inner.topLevel { entries.append((entry.key, try flatten(entry.value, depth: depth + 1))) }
            result = JSONValue.sortedObject(entries)
        }
        // An error ends the whole document, so the outer state needs restoring only here.
        view = outerView
        open = outerOpen
        nestingLevel -= 1
        return result
    }

    private mutating func foundation(_ value: FoundationValue, depth: Int) throws(ToolError) -> JSONValue {
        switch value {
        case .collection(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            for item in items { result.append(try flatten(item, depth: depth + 1)) }
            return .array(result)
        case .dictionary(let keys, let values):
            var entries: [(key: String, value: JSONValue)] = []
            entries.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) {
                let name = Self.keyText(try flatten(key, depth: depth + 1))
                entries.append((name, try flatten(value, depth: depth + 1)))
            }
            return .sortedObject(entries)
        case .string(let text): return .string(text)
        case .data(let bytes):
            if let expanded = try expandNested(bytes, depth: depth) { return expanded }
            return .string(bytes.base64EncodedString())
        case .date(let seconds):
            return ISODate.string(sinceReferenceDate: seconds).map { .string($0) } ?? .real(seconds)
        case .url(let text), .uuid(let text): return .string(text)
        case .decimal(let text): return text.map { .number($0) } ?? .null
        case .null: return .null
        }
    }

    /// A dictionary key as a JSON object key: strings as they are, numbers as their
    /// text, `true`/`false`/`null` as those words (Python's `json.dumps` does the same),
    /// anything else as its compact JSON.
    static func keyText(_ key: JSONValue) -> String {
        switch key {
        case .string(let text): return text
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array, .object:
            var out = OutputBuffer.capturing()
            JSONWriter(pretty: false).write(key, to: &out, newline: false)
            return out.captured
        }
    }
}
