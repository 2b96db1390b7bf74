import Foundation
import Testing
@testable import KeyedArchive

/// Opening a keyed container finds its Key type's cache (`KeyRefCache`) among the types
/// opened lately with a compare or two (`RecentKeyRefCaches`), else in the decode's table
/// of every type. Whichever way it is found, each Key type must get its own cache, and a
/// decode only its own: types whose slots collide, types that alternate, one Key type in
/// two decodes at once, archives decoded one after the other.
@Suite("Key types found among the recent ones")
struct RecentKeyRefCacheTests {
    typealias Person = KeyedObjectMemoTests.Person
    typealias Shape = KeyedObjectMemoTests.Shape

    /// One field of its own, then the next level: each `Level<Inner>` is a Key type of its
    /// own (`Level<Inner>.CodingKeys`).
    struct Level<Inner: Codable & Equatable>: Codable, Equatable {
        var depth: Int
        var inner: Inner
    }

    /// Another layout (three keys, another order) between the levels.
    struct Pair<Inner: Codable & Equatable>: Codable, Equatable {
        var label: String
        var inner: Inner
        var count: Int
    }

    typealias L1 = Level<Int>
    typealias L2 = Pair<L1>
    typealias L3 = Level<L2>
    typealias L4 = Pair<L3>
    typealias L5 = Level<L4>
    typealias L6 = Pair<L5>

    static func nest(_ i: Int) -> L6 {
        let l2 = L2(label: "2", inner: L1(depth: 1, inner: i), count: 2)
        let l4 = L4(label: "4", inner: L3(depth: 3, inner: l2), count: i)
        return L6(label: "6", inner: L5(depth: 5, inner: l4), count: 6)
    }

    @Test("Six Key types opened in turn, again and again, in two decodes")
    func keyTypesInTurn() throws {
        let values = (0..<12).map(Self.nest)
        let data = try ArchiveEncoder().encode(values)
        let decoder = ArchiveDecoder()
        #expect(try decoder.decode([L6].self, from: data) == values)
        let level2 = values.map(\.inner.inner.inner.inner)
        #expect(try decoder.decode([L2].self, from: try ArchiveEncoder().encode(level2)) == level2)
        #expect(try decoder.decode([L6].self, from: data) == values)
    }

    @Test("Types whose slots collide: each finds its own cache or none, never another's")
    func collidingSlots() {
        // Addresses that share a slot (and one for the slot after it).
        let first = UInt(0x1000)
        let sharing = (1...20_000).lazy.map { first &+ UInt($0) &* 8 }.filter { RecentKeyRefCaches.slot(of: $0) == RecentKeyRefCaches.slot(of: first) }
        let next = (1...20_000).lazy.map { first &+ UInt($0) &* 8 }.first { RecentKeyRefCaches.slot(of: $0) == (RecentKeyRefCaches.slot(of: first) + 1) & RecentKeyRefCaches.mask }
        let colliding = Array(sharing.prefix(2))
        guard colliding.count == 2, let next else {
            Issue.record("no colliding addresses found")
            return
        }
        let recent = RecentKeyRefCaches()
        let caches = (0..<4).map { _ in KeyRefCache() }
        #expect(recent.cache(for: first) == nil)
        recent.remember(caches[0], for: first)
        recent.remember(caches[1], for: colliding[0])
        #expect(recent.cache(for: first) === caches[0])
        #expect(recent.cache(for: colliding[0]) === caches[1])
        // Both slots taken: the third type takes the first slot's place.
        recent.remember(caches[2], for: colliding[1])
        #expect(recent.cache(for: colliding[1]) === caches[2])
        #expect(recent.cache(for: first) == nil)
        #expect(recent.cache(for: colliding[0]) === caches[1])
        // A type whose own slot is the one after.
        #expect(recent.cache(for: next) == nil)
        recent.remember(caches[3], for: next)
        #expect(recent.cache(for: next) === caches[3])
        #expect(recent.cache(for: colliding[1]) === caches[2])
    }

    /// Two Key types whose objects alternate, each object with keys in its own order.
    enum Either: Codable, Equatable {
        case person(Person)
        case pair(Pair<Int>)
    }

    @Test("Two Key types alternating, each with keys that move")
    func alternatingKeyTypes() throws {
        var values: [Either] = []
        for i in 0..<30 {
            values.append(i % 3 == 0 ? .pair(Pair(label: "p\(i)", inner: i, count: -i)) : .person(Person(name: "n\(i)", age: i % 2 == 0 ? nil : i)))
        }
        let data = try ArchiveEncoder().encode(values)
        #expect(try ArchiveDecoder().decode([Either].self, from: data) == values)
        // Hand-built: the same Key type with its keys in two orders, archived separately.
        let shapes = [KeyedObjectMemoTests.person("a", 1), Shape(keys: ["age", "name"], values: ["2", "b"]), KeyedObjectMemoTests.person("c")]
        let people = try ArchiveDecoder().decode([Person].self, from: KeyedObjectMemoTests.archive(shapes, separateKeys: true))
        #expect(people == [Person(name: "a", age: 1), Person(name: "b", age: 2), Person(name: "c")])
    }

    /// Decodes another archive of `Person`s (keys in another order) in the middle of its
    /// own fields: one Key type in two decodes at once.
    struct Interleaved: Decodable, Equatable {
        var name: String
        var inner: [Person]
        var age: Int?
        init(name: String, inner: [Person], age: Int?) {
            self.name = name
            self.inner = inner
            self.age = age
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Person.CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            let shapes = [Shape(keys: ["age", "name"], values: ["7", "x"]), Shape(keys: ["extra", "name"], values: ["q", "y"])]
            inner = try ArchiveDecoder().decode([Person].self, from: KeyedObjectMemoTests.archive(shapes))
            age = try container.decodeIfPresent(Int.self, forKey: .age)
        }
    }

    @Test("One Key type in two decodes at once")
    func oneKeyTypeTwoDecodes() throws {
        let shapes = [KeyedObjectMemoTests.person("a", 1), KeyedObjectMemoTests.person("b"), KeyedObjectMemoTests.person("c", 3)]
        let decoded = try ArchiveDecoder().decode([Interleaved].self, from: KeyedObjectMemoTests.archive(shapes))
        let inner = [Person(name: "x", age: 7), Person(name: "y")]
        #expect(decoded == [Interleaved(name: "a", inner: inner, age: 1), Interleaved(name: "b", inner: inner, age: nil),
                            Interleaved(name: "c", inner: inner, age: 3)])
    }

    @Test("What one decode remembered is not used by the next", arguments: [false, true])
    func nothingKeptAcrossArchives(separateKeys: Bool) throws {
        // Same sizes and offsets; the second archive's objects repeat a key.
        let clean = KeyedObjectMemoTests.archive([Shape(keys: ["name", "age"], values: ["aa", "1"]),
                                                  Shape(keys: ["name", "age"], values: ["bb", "2"])], separateKeys: separateKeys)
        let repeated = KeyedObjectMemoTests.archive([Shape(keys: ["name", "name"], values: ["cc", "dd"]),
                                                     Shape(keys: ["name", "name"], values: ["ee", "ff"])], separateKeys: separateKeys)
        let decoder = ArchiveDecoder()
        typealias Lister = KeyedObjectMemoTests.KeyLister
        for _ in 0..<2 {
            #expect(try decoder.decode([Lister].self, from: clean) == [Lister(keys: ["name", "age"], name: "aa"), Lister(keys: ["name", "age"], name: "bb")])
            #expect(try decoder.decode([Lister].self, from: repeated) == [Lister(keys: ["name"], name: "cc"), Lister(keys: ["name"], name: "ee")])
            #expect(try decoder.decode([Person].self, from: clean) == [Person(name: "aa", age: 1), Person(name: "bb", age: 2)])
        }
    }
}
