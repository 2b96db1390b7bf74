/// The Swift type inferred for the values found at one place of an archive (the types of
/// many places combine with ``TypeMerger``).
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
