import Foundation

/// An untyped view of any keyed archive, for archives whose types you do not have.
///
/// Opening one validates the whole object table: every UID in range, every `$class`
/// pointing at a class entry with a `$classname`. The view is a graph (objects refer to
/// each other by index); ``render(maxDepth:)`` prints it as a tree in which a shared
/// object is shown once and then referred to, and a cycle is marked instead of followed.
///
/// ```swift
/// let view = try KeyedArchiveView(data: data)
/// print(view.topLevelKeys)                 // ["root"]
/// if case .reference(let index) = view.topLevel[0].value {
///     print(view.objects[index].className ?? "plain value")
/// }
/// print(view.render())
/// ```
public struct KeyedArchiveView: Sendable, CustomStringConvertible {
    /// A `$top` entry.
    public struct TopLevelEntry: Sendable, Hashable {
        /// The `$top` key (`root` for a single value).
        public var key: String
        /// Its value: a reference into ``KeyedArchiveView/objects``, or `.null`.
        public var value: ArchivedValue
    }

    /// The `$top` entries, in file order.
    public let topLevel: [TopLevelEntry]
    /// Every entry of `$objects`, indexed by UID (index 0 is `$null`).
    public let objects: [ArchivedObject]

    /// The top-level keys, in file order.
    public var topLevelKeys: [String] { topLevel.map(\.key) }

    /// The value under a top-level key.
    public func value(forKey key: String) -> ArchivedValue? {
        topLevel.first(where: { $0.key == key })?.value
    }

    /// Opens and validates an archive (binary or XML).
    ///
    /// - Throws: ``PropertyListError`` when the data is not a property list,
    ///   ``KeyedArchiveError`` (with object index and key) when it is not a sound archive.
    public init(data: Data, maxDepth: Int = 512) throws {
        let document = try ArchiveDocument(data: data, maxDepth: maxDepth)
        let count = document.objectCount
        var objects: [ArchivedObject] = []
        objects.reserveCapacity(count)
        for uid in 0..<count {
            let tree = try document.plist.value(at: try document.objectRef(uid), maxDepth: maxDepth)
            objects.append(try ArchivedObject(index: uid, tree: tree, document: document))
        }
        self.objects = objects
        topLevel = document.top.map { TopLevelEntry(key: $0.key, value: $0.uid == 0 ? .null : .reference($0.uid)) }
    }

    /// The rendered tree (``render(maxDepth:)``).
    public var description: String { render() }
}

/// A value inside a keyed archive, with references left as object indices.
public indirect enum ArchivedValue: Sendable, Hashable {
    /// UID 0.
    case null
    /// A UID: the index of an object in ``KeyedArchiveView/objects``.
    case reference(Int)
    case string(String)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    /// An inline array (such as `NS.objects`, a list of references).
    case array([ArchivedValue])
    /// An inline dictionary (rare: archives nest objects by reference).
    case dictionary([ArchivedField])
}

/// A key and its value inside an archived object.
public struct ArchivedField: Sendable, Hashable {
    /// The field's key, unescaped (`$$x` is shown as `$x`).
    public var key: String
    /// Its value.
    public var value: ArchivedValue

    /// Creates a field.
    public init(key: String, value: ArchivedValue) {
        self.key = key
        self.value = value
    }
}

/// One entry of `$objects`: an object with a class and fields, a class entry, or a plain
/// value (string, number, data) stored directly.
public struct ArchivedObject: Sendable, Hashable {
    /// Its UID.
    public let index: Int
    /// `$classname` of its class, or `nil` for plain values and class entries.
    public let className: String?
    /// `$classes` of its class, most specific first.
    public let classes: [String]
    /// Its fields (without `$class`), keys unescaped; empty for plain values.
    public let fields: [ArchivedField]
    /// The value itself, for plain values (strings, numbers, data).
    public let plainValue: ArchivedValue?
    /// Whether this entry is a class entry (`{$classname, $classes}`).
    public let isClassEntry: Bool

    /// The value of field `key`.
    public subscript(key: String) -> ArchivedValue? {
        fields.first(where: { $0.key == key })?.value
    }

    init(index: Int, tree: PropertyListValue, document: ArchiveDocument) throws {
        self.index = index
        let count = document.objectCount
        func convert(_ value: PropertyListValue, key: String?) throws -> ArchivedValue {
            switch value {
            case .uid(let uid):
                guard uid < UInt64(count) else {
                    throw KeyedArchiveError("UID \(uid) is out of range (\(count) objects)", objectIndex: index, key: key)
                }
                return uid == 0 ? .null : .reference(Int(uid))
            case .string(let s): return .string(s)
            case .integer(let i): return .integer(i)
            case .unsignedInteger(let u): return .unsignedInteger(u)
            case .real(let d): return .real(d)
            case .float(let f): return .real(Double(f))
            case .bool(let b): return .bool(b)
            case .data(let d): return .data(d)
            case .date(let d): return .date(Date(timeIntervalSinceReferenceDate: d))
            case .array(let items): return .array(try items.map { try convert($0, key: key) })
            case .dictionary(let entries):
                return .dictionary(try entries.map { ArchivedField(key: $0.key, value: try convert($0.value, key: $0.key)) })
            }
        }
        guard case .dictionary(let entries) = tree else {
            className = nil
            classes = []
            fields = []
            isClassEntry = false
            plainValue = try convert(tree, key: nil)
            return
        }
        plainValue = nil
        if let classValue = tree["$class"] {
            guard case .uid(let classUID) = classValue, classUID > 0, classUID < UInt64(count) else {
                throw KeyedArchiveError("$class is not a UID of a class entry", objectIndex: index, key: "$class")
            }
            let info = try document.classEntry(Int(classUID), usedBy: index)
            className = info.name
            classes = info.classes
            isClassEntry = false
            var fields: [ArchivedField] = []
            for entry in entries {
                guard let key = ArchiveKeyEscaping.unescape(entry.key) else { continue }
                fields.append(ArchivedField(key: key, value: try convert(entry.value, key: key)))
            }
            self.fields = fields
        } else if case .string(let name)? = tree["$classname"] {
            className = nil
            var names: [String] = []
            if case .array(let list)? = tree["$classes"] {
                for case .string(let n) in list { names.append(n) }
            }
            classes = names.isEmpty ? [name] : names
            fields = [ArchivedField(key: "$classname", value: .string(name))]
            isClassEntry = true
        } else {
            throw KeyedArchiveError("object has no $class (and is not a class entry)", objectIndex: index, key: "$class")
        }
    }
}

// MARK: - Rendering

extension KeyedArchiveView {
    /// The archive as an indented tree: each top-level key, then each object's class and
    /// fields. Plain values referenced by UID are shown in place; an object referenced a
    /// second time is shown as `-> #N`, and a reference back into its own ancestors as
    /// `-> #N (cycle)`.
    ///
    /// ```text
    /// root: Person #1
    ///   name = "Ada"
    ///   dog: Dog #4
    ///     name = "Rex"
    /// ```
    public func render(maxDepth: Int = 64) -> String {
        var renderer = ArchiveTreeRenderer(view: self, maxDepth: maxDepth)
        for entry in topLevel {
            renderer.field(entry.key, entry.value, depth: 0)
        }
        return renderer.output
    }
}

/// Walks the graph once, printing each object the first time it is reached.
struct ArchiveTreeRenderer {
    let view: KeyedArchiveView
    let maxDepth: Int
    var output = ""
    var shown: Set<Int> = []
    var open: Set<Int> = []

    init(view: KeyedArchiveView, maxDepth: Int) {
        self.view = view
        self.maxDepth = maxDepth
    }

    mutating func line(_ depth: Int, _ text: String) {
        output += String(repeating: "  ", count: depth) + text + "\n"
    }

    mutating func field(_ key: String, _ value: ArchivedValue, depth: Int) {
        switch value {
        case .reference(let index):
            reference(label: key, index, depth: depth)
        case .array(let items):
            line(depth, "\(key) = [\(items.isEmpty ? "]" : "")")
            guard !items.isEmpty else { return }
            for (position, item) in items.enumerated() {
                field("[\(position)]", item, depth: depth + 1)
            }
            line(depth, "]")
        case .dictionary(let entries):
            line(depth, "\(key) = {")
            for entry in entries { field(entry.key, entry.value, depth: depth + 1) }
            line(depth, "}")
        default:
            line(depth, "\(key) = \(Self.scalar(value))")
        }
    }

    mutating func reference(label: String, _ index: Int, depth: Int) {
        guard index < view.objects.count else {
            line(depth, "\(label) = <invalid #\(index)>")
            return
        }
        let object = view.objects[index]
        if let plain = object.plainValue {
            line(depth, "\(label) = \(Self.scalar(plain))")
            return
        }
        let name = object.className ?? "class entry"
        if open.contains(index) {
            line(depth, "\(label): -> #\(index) (cycle)")
            return
        }
        if shown.contains(index) {
            line(depth, "\(label): -> #\(index) \(name) (shown above)")
            return
        }
        guard depth < maxDepth else {
            line(depth, "\(label): \(name) #\(index) …")
            return
        }
        shown.insert(index)
        open.insert(index)
        line(depth, "\(label): \(name) #\(index)")
        for field in object.fields {
            self.field(field.key, field.value, depth: depth + 1)
        }
        open.remove(index)
    }

    static func scalar(_ value: ArchivedValue) -> String {
        switch value {
        case .null: return "nil"
        case .string(let s): return "\"\(s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n"))\""
        case .integer(let i): return "\(i)"
        case .unsignedInteger(let u): return "\(u)"
        case .real(let d): return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .data(let d): return "<\(d.count) bytes: \(d.prefix(16).map { String(format: "%02x", $0) }.joined())\(d.count > 16 ? "…" : "")>"
        case .date(let date): return ISO8601DateFormatter().string(from: date)
        case .reference(let i): return "#\(i)"
        case .array(let items): return "[\(items.count) items]"
        case .dictionary(let entries): return "{\(entries.count) entries}"
        }
    }
}
