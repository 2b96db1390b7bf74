import Foundation
import Testing
@testable import KeyedArchive

/// Issue 11 items 4–5 and 9, issue 17 items 2–5: class-aware layouts, NSCountedSet, strict
/// storage, and errors that say what was found and where.
@Suite("Fidelity: class-aware layouts, strict storage, messages")
struct LayoutsAndStorageTests {
    private func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return decodingErrorMessage(error) ?? "\(error)"
        }
    }

    @Test("A Foundation layout applies only to its own class: wrong kinds throw typeMismatch naming the class")
    func classAware() throws {
        let zone = foundationArchive(NSTimeZone(name: "Europe/Paris") ?? NSTimeZone.default as NSTimeZone)
        let dataError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Data.self, from: zone) }
        #expect(dataError.map { if case .typeMismatch = $0 { true } else { false } } == true)
        #expect(dataError.flatMap(decodingErrorMessage)?.contains("NSTimeZone") == true)

        let dictionary = foundationArchive(NSDictionary(dictionary: ["a": "x", "b": "y"]))
        let arrayError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String].self, from: dictionary) }
        #expect(arrayError.flatMap(decodingErrorMessage)?.contains("NSDictionary") == true)
        #expect(try ArchiveDecoder().decode([String: String].self, from: dictionary) == ["a": "x", "b": "y"])

        // An object of a class of its own, without elements, is not an empty array.
        struct Thing: Codable { var name: String }
        let thing = try ArchiveEncoder().encode(Thing(name: "t"))
        let emptyError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String].self, from: thing) }
        #expect(emptyError.flatMap(decodingErrorMessage)?.contains("class 'Thing'") == true)
        // And a UUID is not a string.
        let uuid = foundationArchive(NSUUID())
        #expect(message { _ = try ArchiveDecoder().decode(String.self, from: uuid) }.contains("an object of class 'NSUUID'"))
    }

    @Test("NSCountedSet reads as a set or array of its objects, and as [T: Int] with counts")
    func countedSet() throws {
        let set = NSCountedSet(array: [1, 2, 2, 3, 3, 3].map { NSNumber(value: $0) })
        let data = foundationArchive(set)
        #expect(try ArchiveDecoder().decode(Set<Int>.self, from: data) == [1, 2, 3])
        #expect(try ArchiveDecoder().decode([Int].self, from: data).sorted() == [1, 2, 3])
        #expect(try ArchiveDecoder().decode([Int: Int].self, from: data) == [1: 1, 2: 2, 3: 3])
    }

    @Test("Apple's NSCountedSet (macOS) reads with its counts", .requiresCorpus)
    func appleCountedSet() throws {
        let data = try corpusData("apple/macos/NSCountedSet-NumbersAppearingSeveralTimes.archive")
        let counts = try ArchiveDecoder().decode([Int: Int].self, from: data)
        #expect(counts.count == 5)
        #expect(counts.values.allSatisfy { $0 == 5 })
        #expect(Set(try ArchiveDecoder().decode([Int].self, from: data)) == Set(counts.keys))
    }

    @Test("Strict storage: Int never reads a boolean, Bool never reads a number, as JSONDecoder")
    func strictStorage() throws {
        let boolData = try ArchiveEncoder().encode(true)
        let intData = try ArchiveEncoder().encode(1)
        let realData = try ArchiveEncoder().encode(1.0)
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Int.self, from: boolData) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Double.self, from: boolData) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Bool.self, from: intData) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Bool.self, from: realData) }
        #expect(try ArchiveDecoder().decode(Int.self, from: realData) == 1)  // an exact real reads as an integer
        #expect(message { _ = try ArchiveDecoder().decode(Bool.self, from: intData) }.contains("integer 1"))
        #expect(message { _ = try ArchiveDecoder().decode(Int.self, from: boolData) }.contains("boolean true"))

        // The same in JSON, the behaviour this mirrors.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Bool.self, from: Data("1".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Int.self, from: Data("true".utf8)) }

        // The opt-in for swift-corelibs-foundation archives.
        let lenient = ArchiveDecoder()
        lenient.booleanDecodingStrategy = .numbersAreBooleans
        #expect(try lenient.decode(Int.self, from: boolData) == 1)
        #expect(try lenient.decode(Bool.self, from: intData) == true)
    }

    @Test("A probing enum that tries Bool before Int keeps integers as integers, through a round trip")
    func probingEnum() throws {
        let values: [ScalarProbe] = [.int(0), .int(1), .bool(true), .int(7), .string("s"), .double(0.5)]
        let data = try ArchiveEncoder().encode(values)
        let decoded = try ArchiveDecoder().decode([ScalarProbe].self, from: data)
        #expect(decoded == values)
        #expect(try ArchiveDecoder().decode([ScalarProbe].self, from: try ArchiveEncoder().encode(decoded)) == values)
    }

    @Test("Errors: the path reads lines[1].qty, dictionary values are located by key, no doubled periods")
    func paths() throws {
        struct Line: Codable { var qty: Int }
        struct Order: Codable { var lines: [Line] }
        struct BadLine: Codable { var qty: String }
        struct BadOrder: Codable { var lines: [BadLine] }
        let data = try ArchiveEncoder().encode(BadOrder(lines: [BadLine(qty: "1"), BadLine(qty: "x")]))
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Order.self, from: data) }
        let text = error.flatMap(decodingErrorMessage) ?? ""
        #expect(text.contains("lines[0].qty"))
        #expect(!text.contains(".."))
        #expect(!text.contains("Index "))

        let dictionary = try ArchiveEncoder().encode(["a": "1", "b": "x"])
        let dictError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String: Int].self, from: dictionary) }
        guard case .typeMismatch(_, let context)? = dictError else { Issue.record("not a typeMismatch"); return }
        #expect(["a", "b"].contains(context.codingPath.last?.stringValue))
        #expect(!context.debugDescription.contains(".."))
    }

    @Test("Errors deep in a value: codingPath holds every key, the message shows the last 8 after …, numbers are exact")
    func deepPaths() throws {
        // 30 levels of arrays around one string, read as Int at the bottom.
        indirect enum Tower: Encodable {
            case leaf(String), level(Tower)
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                switch self {
                case .leaf(let text): try container.encode(text)
                case .level(let inner): try container.encode(inner)
                }
            }
        }
        var value = Tower.leaf("x")
        for _ in 0..<29 { value = .level(value) }
        struct Nested: Decodable {
            let depth: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                if decoder.codingPath.count < 29 {
                    depth = try container.decode(Nested.self).depth + 1
                } else {
                    depth = try container.decode(Int.self)
                }
            }
        }
        let data = try ArchiveEncoder().encode(value)
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Nested.self, from: data) }
        guard case .typeMismatch(_, let context)? = error else { Issue.record("not a typeMismatch: \(String(describing: error))"); return }
        #expect(context.codingPath.count == 30)
        #expect(context.codingPath.allSatisfy { $0.intValue == 0 })
        let text = context.debugDescription
        #expect(text.contains("path '…[0][0][0][0][0][0][0][0]'"), "\(text)")
        #expect(text.hasPrefix("Expected Int but found a string at object "), "\(text)")
        // The object number in the message is the one that holds the string.
        let number = text.split(separator: " ").dropFirst(8).first.map { String($0.dropLast()) }
        #expect(number.flatMap(Int.init).map { $0 > 0 } == true, "\(text)")

        // Within 8 keys the whole path is shown, without …
        let shallow = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([[Int]].self, from: try ArchiveEncoder().encode([["1"], ["2"]])) }
        let shallowText = shallow.flatMap(decodingErrorMessage) ?? ""
        #expect(shallowText.contains("path '[0][0]'"), "\(shallowText)")
        #expect(!shallowText.contains("…"))
    }

    @Test("keyNotFound lists the object's keys and points out a match that differs by case")
    func keyNotFoundListsKeys() throws {
        struct Info: Codable { var userinfo: String; var name: String }
        struct Wanted: Codable {
            var userInfo: String
        }
        let data = try ArchiveEncoder().encode(Info(userinfo: "u", name: "n"))
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Wanted.self, from: data) }
        let text = error.flatMap(decodingErrorMessage) ?? ""
        #expect(text.contains("its keys: userinfo, name"))
        #expect(text.contains("did you mean 'userinfo'?"))
    }

    @Test("A truncated binary property list says it is truncated")
    func truncated() throws {
        let data = try ArchiveEncoder().encode(["some", "strings", "here"])
        for cut in [data.count - 1, data.count / 2, 40] {
            let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String].self, from: data.prefix(cut)) }
            #expect(error.flatMap(decodingErrorMessage)?.contains("truncated") == true, "cut at \(cut)")
        }
    }

    @Test("Strict class names hold through Optional, [T?] and decodeIfPresent")
    func strictThroughOptional() throws {
        struct Person: Codable, Equatable { var name: String }
        struct Evil: Codable { var name: String }
        struct Holder: Codable { var person: Person? }
        struct EvilHolder: Codable { var person: Evil? }
        let decoder = ArchiveDecoder()
        decoder.classNameChecking = .strict
        let evil = try ArchiveEncoder().encode(Evil(name: "e"))
        #expect(throws: DecodingError.self) { try decoder.decode(Person?.self, from: evil) }
        #expect(throws: DecodingError.self) { try decoder.decode([Person?].self, from: try ArchiveEncoder().encode([Evil(name: "e")])) }
        #expect(throws: DecodingError.self) { try decoder.decode(Holder.self, from: try ArchiveEncoder().encode(EvilHolder(person: Evil(name: "e")))) }
        #expect(try decoder.decode(Person?.self, from: try ArchiveEncoder().encode(Person(name: "p"))) == Person(name: "p"))
    }
}

/// An AnyCodable-style value that probes with `try?`, Bool first (the common order).
enum ScalarProbe: Codable, Equatable {
    case bool(Bool), int(Int), double(Double), string(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else { self = .string(try container.decode(String.self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}
