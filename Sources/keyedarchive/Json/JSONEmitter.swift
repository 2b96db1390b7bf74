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
/// in `$objects` (the #N of `dump`). So the output grows linearly with the archive. Where
/// an object that is referenced again is written in full it carries `"$id": N`, so every
/// `$ref` resolves within the output: an object or dictionary gets the member, an array
/// (NSArray, NSSet, NSOrderedSet) is wrapped as `{"$id": N, "$items": [...]}`. Which
/// objects need one is found by a first pass that writes nothing.
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
    /// The bytes the document may have (`ArchiveDecoder.Limits.maxOutputBytes`).
    let outputLimit: Int
    private var shown: Set<Int> = []
    private var open: Set<Int> = []
    /// Each object's Foundation interpretation, computed once however often it is reached.
    private var interpretations: [Int: ArchivedFoundationValue?] = [:]
    /// Each object's AppKit interpretation, made once for both passes and every archive,
    /// within one work budget.
    private var appKit: AppKitInterpretations
    /// Opens data that holds a property list; `nil` leaves data as base64.
    var nested: NestedPropertyLists?
    /// The enclosing archives' state while a nested property list is written.
    private var enclosing: [(view: KeyedArchiveView, shown: Set<Int>, open: Set<Int>, archive: Int, interpretations: [Int: ArchivedFoundationValue?])] = []

    /// An object of one archive: the input is archive 0, nested ones are numbered in the
    /// order they are opened (the same in both passes).
    private struct ObjectKey: Hashable { var archive: Int; var index: Int }
    /// The archive whose objects are being written, and how many have been opened.
    private var archive = 0
    private var archivesOpened = 0
    /// Objects written as `$ref` (this pass), and those that get `$id` (found by the first).
    private var referenced: Set<ObjectKey> = []
    private var needsID: Set<ObjectKey> = []

    init(view: KeyedArchiveView, includeClasses: Bool, pretty: Bool) {
        self.view = view
        self.includeClasses = includeClasses
        self.pretty = pretty
        maxDepth = view.limits.maxDepth
        visitLimit = view.visitBudget
        budget = visitLimit
        outputLimit = view.limits.outputBudget(forInputSize: view.inputSize)
        appKit = AppKitInterpretations(view: view)
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
        try runWithIDs([.value(value, depth: depth)], to: &out)
    }

    /// Writes the JSON object `{key: value, …}` of several top-level entries.
    mutating func writeObject(_ members: [(key: String, value: ArchivedValue)], to out: inout OutputBuffer) throws(ToolError) {
        var tasks: [Task] = []
        try push(members: Self.sorted(members.map { ($0.key, $0.value) }), open: "{", close: "}", depth: 0, into: &tasks)
        try runWithIDs(tasks, to: &out)
    }

    /// A first pass on a copy finds the objects that are referenced again; the second
    /// writes, giving each of them its `$id`. Both passes do the same work, within the
    /// same limits (the first one's output is thrown away).
    private mutating func runWithIDs(_ initial: [Task], to out: inout OutputBuffer) throws(ToolError) {
        var probe = self
        var discarded = OutputBuffer.capturing()
        var tasks = initial
        try probe.run(&tasks, to: &discarded)
        needsID = probe.referenced
        // The second pass reads the same objects: their AppKit interpretations are kept.
        swap(&appKit, &probe.appKit)
        tasks = initial
        try run(&tasks, to: &out)
    }

    private mutating func run(_ tasks: inout [Task], to out: inout OutputBuffer) throws(ToolError) {
        while let task = tasks.popLast() {
            switch task {
            case .text(let text): out.append(text)
            case .newline(let indent): if pretty { out.append("\n" + String(repeating: "  ", count: indent)) }
            case .close(let index): open.remove(index)
            case .leaveNested: if let outer = enclosing.popLast() { (view, shown, open, archive, interpretations) = outer }
            case .value(let value, let depth): try emit(value, depth: depth, tasks: &tasks, to: &out)
            }
            guard out.written <= outputLimit else {
                throw ToolError("the JSON would pass \(outputLimit) bytes (--max-output; by default 64 bytes per input byte plus 1 MB): the archive repeats its values too often to write them out ('dump' shows each object once)")
            }
        }
    }

    /// The Foundation interpretation of object `index`, computed once per object and charged
    /// one visit per field it reads.
    private mutating func interpretation(of index: Int) throws(ToolError) -> ArchivedFoundationValue? {
        if let known = interpretations[index] { return known }
        try charge(view.objects[index].fields.count)
        let value = view.foundationValue(of: view.objects[index])
        interpretations[index] = value
        return value
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
        enclosing.append((view, shown, open, archive, interpretations))
        shown = []
        open = []
        interpretations = [:]
        archivesOpened += 1
        archive = archivesOpened
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
        // Only objects written in full are ever shown or open (never a scalar), so a repeat
        // is a reference before anything is interpreted again: reading an object's fields
        // once per reference would cost its size times its references.
        let key = ObjectKey(archive: archive, index: index)
        if open.contains(index) {
            referenced.insert(key)
            return out.append(literalObject([("$cycle", "true"), ("$ref", String(index))], depth: depth))
        }
        if shown.contains(index) {
            referenced.insert(key)
            return out.append(literalObject([("$ref", String(index))], depth: depth))
        }
        let interpreted = try interpretation(of: index)
        // Fields a subclass adds (NSCalendarDate's NS.timezone): the value goes under
        // `$value`, beside them, so nothing is dropped. Reading them is a visit per field.
        if interpreted != nil { try charge(object.fields.count) }
        let added = view.addedFields(of: object, interpreted: interpreted)
        if added.isEmpty {
            if case .data(let bytes)? = interpreted, try expandNested(bytes, depth: depth, into: &tasks) { return }
            if let interpreted, try foundationScalar(interpreted, to: &out) { return }
        }
        shown.insert(index)
        open.insert(index)
        tasks.append(.close(index))
        let id: [(String, ArchivedValue)] = needsID.contains(key) ? [("$id", .integer(Int64(index)))] : []
        if let interpreted, !added.isEmpty {
            var members: [(String, ArchivedValue)] = [("$value", try value(of: interpreted, depth: depth + 1))]
            members += added.map { ($0.key, $0.value) }
            if includeClasses, let name = object.className { members.append(("$class", .string(name))) }
            return try push(members: Self.sorted(members + id), open: "{", close: "}", depth: depth, into: &tasks)
        }
        switch interpreted {
        case .array(let items)?, .set(let items)?, .orderedSet(let items)?:
            if id.isEmpty {
                try push(members: items.map { (nil, $0) }, open: "[", close: "]", depth: depth, into: &tasks)
            } else {
                try push(members: id + [("$items", .array(items))], open: "{", close: "}", depth: depth, into: &tasks)
            }
        case .dictionary(let keys, let values)?:
            try push(members: Self.sorted(try entries(keys: keys, values: values, depth: depth) + id), open: "{", close: "}", depth: depth, into: &tasks)
        default:
            // AppKit/UIKit values (colours, fonts…) as the library interprets them, with the
            // fields the interpretation does not model.
            let shown: [ArchivedField]?
            do { shown = try appKit.shownFields(of: object, in: view, archive: archive) } catch { throw ToolError(error.message) }
            var members: [(String, ArchivedValue)] = (shown ?? object.fields).map { ($0.key, $0.value) }
            if includeClasses, let name = object.className { members.append(("$class", .string(name))) }
            try push(members: Self.sorted(members + id), open: "{", close: "}", depth: depth, into: &tasks)
        }
    }

    /// A dictionary's entries as members, keys as their text.
    private mutating func entries(keys: [ArchivedValue], values: [ArchivedValue], depth: Int) throws(ToolError) -> [(String, ArchivedValue)] {
        var members: [(String, ArchivedValue)] = []
        members.reserveCapacity(keys.count)
        for (key, value) in zip(keys, values) {
            members.append((try keyText(key, depth: depth + 1), value))
        }
        return members
    }

    /// A Foundation value as a value to write (for `$value`, beside a subclass's fields).
    private mutating func value(of interpreted: ArchivedFoundationValue, depth: Int) throws(ToolError) -> ArchivedValue {
        switch interpreted {
        case .string(let text): return .string(text)
        case .data(let bytes): return .data(bytes)
        case .date(let date): return .date(date)
        case .url(let url): return .string(url.absoluteString)
        case .uuid(let uuid): return .string(uuid.uuidString)
        case .decimal(let number): return number.isNaN ? .null : .string(number.description)
        case .null: return .null
        case .array(let items), .set(let items), .orderedSet(let items): return .array(items)
        case .dictionary(let keys, let values):
            return .dictionary(try entries(keys: keys, values: values, depth: depth).map { ArchivedField(key: $0.0, value: $0.1) })
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
        // A string, or an object of NSString or a subclass of it, is its text (a
        // subclass's own fields, such as PyObjC's `pytype`, are not part of a key).
        if case .string(let plain)? = view.plainValue(key) { return plain }
        if case .reference(let index) = key, index < view.objects.count,
           case .string(let string)? = try interpretation(of: index) {
            return string
        }
        var compact = JSONEmitter(view: view, includeClasses: includeClasses, pretty: false)
        // Handed over, not shared, so that neither set is copied when it grows.
        compact.budget = budget
        compact.archive = archive
        swap(&compact.shown, &shown)
        swap(&compact.referenced, &referenced)
        swap(&compact.needsID, &needsID)
        swap(&compact.interpretations, &interpretations)
        swap(&compact.appKit, &appKit)
        defer {
            swap(&compact.appKit, &appKit)
            swap(&compact.shown, &shown)
            swap(&compact.referenced, &referenced)
            swap(&compact.needsID, &needsID)
            swap(&compact.interpretations, &interpretations)
        }
        var out = OutputBuffer.capturing()
        var tasks: [Task] = [.value(key, depth: depth)]
        try compact.run(&tasks, to: &out)
        budget = compact.budget
        let text = out.captured
        guard text.hasPrefix("\"") else { return text }
        // Dates, data, URLs and UUIDs: their text, which needs no unescaping.
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
    /// or `\u00XX`, and the other characters ``ArchiveText`` keeps from a terminal (DEL,
    /// C1 controls, line separators, bidi overrides) as `\uXXXX`; everything else written
    /// as UTF-8.
    static func quote(_ text: String, to out: inout OutputBuffer) {
        out.append(byte: 0x22)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out.append("\\\"")
            case 0x5C: out.append("\\\\")
            case 0x0A: out.append("\\n")
            case 0x0D: out.append("\\r")
            case 0x09: out.append("\\t")
            case 0x08: out.append("\\b")
            case 0x0C: out.append("\\f")
            case _ where ArchiveText.mustEscape(scalar):
                let hex = Array("0123456789abcdef".utf8)
                out.append("\\u")
                for shift in stride(from: 12, through: 0, by: -4) {
                    out.append(byte: hex[Int(scalar.value >> UInt32(shift) & 0xF)])
                }
            case 0..<0x80: out.append(byte: UInt8(scalar.value))
            default: UTF8.encode(scalar) { out.append(byte: $0) }
            }
        }
        out.append(byte: 0x22)
    }
}
