/// A coding path as a linked list, so that descending one level costs one small node and
/// the `[CodingKey]` array is built only when someone asks for it (usually an error).
indirect enum CodingPathNode: Sendable {
    case root
    case key(any CodingKey, CodingPathNode)
    case index(Int, CodingPathNode)

    /// The path from the root, as `Encoder.codingPath` and `DecodingError.Context` want it.
    var path: [any CodingKey] {
        var reversed: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return reversed.reversed()
            case .key(let key, let parent): reversed.append(key); node = parent
            case .index(let index, let parent): reversed.append(ArchiveCodingKey(index: index)); node = parent
            }
        }
    }

    func appending(_ key: any CodingKey) -> CodingPathNode { .key(key, self) }
    func appending(index: Int) -> CodingPathNode { .index(index, self) }
}

/// A coding key made from a string or an index: array positions, dictionary keys,
/// `super`, and top-level keys.
struct ArchiveCodingKey: CodingKey, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }

    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    static let `super` = ArchiveCodingKey(stringValue: "super")
}
