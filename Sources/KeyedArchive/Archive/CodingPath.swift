/// A coding path as a linked list, so that descending one level costs one small node and
/// the `[CodingKey]` array is built only when someone asks for it (usually an error).
indirect enum CodingPathNode: Sendable {
    case root
    case key(any CodingKey, CodingPathNode)
    case index(Int, CodingPathNode)

    /// The path from the root, as `Encoder.codingPath` and `DecodingError.Context` want it.
    /// One allocation: collected from the leaf up, then reversed in place.
    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        keys.reserveCapacity(depth)
        var node = self
        while true {
            switch node {
            case .root:
                keys.reverse()
                return keys
            case .key(let key, let parent): keys.append(key); node = parent
            case .index(let index, let parent): keys.append(ArchiveCodingKey(index: index)); node = parent
            }
        }
    }

    /// How many keys the path has.
    var depth: Int {
        var count = 0
        var node = self
        while true {
            switch node {
            case .root: return count
            case .key(_, let parent), .index(_, let parent): count += 1; node = parent
            }
        }
    }

    func appending(_ key: any CodingKey) -> CodingPathNode { .key(key, self) }
    func appending(index: Int) -> CodingPathNode { .index(index, self) }

    /// Whether this is the very node `other` (the same box, not an equal path): a path
    /// that descends from a node shares it, so this finds where a path passes through one.
    func isSame(as other: CodingPathNode) -> Bool {
        withUnsafeBytes(of: self) { mine in withUnsafeBytes(of: other) { mine.elementsEqual($0) } }
    }
}

/// A coding key made from a string or an index: array positions, dictionary keys,
/// `super`, and top-level keys.
struct ArchiveCodingKey: CodingKey, Sendable {
    private enum Storage: Sendable {
        case string(String)
        case integer(Int)
        case index(Int)
        /// The key of `superDecoder()` and `superEncoder()`: "super", told apart from a
        /// dictionary key or a field of that name (see `DecodingPath.propertyKey(below:)`).
        case superclass
    }

    private let storage: Storage

    /// The key's text; for an array position, "Index 3" (as Foundation's coders name it),
    /// formatted only when asked for.
    var stringValue: String {
        switch storage {
        case .string(let string): return string
        case .integer(let value): return "\(value)"
        case .index(let index): return "Index \(index)"
        case .superclass: return "super"
        }
    }

    var intValue: Int? {
        switch storage {
        case .string, .superclass: return nil
        case .integer(let value), .index(let value): return value
        }
    }

    /// Whether the key is an array position (shown as `[3]` in messages).
    var isIndex: Bool {
        if case .index = storage { return true }
        return false
    }

    /// Whether this is the key of `superDecoder()`: the superclass's part of the same object.
    var isSuperclass: Bool {
        if case .superclass = storage { return true }
        return false
    }

    init(stringValue: String) { storage = .string(stringValue) }
    init(intValue: Int) { storage = .integer(intValue) }
    init(index: Int) { storage = .index(index) }
    private init(storage: Storage) { self.storage = storage }

    static let `super` = ArchiveCodingKey(storage: .superclass)
}
