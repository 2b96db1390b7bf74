import Foundation

// The value types each workload encodes, and deterministic generators for them.

/// A small deterministic generator (SplitMix64), so every run encodes the same values.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

// MARK: - (1) Flat records

struct Dog: Codable, Equatable {
    var name: String
    var age: Int
}

struct Person: Codable, Equatable {
    var name: String
    var age: Int
    var weight: Double
    var birthDate: Date
    var tags: [String]
    var dog: Dog?
    var isActive: Bool
}

private let tagPool = ["admin", "staff", "guest", "vip", "beta", "legacy", "remote", "on-call"]

/// `count` people: distinct names, repeated tags, a dog for two in three.
func makePeople(_ count: Int) -> [Person] {
    var rng = SplitMix64(seed: 1)
    return (0..<count).map { i in
        Person(
            name: "Person \(i)",
            age: 18 + rng.int(70),
            weight: Double(400 + rng.int(800)) / 8,          // exact in binary, so JSON round-trips
            birthDate: Date(timeIntervalSinceReferenceDate: Double(rng.int(1_500_000_000)) - 700_000_000),
            tags: [tagPool[rng.int(tagPool.count)], tagPool[rng.int(tagPool.count)]],
            dog: i % 3 == 2 ? nil : Dog(name: "Dog \(i % 500)", age: rng.int(15)),
            isActive: rng.int(2) == 0)
    }
}

// MARK: - (2) Deep nesting

/// Holds a value out of line, so a struct can contain itself. Encodes as the value itself
/// (a single-value container), so one level of nesting is one object in every format.
struct Indirect<T: Codable & Equatable>: Codable, Equatable {
    private final class Storage { let value: T; init(_ value: T) { self.value = value } }
    private let storage: Storage
    var value: T { storage.value }
    init(_ value: T) { storage = Storage(value) }
    init(from decoder: any Decoder) throws { storage = Storage(try decoder.singleValueContainer().decode(T.self)) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
    static func == (a: Self, b: Self) -> Bool { a.storage === b.storage || a.value == b.value }
}

/// One level of a chain of nested structs.
struct Level: Codable, Equatable {
    var depth: Int
    var label: String
    var weight: Double
    var next: Indirect<Level>?
}

/// `count` chains, each `depth` levels deep.
func makeChains(count: Int, depth: Int) -> [Level] {
    (0..<count).map { c in
        var level: Level? = nil
        for d in stride(from: depth - 1, through: 0, by: -1) {
            level = Level(depth: d, label: "level \(d)", weight: Double(c * depth + d) / 4, next: level.map(Indirect.init))
        }
        return level!
    }
}

// MARK: - (3) String-heavy

struct Paragraph: Codable, Equatable {
    var id: String
    var author: String
    var words: [String]
}

/// Paragraphs of words: three in four from a 400-word vocabulary (repeated, some
/// non-ASCII), one in four unique; every paragraph has a unique id.
func makeParagraphs(count: Int, wordsEach: Int) -> [Paragraph] {
    var rng = SplitMix64(seed: 3)
    let accents = ["café", "naïve", "Straße", "日本語", "emoji🙂", "Ελληνικά"]
    let vocabulary = (0..<400).map { i in i % 20 == 0 ? "\(accents[i / 20 % accents.count])\(i)" : "word\(i)" }
    let authors = (0..<50).map { "Author Number \($0)" }
    var unique = 0
    return (0..<count).map { p in
        let words = (0..<wordsEach).map { _ -> String in
            if rng.int(4) == 0 { unique += 1; return "unique-\(unique)-\(rng.next() & 0xFFFF)" }
            return vocabulary[rng.int(vocabulary.count)]
        }
        return Paragraph(id: "paragraph-\(p)-\(rng.next())", author: authors[rng.int(authors.count)], words: words)
    }
}

// MARK: - (4) Number arrays

/// Distinct doubles (fractions exact in binary, so every format round-trips them).
func makeDoubles(_ count: Int) -> [Double] {
    var rng = SplitMix64(seed: 4)
    return (0..<count).map { i in Double(i) + Double(rng.int(1 << 20)) / Double(1 << 20) }
}

/// Integers of mixed magnitude: small (often repeated), medium and 64-bit wide.
func makeInts(_ count: Int) -> [Int] {
    var rng = SplitMix64(seed: 5)
    return (0..<count).map { i in
        switch i % 4 {
        case 0: return rng.int(256)
        case 1: return rng.int(1 << 20) - (1 << 19)
        case 2: return rng.int(1 << 40)
        default: return Int(truncatingIfNeeded: rng.next())
        }
    }
}

// MARK: - (5) Shared class instances

/// A node referenced from many edges. Final class: encoders that keep identity write it once.
final class GraphNode: Codable, Equatable {
    let id: Int
    let name: String
    let weight: Double
    let tags: [String]
    init(id: Int, name: String, weight: Double, tags: [String]) {
        self.id = id; self.name = name; self.weight = weight; self.tags = tags
    }
    static func == (a: GraphNode, b: GraphNode) -> Bool {
        a === b || (a.id == b.id && a.name == b.name && a.weight == b.weight && a.tags == b.tags)
    }
}

struct Edge: Codable, Equatable {
    var from: GraphNode
    var to: GraphNode
    var cost: Double
}

struct Graph: Codable, Equatable {
    var nodes: [GraphNode]
    var edges: [Edge]

    /// Nil when every edge end is (identically) one of `nodes`, else a description.
    func identityProblem() -> String? {
        let ids = Set(nodes.map(ObjectIdentifier.init))
        let stray = edges.filter { !ids.contains(ObjectIdentifier($0.from)) || !ids.contains(ObjectIdentifier($0.to)) }
        return stray.isEmpty ? nil : "\(stray.count) of \(edges.count) edges point at copies, not at the shared nodes"
    }
}

func makeGraph(nodes nodeCount: Int, edges edgeCount: Int) -> Graph {
    var rng = SplitMix64(seed: 6)
    let nodes = (0..<nodeCount).map { i in
        GraphNode(id: i, name: "node \(i)", weight: Double(rng.int(4096)) / 16,
                  tags: [tagPool[rng.int(tagPool.count)], tagPool[rng.int(tagPool.count)]])
    }
    let edges = (0..<edgeCount).map { _ in
        Edge(from: nodes[rng.int(nodeCount)], to: nodes[rng.int(nodeCount)], cost: Double(rng.int(1000)) / 4)
    }
    return Graph(nodes: nodes, edges: edges)
}

// MARK: - (6) Dictionaries

struct Dictionaries: Codable, Equatable {
    /// Many entries, string keys.
    var counts: [String: Int]
    /// Dictionaries of dictionaries.
    var nested: [String: [String: Int]]
}

func makeDictionaries(entries: Int, outer: Int, inner: Int) -> Dictionaries {
    var rng = SplitMix64(seed: 7)
    var counts: [String: Int] = [:]
    for i in 0..<entries { counts["key-\(i)-\(rng.int(1000))"] = rng.int(1_000_000) }
    var nested: [String: [String: Int]] = [:]
    for o in 0..<outer {
        var dict: [String: Int] = [:]
        for i in 0..<inner { dict["field\(i)"] = rng.int(10_000) }
        nested["group-\(o)"] = dict
    }
    return Dictionaries(counts: counts, nested: nested)
}
