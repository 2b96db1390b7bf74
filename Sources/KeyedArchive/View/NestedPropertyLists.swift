import Foundation

/// What a data value holds when it is itself a property list: a keyed archive, or any
/// other binary or XML property list (see ``NestedPropertyLists``).
///
/// ```swift
/// var nested = NestedPropertyLists(inputSize: data.count)
/// if case .archive(let inner)? = nested.open(bytes, level: 1) { print(inner.render()) }
/// ```
package enum NestedPropertyList: Sendable {
    /// A keyed archive: shown as its own object graph.
    case archive(KeyedArchiveView)
    /// Any other property list, as a tree of plain values (a UID as its number).
    case propertyList(ArchivedValue)

    /// A short name for headings: "keyed archive" or "property list".
    ///
    /// ```swift
    /// print(content.kind)   // "keyed archive"
    /// ```
    package var kind: String {
        switch self {
        case .archive: return "keyed archive"
        case .propertyList: return "property list"
        }
    }

    /// Reads `bytes` as a keyed archive, or else as a plain property list; `nil` when
    /// they are neither.
    static func read(_ bytes: Data, limits: ArchiveDecoder.Limits) -> NestedPropertyList? {
        if let view = try? KeyedArchiveView(data: bytes, limits: limits) { return .archive(view) }
        guard let tree = try? PropertyListValue(propertyList: bytes, maxDepth: limits.maxDepth) else { return nil }
        return .propertyList(plain(tree))
    }

    /// A property-list tree as archive values (no references: a plain plist has none).
    /// The reader bounds the tree's depth by `maxDepth`, so this recursion is bounded too.
    static func plain(_ value: PropertyListValue) -> ArchivedValue {
        switch value {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .wideInteger(let number): return .wideInteger(number)
        case .real(let number): return .real(number)
        case .float(let number): return .real(Double(number))
        case .bool(let flag): return .bool(flag)
        case .date(let seconds): return ArchivedValue(propertyListDate: seconds)
        case .data(let bytes): return .data(bytes)
        case .uid(let number): return .unsignedInteger(number)
        case .array(let items): return .array(items.map(plain))
        case .dictionary(let entries): return .dictionary(entries.map { ArchivedField(key: $0.key, value: plain($0.value)) })
        }
    }
}

/// Opens data values that hold property lists (nested archives), within limits shared by
/// every data value of one document.
///
/// The limits follow ``ArchiveDecoder/Limits``: nested property lists open at most
/// `maxDepth` (512) levels inside one another, and the bytes parsed for them in total stay
/// within the document's work budget (``ArchiveDecoder/Limits/visitBudget(forInputSize:)``,
/// by default 16 per byte of input plus 65,536). A data value shared from many places, or
/// archives nested inside one another, therefore cost time linear in the input; what lies
/// beyond a limit is left as data, and ``skipped`` counts it.
///
/// ```swift
/// var nested = NestedPropertyLists(inputSize: data.count)
/// switch nested.open(bytes, level: 1) {
/// case .archive(let inner)?: print(inner.topLevelKeys)
/// case .propertyList(let tree)?: print(tree)
/// case nil: print("plain data")
/// }
/// ```
package struct NestedPropertyLists: Sendable {
    /// How many levels nested property lists may open inside one another.
    package var maxDepth: Int { limits.maxDepth }
    /// The limits nested archives are read with.
    package let limits: ArchiveDecoder.Limits
    /// The bytes that may still be parsed.
    package private(set) var remainingBytes: Int
    /// Property lists left unopened because a limit was reached.
    package private(set) var skipped = 0

    /// Limits for a document of `inputSize` bytes read with `limits`.
    package init(inputSize: Int, limits: ArchiveDecoder.Limits = ArchiveDecoder.Limits()) {
        self.limits = limits
        remainingBytes = max(0, limits.visitBudget(forInputSize: inputSize))
    }

    /// The content of `bytes` at nesting level `level` (1 for data in the input itself),
    /// or `nil` when they are not a property list or a limit is reached (then counted in
    /// ``skipped``).
    package mutating func open(_ bytes: Data, level: Int) -> NestedPropertyList? {
        guard InputKind(sniffing: bytes).isPropertyList else { return nil }  // a few byte comparisons
        guard level <= maxDepth, bytes.count <= remainingBytes else {
            skipped += 1
            return nil
        }
        remainingBytes -= bytes.count
        return NestedPropertyList.read(bytes, limits: limits)
    }
}
