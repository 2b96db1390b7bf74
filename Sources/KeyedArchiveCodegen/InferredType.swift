/// The Swift type inferred for the values found at one place of an archive, and how the
/// types of two places combine (``merged(with:)``).
///
/// Types are structural except archived classes, which are named by `$classname` and
/// whose fields live in ``ArchiveSchema/classes``: every instance of a class shares one
/// generated type.
indirect enum InferredType: Hashable, Sendable {
    /// Nothing seen but nil or empty collections.
    case unknown
    /// A standard-library or Foundation type: `Int`, `Date`, `IndexSet`.
    case value(FoundationType)
    /// The generated type of an archived class, by `$classname`.
    case object(String)
    case array(InferredType)
    case set(InferredType)
    case dictionary(key: InferredType, value: InferredType)
    /// An NSDictionary with string keys whose values differ in type: a struct with one
    /// property per key.
    case record([RecordField])
    case optional(InferredType)
    /// Values of several kinds at one place: an enum with a case per kind. Members are
    /// never optional, unknown or `oneOf` themselves, and are kept sorted.
    case oneOf([InferredType])

    /// One key of a ``InferredType/record(_:)``.
    struct RecordField: Hashable, Sendable {
        var key: String
        var type: InferredType
        /// Whether some dictionary at this place lacks the key or holds nil under it.
        var isOptional: Bool
    }

    static let bool = InferredType.value(.bool)
    static let int = InferredType.value(.int)
    static let double = InferredType.value(.double)
    static let string = InferredType.value(.string)

    /// The type without its `Optional`.
    var unwrapped: InferredType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The type of a place that holds values of both types.
    func merged(with other: InferredType) -> InferredType {
        switch (self, other) {
        case (.unknown, _): return other
        case (_, .unknown): return self
        case (.optional(let a), _): return .optional(a.merged(with: other.unwrapped).unwrapped)
        case (_, .optional(let b)): return .optional(merged(with: b).unwrapped)
        default: break
        }
        if self == other { return self }
        if let combined = Self.combine(self, other) { return combined }
        return Self.union(members + other.members)
    }

    /// The members of a `oneOf`, or the type alone.
    private var members: [InferredType] {
        if case .oneOf(let members) = self { return members }
        return [self]
    }

    /// Two types that one Swift type holds, or `nil` when they need an enum.
    private static func combine(_ a: InferredType, _ b: InferredType) -> InferredType? {
        switch (a, b) {
        case (.value(.int), .value(.double)), (.value(.double), .value(.int)):
            // Double reads integer storage; every archived integer below 2^53 is exact.
            return .double
        case (.value(.int), .value(.uint64)), (.value(.uint64), .value(.int)):
            return .value(.uint64)
        case (.array(let x), .array(let y)), (.array(let x), .set(let y)), (.set(let x), .array(let y)):
            return .array(x.merged(with: y))
        case (.set(let x), .set(let y)):
            return .set(x.merged(with: y))
        case (.dictionary(let k1, let v1), .dictionary(let k2, let v2)):
            return .dictionary(key: k1.merged(with: k2), value: v1.merged(with: v2))
        case (.record(let x), .record(let y)):
            return .record(mergeRecords(x, y))
        case (.record(let fields), .dictionary(let key, let value)), (.dictionary(let key, let value), .record(let fields)):
            return .dictionary(key: key.merged(with: .string), value: fields.reduce(value) { $0.merged(with: $1.type) })
        default:
            return nil
        }
    }

    /// The keys of both records; a key missing from one becomes optional.
    static func mergeRecords(_ x: [RecordField], _ y: [RecordField]) -> [RecordField] {
        var byKey: [String: RecordField] = [:]
        for field in x { byKey[field.key] = field }
        var seen: Set<String> = []
        for field in y {
            seen.insert(field.key)
            if let existing = byKey[field.key] {
                byKey[field.key] = RecordField(key: field.key, type: existing.type.merged(with: field.type),
                                               isOptional: existing.isOptional || field.isOptional)
            } else {
                byKey[field.key] = RecordField(key: field.key, type: field.type, isOptional: true)
            }
        }
        for field in x where !seen.contains(field.key) { byKey[field.key]?.isOptional = true }
        return byKey.values.sorted { $0.key < $1.key }
    }

    /// A `oneOf` of `candidates`, each folded into a member it combines with.
    private static func union(_ candidates: [InferredType]) -> InferredType {
        var result: [InferredType] = []
        for candidate in candidates {
            if let index = result.firstIndex(where: { $0 == candidate || combine($0, candidate) != nil }) {
                result[index] = result[index] == candidate ? candidate : combine(result[index], candidate) ?? candidate
            } else {
                result.append(candidate)
            }
        }
        guard result.count > 1 else { return result.first ?? .unknown }
        return .oneOf(result.sorted { $0.sortKey < $1.sortKey })
    }

    /// The number of parts of this type, counting at most `limit`: a type is a tree, and
    /// an archive that shares a dictionary at every level makes it grow exponentially.
    func partCount(limit: Int) -> Int {
        var count = 0
        var stack: [InferredType] = [self]
        while let type = stack.popLast(), count < limit {
            count += 1
            switch type {
            case .unknown, .value, .object: break
            case .array(let inner), .set(let inner), .optional(let inner): stack.append(inner)
            case .dictionary(let key, let value): stack += [key, value]
            case .record(let fields): stack += fields.map(\.type)
            case .oneOf(let members): stack += members
            }
        }
        return count
    }

    /// A stable order for enum members.
    var sortKey: String {
        switch self {
        case .unknown: return "0"
        case .value(let type): return "1" + type.spelling
        case .object(let name): return "2" + name
        case .array(let element): return "3[" + element.sortKey
        case .set(let element): return "4{" + element.sortKey
        case .dictionary(let key, let value): return "5[" + key.sortKey + ":" + value.sortKey
        case .record(let fields): return "6{" + fields.map { $0.key + ":" + $0.type.sortKey }.joined(separator: ",")
        case .optional(let wrapped): return "7?" + wrapped.sortKey
        case .oneOf(let members): return "8(" + members.map(\.sortKey).joined(separator: "|")
        }
    }
}
