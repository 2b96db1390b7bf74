import Foundation
import KeyedArchive

/// What a data value holds when it is itself a property list (`--expand-nested`).
enum NestedContent {
    /// A keyed archive: shown as its own object graph.
    case archive(KeyedArchiveView)
    /// Any other property list, as a tree of plain values (a UID as its number).
    case propertyList(ArchivedValue)

    /// A short name for headings: "keyed archive" or "property list".
    var kind: String {
        switch self {
        case .archive: return "keyed archive"
        case .propertyList: return "property list"
        }
    }

    /// Whether `bytes` start as a binary (`bplist`) or XML property list does. Costs a few
    /// byte comparisons: data that is not a property list is never parsed.
    static func looksLikePropertyList(_ bytes: Data) -> Bool {
        if bytes.starts(with: Array("bplist".utf8)) { return true }
        var text = bytes.prefix(256)
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        let start = text.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        return start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<plist".utf8))
            || start.starts(with: Array("<!DOCTYPE plist".utf8))
    }

    /// Reads `bytes` as a keyed archive, or else as a plain property list; `nil` when
    /// they are neither.
    static func read(_ bytes: Data, maxDepth: Int) -> NestedContent? {
        if let view = try? KeyedArchiveView(data: bytes, maxDepth: maxDepth) { return .archive(view) }
        guard let tree = try? PropertyListValue(propertyList: bytes, maxDepth: maxDepth) else { return nil }
        return .propertyList(plain(tree))
    }

    /// A property-list tree as archive values (no references: a plain plist has none).
    /// The reader bounds the tree's depth, so this recursion is bounded too.
    private static func plain(_ value: PropertyListValue) -> ArchivedValue {
        switch value {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .real(let number): return .real(number)
        case .float(let number): return .real(Double(number))
        case .bool(let flag): return .bool(flag)
        case .date(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .data(let bytes): return .data(bytes)
        case .uid(let number): return .unsignedInteger(number)
        case .array(let items): return .array(items.map(plain))
        case .dictionary(let entries): return .dictionary(entries.map { ArchivedField(key: $0.key, value: plain($0.value)) })
        }
    }
}

/// The limits on opening nested property lists, shared by every data value of one run.
///
/// They follow ``ArchiveDecoder/Limits``: nested property lists open at most
/// `maxDepth` (512) levels inside one another, and the bytes parsed for them in total stay
/// within the decoder's default work budget, 16 per byte of input plus 65,536. A data
/// value shared from many places, or archives nested inside one another, therefore cost
/// time linear in the input; what lies beyond a limit is shown as plain data, and
/// ``skipped`` counts it.
struct NestedExpansion {
    let maxDepth: Int
    private(set) var remainingBytes: Int
    /// Property lists left unopened because a limit was reached.
    private(set) var skipped = 0

    init(inputSize: Int, limits: ArchiveDecoder.Limits = ArchiveDecoder.Limits()) {
        maxDepth = limits.maxDepth
        remainingBytes = limits.maxObjectVisits ?? inputSize.multipliedReportingOverflow(by: 16).partialValue &+ 65_536
    }

    /// The content of `bytes` at nesting level `level` (1 for data in the input itself),
    /// or `nil` when they are not a property list or a limit is reached.
    mutating func open(_ bytes: Data, level: Int) -> NestedContent? {
        guard NestedContent.looksLikePropertyList(bytes) else { return nil }
        guard level <= maxDepth, bytes.count <= remainingBytes else {
            skipped += 1
            return nil
        }
        remainingBytes -= bytes.count
        return NestedContent.read(bytes, maxDepth: maxDepth)
    }

    /// The note printed on standard error when something was left unopened.
    var skippedNote: String? {
        guard skipped > 0 else { return nil }
        return "note: \(skipped) nested property list\(skipped == 1 ? " was" : "s were") shown as data: nesting deeper than \(maxDepth) levels, or more nested bytes than the work limit (16 per input byte plus 65,536)"
    }
}
