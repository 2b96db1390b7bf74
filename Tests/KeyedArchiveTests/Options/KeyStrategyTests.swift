import Foundation
import Testing
@testable import KeyedArchive

/// Key strategies, checked against JSONEncoder/JSONDecoder on this machine (the same names
/// must give the same keys) and against Foundation's unarchiver (it finds the converted keys).
@Suite("Options: key strategies")
struct KeyStrategyTests {
    /// Names whose snake-case form JSONEncoder decides; ours must agree on every one.
    static let camelNames = [
        "myURLProperty", "_leading", "already_snake", "HTTPHeader", "a1B2", "URL", "aURL", "aBCd",
        "ABCdef", "myProperty", "x", "A", "", "trailing_", "__both__", "helloWorld_", "snake_Case",
        "camelCase2Go", "éÉtéÉ", "ÀBC", "ÄrgerÖl", "İstanbulCity", "ǅungla", "日本Word", "Σigma",
        "straßeGross", "e\u{301}Tag", "ABe\u{301}c", "🙂Face", "number1Two",
    ]

    /// Stored snake-case names whose camel-case form JSONDecoder decides.
    static let snakeNames = [
        "my_url_property", "_leading", "already_snake", "http_header", "a1_b2", "trailing_", "__both__",
        "a__b", "my_URL", "myURL", "Hello_world", "hello_World", "hello_wORLD", "x_2go", "_", "___",
        "über_straße", "i̇stanbul_city", "日本_word", "a_b_c",
    ]

    @Test("convertToSnakeCase gives JSONEncoder's key", arguments: camelNames)
    func snakeCaseMatchesJSONEncoder(name: String) throws {
        let json = JSONEncoder()
        json.keyEncodingStrategy = .convertToSnakeCase
        let object = try JSONSerialization.jsonObject(with: try json.encode(NamedFields(names: [name]))) as? [String: Any]
        let expected = try #require(object?.keys.first)

        let encoder = ArchiveEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let stored = try ArchiveDecoder().decode(NamedFields.self, from: try encoder.encode(NamedFields(names: [name])))
        #expect(stored.names == [expected])
        #expect(SnakeCase.fromCamelCase(name) == expected)
    }

    @Test("convertFromSnakeCase matches what JSONDecoder matches", arguments: snakeNames)
    func camelCaseMatchesJSONDecoder(stored: String) throws {
        let json = JSONDecoder()
        json.keyDecodingStrategy = .convertFromSnakeCase
        let text = try JSONSerialization.data(withJSONObject: [stored: 0])
        let expected = try json.decode(NamedFields.self, from: text).names

        let decoder = ArchiveDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let archive = try ArchiveEncoder().encode(NamedFields(names: [stored]))
        #expect(try decoder.decode(NamedFields.self, from: archive).names == expected)
        #expect([SnakeCase.toCamelCase(stored)] == expected)
    }

    struct Inner: Codable, Equatable { var someField: Int }
    struct Outer: Codable, Equatable {
        var myURLProperty: Int
        var innerValue: Inner
        var innerList: [Inner]
        var innerByName: [String: Inner]
        var maybeInner: Inner?
    }

    static let outer = Outer(myURLProperty: 1, innerValue: Inner(someField: 2), innerList: [Inner(someField: 3)],
                             innerByName: ["keepThisKey": Inner(someField: 4)], maybeInner: Inner(someField: 5))

    @Test("snake case applies at every depth, as JSONEncoder does (dictionary keys kept)")
    func everyDepthMatchesJSON() throws {
        let json = JSONEncoder()
        json.keyEncodingStrategy = .convertToSnakeCase
        let expected = KeyTree(json: try JSONSerialization.jsonObject(with: try json.encode(Self.outer)))

        let encoder = ArchiveEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let ours = try ArchiveDecoder().decode(KeyTree.self, from: try encoder.encode(Self.outer))
        #expect(ours == expected, "ours \(ours), JSON \(expected)")
        #expect(ours.description.contains("keepThisKey") && ours.description.contains("inner_by_name"))
    }

    @Test("round trip through both strategies fails and succeeds exactly where JSON's does")
    func roundTripParity() throws {
        struct Plain: Codable, Equatable { var innerValue: Int; var someField: String }
        struct Acronym: Codable, Equatable { var myURLProperty: Int }
        func json<T: Codable & Equatable>(_ value: T) -> Bool {
            let e = JSONEncoder(); e.keyEncodingStrategy = .convertToSnakeCase
            let d = JSONDecoder(); d.keyDecodingStrategy = .convertFromSnakeCase
            return (try? d.decode(T.self, from: e.encode(value))) == value
        }
        func ours<T: Codable & Equatable>(_ value: T) -> Bool {
            let e = ArchiveEncoder(); e.keyEncodingStrategy = .convertToSnakeCase
            let d = ArchiveDecoder(); d.keyDecodingStrategy = .convertFromSnakeCase
            return (try? d.decode(T.self, from: e.encode(value))) == value
        }
        let plain = Plain(innerValue: 1, someField: "a")
        let acronym = Acronym(myURLProperty: 2)
        #expect(json(plain) && ours(plain))
        #expect(!json(acronym) && !ours(acronym))   // my_url_property reads back as myUrlProperty
        #expect(json(Self.outer) == ours(Self.outer))
    }

    @Test("Foundation's unarchiver finds the snake-case keys; Foundation layouts keep theirs")
    func foundationReadsConvertedKeys() throws {
        struct Fields: Encodable {
            var myURLProperty = 1
            var _leading = 2
            var already_snake = 3
            var HTTPHeader = 4
            var a1B2 = 5
            var when = Date(timeIntervalSinceReferenceDate: 7)
            var values = [1, 2]
        }
        let encoder = ArchiveEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.setClassName("Probe", for: Fields.self)
        let fields = try foundationFields(of: Fields(), encoder: encoder)
        #expect(fields["my_url_property"] as? Int == 1)
        #expect(fields["_leading"] as? Int == 2)
        #expect(fields["already_snake"] as? Int == 3)
        #expect(fields["h_ttp_header"] as? Int == 4)
        #expect(fields["a1_b2"] as? Int == 5)
        #expect(fields["myURLProperty"] == nil && fields["HTTPHeader"] == nil)
        // NSDate's NS.time and NSArray's NS.objects are not converted, or Foundation could not read them.
        #expect((fields["when"] as? Date)?.timeIntervalSinceReferenceDate == 7)
        #expect(fields["values"] as? [Int] == [1, 2])
    }

    @Test("nested containers, superEncoder(forKey:) and encode(topLevel:) convert coding keys only")
    func containersAndTopLevel() throws {
        struct Manual: Codable, Equatable {
            var someField: Int
            enum Keys: String, CodingKey { case outerKey, nestedKey, superKey }
            init(someField: Int) { self.someField = someField }
            func encode(to encoder: any Encoder) throws {
                var fields = encoder.container(keyedBy: Keys.self)
                var nested = fields.nestedContainer(keyedBy: Keys.self, forKey: .outerKey)
                try nested.encode(someField, forKey: .nestedKey)
                try Inner(someField: someField).encode(to: fields.superEncoder(forKey: .superKey))
            }
            init(from decoder: any Decoder) throws {
                let fields = try decoder.container(keyedBy: Keys.self)
                let nested = try fields.nestedContainer(keyedBy: Keys.self, forKey: .outerKey)
                someField = try nested.decode(Int.self, forKey: .nestedKey)
                #expect(try Inner(from: fields.superDecoder(forKey: .superKey)).someField == someField)
            }
        }
        let json = JSONEncoder()
        json.keyEncodingStrategy = .convertToSnakeCase
        let expected = KeyTree(json: try JSONSerialization.jsonObject(with: try json.encode(Manual(someField: 3))))

        let encoder = ArchiveEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(topLevel: ["firstValue": Manual(someField: 3), "secondValue": Inner(someField: 4)])
        #expect(try ArchiveDecoder().topLevelKeys(in: data) == ["firstValue", "secondValue"])
        #expect(try ArchiveDecoder().decode(KeyTree.self, forKey: "firstValue", from: data) == expected)

        let decoder = ArchiveDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(Manual.self, forKey: "firstValue", from: data) == Manual(someField: 3))
        #expect(try decoder.decode(Inner.self, forKey: "secondValue", from: data) == Inner(someField: 4))
    }

    @Test("custom key strategies get the coding path ending with the key, as in JSONEncoder")
    func customStrategies() throws {
        let upper: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            NameKey(path.map(\.stringValue).joined(separator: ".").uppercased())
        }
        // Outside dictionaries the paths are JSONEncoder's exactly.
        var noDictionary = Self.outer
        noDictionary.innerByName = [:]
        let json = JSONEncoder()
        json.keyEncodingStrategy = .custom(upper)
        let expected = KeyTree(json: try JSONSerialization.jsonObject(with: try json.encode(noDictionary)))
        let encoder = ArchiveEncoder()
        encoder.keyEncodingStrategy = .custom(upper)
        let ours = try ArchiveDecoder().decode(KeyTree.self, from: try encoder.encode(noDictionary))
        #expect(ours == expected, "ours \(ours), JSON \(expected)")

        // Inside a dictionary value the path includes the dictionary's own key, as the
        // value's `encoder.codingPath` does (swift-foundation's JSONEncoder leaves it out).
        let data = try encoder.encode(Self.outer)
        let withDictionary = try ArchiveDecoder().decode(KeyTree.self, from: data)
        #expect(withDictionary.description.contains("{keepThisKey: {INNERBYNAME.KEEPTHISKEY.SOMEFIELD: .}}"))

        // Decoding: the closure maps each stored key to the coding key it answers to.
        let decoder = ArchiveDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let last = path.last?.stringValue ?? ""
            let name = last.split(separator: ".").last.map(String.init) ?? last
            return NameKey(["MYURLPROPERTY": "myURLProperty", "INNERVALUE": "innerValue", "SOMEFIELD": "someField",
                            "INNERLIST": "innerList", "INNERBYNAME": "innerByName", "MAYBEINNER": "maybeInner"][name] ?? name)
        }
        #expect(try decoder.decode(Outer.self, from: data) == Self.outer)
    }

    @Test("converted keys of an object with many fields are looked up in linear time")
    func manyKeys() throws {
        let names = (0..<20_000).map { "field_number_\($0)" }
        let data = try ArchiveEncoder().encode(NamedFields(names: names))
        let decoder = ArchiveDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Lookup: Decodable {
            var sum = 0
            init(from decoder: any Decoder) throws {
                let fields = try decoder.container(keyedBy: NameKey.self)
                for i in stride(from: 0, to: 20_000, by: 1) {
                    sum += try fields.decode(Int.self, forKey: NameKey("fieldNumber\(i)"))
                }
            }
        }
        #expect(try decoder.decode(Lookup.self, from: data).sum == (0..<20_000).reduce(0, +))
    }
}

@Suite("Options: key strategies leave NSCoder-style keys alone")
struct KeyStrategyNSCoderKeysTests {
    @Test("an ArchiveCoding class keeps its hand-written keys under snake case, both directions")
    func archiveCodingKeysKept() throws {
        struct Holder: Codable { var mainAccount: Account }
        let encoder = ArchiveEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(Holder(mainAccount: SavingsAccount(owner: "ada", balance: 7, rate: 0.5)))
        // The struct's own key is converted; the class's NSCoder-style keys are not.
        let tree = try ArchiveDecoder().decode(KeyTree.self, from: data)
        #expect(tree == .keyed(["main_account": .keyed(["owner": .leaf, "balance": .leaf, "rate": .leaf])]), "\(tree)")
        let decoder = ArchiveDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let back = try decoder.decode(Holder.self, from: data)
        #expect(back.mainAccount.owner == "ada" && back.mainAccount.balance == 7)
    }
}
