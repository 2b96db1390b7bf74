/// A JSON document, built before it is written so that object keys can be sorted.
indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// Number text that is already valid JSON (`42`, `-0.5`, `1e-05`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Entries in output order: build with ``sortedObject(_:)``, which sorts them.
    case object([(key: String, value: JSONValue)])

    /// An object with its keys in Unicode code-point order (as Python's
    /// `json.dumps(sort_keys=True)` and `jq -S` order them). When two entries have the
    /// same key the later one wins, as when a Python `dict` is built from pairs.
    static func sortedObject(_ entries: [(key: String, value: JSONValue)]) -> JSONValue {
        var latest: [String: Int] = [:]
        for (position, entry) in entries.enumerated() { latest[entry.key] = position }
        let kept = entries.enumerated().filter { latest[$0.element.key] == $0.offset }.map(\.element)
        return .object(kept.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) })
    }

    /// A real number: the shortest text that reads back as the same `Double` (Swift's
    /// `description`, which matches Python's `repr`). JSON has no NaN or infinity, so
    /// those become `null`.
    static func real(_ number: Double) -> JSONValue {
        number.isFinite ? .number(number.description) : .null
    }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}
