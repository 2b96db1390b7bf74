import Foundation
import Testing
@testable import KeyedArchive

/// A Key type remembers where each of its keys sat among the last object's keys, and which
/// key string it was (`KeyRefCache`): the next object of that type is read at the same
/// position when the same key string is there. Every other case must fall back to the
/// search and read what it always read: keys that moved, key strings that are not shared,
/// keys read in another order, a nested object of the same type, `$` keys, key conversion,
/// objects too large to scan.
@Suite("Fields found where the last object of their Key type had them")
struct KeyedFieldPositionTests {
    typealias Shape = KeyedObjectMemoTests.Shape
    typealias Person = KeyedObjectMemoTests.Person

    @Test("Keys that move between objects of one Key type, shared key strings or not", arguments: [false, true])
    func movingKeys(separateKeys: Bool) throws {
        let layouts: [(Person, Shape)] = [
            (Person(name: "a", age: 1), Shape(keys: ["name", "age"], values: ["a", "1"])),
            (Person(name: "b", age: 2), Shape(keys: ["age", "name"], values: ["2", "b"])),
            (Person(name: "c"), Shape(keys: ["name"], values: ["c"])),
            (Person(name: "d", age: 4), Shape(keys: ["other", "age", "name"], values: ["x", "4", "d"])),
            (Person(name: "e"), Shape(keys: ["age2", "name"], values: ["y", "e"])),
        ]
        // Each layout after each other one, and after itself.
        let order = [0, 0, 1, 1, 0, 2, 0, 3, 3, 1, 4, 0, 4, 4, 2, 2, 3, 0]
        let data = KeyedObjectMemoTests.archive(order.map { layouts[$0].1 }, separateKeys: separateKeys)
        #expect(try ArchiveDecoder().decode([Person].self, from: data) == order.map { layouts[$0].0 })
    }

    /// Reads `name` and `age` in the order its archived `first` field says, then `last`.
    struct OrderedReader: Decodable, Equatable {
        var name: String
        var age: Int
        init(name: String, age: Int) {
            self.name = name
            self.age = age
        }
        enum CodingKeys: String, CodingKey { case name, age }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Names ending in "!" read age first.
            if try container.decode(String.self, forKey: .name).hasSuffix("!") {
                age = try container.decode(Int.self, forKey: .age)
                name = try container.decode(String.self, forKey: .name)
            } else {
                name = try container.decode(String.self, forKey: .name)
                age = try container.decode(Int.self, forKey: .age)
            }
        }
    }

    @Test("Keys asked for in another order than last time")
    func otherRequestOrder() throws {
        let shapes = [Shape(keys: ["name", "age"], values: ["a", "1"]), Shape(keys: ["name", "age"], values: ["b!", "2"]),
                      Shape(keys: ["age", "name"], values: ["3", "c!"]), Shape(keys: ["age", "name"], values: ["4", "d"]),
                      Shape(keys: ["name", "age"], values: ["e", "5"])]
        let decoded = try ArchiveDecoder().decode([OrderedReader].self, from: KeyedObjectMemoTests.archive(shapes))
        #expect(decoded == [OrderedReader(name: "a", age: 1), OrderedReader(name: "b!", age: 2), OrderedReader(name: "c!", age: 3),
                            OrderedReader(name: "d", age: 4), OrderedReader(name: "e", age: 5)])
    }

    /// A value that holds one of its own type between two other fields: the nested object
    /// starts its Key type's lookups over while the outer one is half read.
    final class Node: Codable, Equatable {
        let head: String
        let child: Node?
        let tail: Int
        init(head: String, child: Node?, tail: Int) {
            self.head = head
            self.child = child
            self.tail = tail
        }
        static func == (a: Node, b: Node) -> Bool { a.head == b.head && a.child == b.child && a.tail == b.tail }
    }

    @Test("An object of the same Key type nested between two fields")
    func nestedSameType() throws {
        var node: Node? = nil
        for i in 0..<12 { node = Node(head: "h\(i)", child: i % 4 == 3 ? nil : node, tail: i) }
        let values = [node, Node(head: "x", child: node, tail: 99), nil, node]
        #expect(try ArchiveDecoder().decode([Node?].self, from: try ArchiveEncoder().encode(values)) == values)
    }

    struct Dollars: Decodable, Equatable {
        var plain: String
        var dollar: String?
        enum CodingKeys: String, CodingKey {
            case plain
            case dollar = "$x"
        }
    }

    @Test("`$` keys: the escaped form first, the plain one from other writers, whatever the last object had")
    func dollarKeys() throws {
        let shapes = [
            Shape(keys: ["plain", "$x"], values: ["1", "unescaped 1"]),
            Shape(keys: ["plain", "$$x", "$x"], values: ["2", "escaped 2", "unescaped 2"]),
            Shape(keys: ["plain", "$x"], values: ["3", "unescaped 3"]),
            Shape(keys: ["plain", "$x", "$$x"], values: ["4", "unescaped 4", "escaped 4"]),
            Shape(keys: ["plain", "$$x"], values: ["5", "escaped 5"]),
            Shape(keys: ["plain"], values: ["6"]),
        ]
        let decoded = try ArchiveDecoder().decode([Dollars].self, from: KeyedObjectMemoTests.archive(shapes))
        #expect(decoded == [Dollars(plain: "1", dollar: "unescaped 1"), Dollars(plain: "2", dollar: "escaped 2"),
                            Dollars(plain: "3", dollar: "unescaped 3"), Dollars(plain: "4", dollar: "escaped 4"),
                            Dollars(plain: "5", dollar: "escaped 5"), Dollars(plain: "6", dollar: nil)])
    }

    struct Snake: Codable, Equatable {
        var firstName: String
        var age: Int?
    }

    @Test("Converted keys: every object through the strategy, never a remembered position")
    func convertedKeys() throws {
        let people = (0..<10).map { Snake(firstName: "n\($0)", age: $0 % 3 == 0 ? nil : $0) }
        let encoder = ArchiveEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(people)
        let decoder = ArchiveDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode([Snake].self, from: data) == people)
        // Without the strategy the converted names are not there.
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([Snake].self, from: data) }
    }

    /// Twenty string fields `k0`…`k19`: more keys than an object is scanned for.
    struct Wide: Decodable, Equatable {
        var values: [String]
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        static let names = (0..<20).map { Key(stringValue: "k\($0)") }
        init(values: [String]) { self.values = values }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            values = try Self.names.map { try container.decode(String.self, forKey: $0) }
        }
    }

    @Test("Objects with more keys than are scanned, in shifting orders", arguments: [false, true])
    func largeObjects(separateKeys: Bool) throws {
        let keys = (0..<20).map { "k\($0)" }
        var shapes: [Shape] = []
        var expected: [Wide] = []
        for i in 0..<6 {
            // Rotated by 0, 0, 3, 3, 6, 6: every other object keeps the last one's positions.
            let shift = i / 2 * 3
            let order = Array(keys[shift...] + keys[..<shift])
            shapes.append(Shape(keys: order, values: order.map { "\($0)-\(i)" }))
            expected.append(Wide(values: keys.map { "\($0)-\(i)" }))
        }
        let data = KeyedObjectMemoTests.archive(shapes, separateKeys: separateKeys)
        #expect(try ArchiveDecoder().decode([Wide].self, from: data) == expected)
    }

    @Test("A missing key after objects that had it: keyNotFound names the object and its keys")
    func missingAfterKnown() throws {
        let shapes = [Shape(keys: ["name", "age"], values: ["a", "1"]), Shape(keys: ["name", "age"], values: ["b", "2"]),
                      Shape(keys: ["nome", "age"], values: ["c", "3"])]
        #expect {
            try ArchiveDecoder().decode([Person].self, from: KeyedObjectMemoTests.archive(shapes))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
            return key.stringValue == "name" && context.codingPath.map(\.stringValue) == ["Index 2"]
                && context.debugDescription.contains("its keys: nome, age")
        }
    }
}
