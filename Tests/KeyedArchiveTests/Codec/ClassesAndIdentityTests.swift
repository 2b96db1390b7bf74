import Foundation
import Testing
@testable import KeyedArchive

// FORMAT.md §4 (super encoders), §5 (class names) and §6 (identity and graphs).

class Animal: Codable {
    var name: String
    init(name: String) { self.name = name }
    private enum CodingKeys: String, CodingKey { case name }
}

final class Cat: Animal {
    var lives: Int
    init(name: String, lives: Int) {
        self.lives = lives
        super.init(name: name)
    }
    private enum CodingKeys: String, CodingKey { case lives }
    required init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        lives = try c.decode(Int.self, forKey: .lives)
        try super.init(from: c.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lives, forKey: .lives)
        try super.encode(to: c.superEncoder())
    }
}

/// Uses `superEncoder(forKey:)`: the superclass part is a nested object.
final class Lion: Animal {
    var pride: String
    init(name: String, pride: String) {
        self.pride = pride
        super.init(name: name)
    }
    private enum CodingKeys: String, CodingKey { case pride, base }
    required init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pride = try c.decode(String.self, forKey: .pride)
        try super.init(from: c.superDecoder(forKey: .base))
    }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pride, forKey: .pride)
        try super.encode(to: c.superEncoder(forKey: .base))
    }
}

struct LoginSession: Codable, Equatable, ArchivedClass {
    static let archivedClassName = "IHomeSession"
    static let archivedSuperclassNames = ["IHomeBase", "NSObject"]
    var token: String
    var weird: Int
    enum CodingKeys: String, CodingKey { case token, weird = "$weird" }
}

final class Node: Codable {
    var label: String
    var next: Node?
    init(label: String, next: Node? = nil) { self.label = label; self.next = next }
}

struct Pair: Codable { var left: Node; var right: Node }

@Suite("Classes, names and identity")
struct ClassesAndIdentityTests {
    @Test("superEncoder() puts superclass fields in the same object", arguments: PropertyListFormat.allCases)
    func superEncoderSameObject(format: PropertyListFormat) throws {
        let (decoded, _, raw) = try roundTrip(Cat(name: "Tom", lives: 9), format: format)
        #expect(decoded.name == "Tom")
        #expect(decoded.lives == 9)
        #expect(raw.className(of: raw.root) == "Cat")
        #expect(raw.classes(of: raw.root) == ["Cat", "Animal", "NSObject"])
        #expect(raw.resolve(raw.root?["name"]) == .string("Tom"))
        #expect(raw.root?["lives"] == .integer(9))
    }

    @Test("superEncoder(forKey:) nests the superclass part under its key", arguments: PropertyListFormat.allCases)
    func superEncoderForKey(format: PropertyListFormat) throws {
        let (decoded, _, raw) = try roundTrip(Lion(name: "Leo", pride: "North"), format: format)
        #expect(decoded.name == "Leo")
        #expect(decoded.pride == "North")
        let base = raw.resolve(raw.root?["base"])
        #expect(raw.resolve(base?["NS.objects"]) == nil)
        #expect(base != nil)
    }

    @Test("A type can declare its archived class name and superclasses; $ keys are escaped", arguments: PropertyListFormat.allCases)
    func declaredNames(format: PropertyListFormat) throws {
        let value = LoginSession(token: "t0k", weird: 3)
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        #expect(raw.className(of: raw.root) == "IHomeSession")
        #expect(raw.classes(of: raw.root) == ["IHomeSession", "IHomeBase", "NSObject"])
        #expect(raw.root?["$$weird"] == .integer(3))
        #expect(raw.root?["$weird"] == nil)
    }

    @Test("A class instance referenced twice is written once and decodes to one instance", arguments: PropertyListFormat.allCases)
    func sharedInstances(format: PropertyListFormat) throws {
        let shared = Node(label: "shared")
        let (decoded, _, raw) = try roundTrip(Pair(left: shared, right: shared), format: format)
        #expect(decoded.left === decoded.right)
        #expect(decoded.left.label == "shared")
        #expect(raw.root?["left"] == raw.root?["right"])
        #expect(raw.count(ofString: "shared") == 1)
        // Distinct but equal instances stay distinct.
        let (twoDecoded, _, _) = try roundTrip(Pair(left: Node(label: "a"), right: Node(label: "a")), format: format)
        #expect(twoDecoded.left !== twoDecoded.right)
    }

    @Test("Encoding a reference cycle throws EncodingError.invalidValue")
    func encodeCycle() throws {
        let a = Node(label: "a")
        let b = Node(label: "b", next: a)
        a.next = b
        #expect {
            _ = try ArchiveEncoder().encode(a)
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.debugDescription.contains("cycle") && context.codingPath.count == 2
        }
        a.next = nil  // break the cycle so the nodes can be freed
    }

    @Test("Several values under their own $top keys share one object table", arguments: PropertyListFormat.allCases)
    func severalTopLevelKeys(format: PropertyListFormat) throws {
        let shared = Node(label: "both")
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let data = try encoder.encode(topLevel: ["personOne": Pair(left: shared, right: Node(label: "x")), "personTwo": shared])
        let decoder = ArchiveDecoder()
        #expect(try decoder.topLevelKeys(in: data) == ["personOne", "personTwo"])
        let one = try decoder.decode(Pair.self, forKey: "personOne", from: data)
        let two = try decoder.decode(Node.self, forKey: "personTwo", from: data)
        #expect(one.left.label == "both")
        #expect(two.label == "both")
        let raw = try RawArchive(data)
        #expect(raw.count(ofString: "both") == 1)
        #expect(throws: DecodingError.self) { try decoder.decode(Node.self, from: data) }  // no "root"
    }
}
