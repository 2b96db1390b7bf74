import Foundation
import KeyedArchive
import Testing

/// ``ArchiveDecoder/archive(from:)``: several top-level values decoded from one object
/// table, so a class instance shared between them stays one instance.
@Suite("Codec: several top-level values from one archive")
struct DecodableArchiveTests {
    final class Dog: Codable { var name: String; init(name: String) { self.name = name } }
    struct Person: Codable { var name: String; var dog: Dog }

    static func twoPeople(format: PropertyListFormat = .binary) throws -> Data {
        let dog = Dog(name: "Rex")
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        return try encoder.encode(topLevel: ["personOne": Person(name: "Ada", dog: dog),
                                             "personTwo": Person(name: "Grace", dog: dog)])
    }

    @Test("a class shared by two keys decodes to one instance", arguments: PropertyListFormat.allCases)
    func sharedInstance(format: PropertyListFormat) throws {
        let archive = try ArchiveDecoder().archive(from: try Self.twoPeople(format: format))
        #expect(archive.topLevelKeys == ["personOne", "personTwo"])
        let one = try archive.decode(Person.self, forKey: "personOne")
        let two = try archive.decode(Person.self, forKey: "personTwo")
        #expect(one.name == "Ada")
        #expect(two.name == "Grace")
        #expect(one.dog === two.dog)
        #expect(one.dog.name == "Rex")
        // Asking again gives the same instance again.
        #expect(try archive.decode(Person.self, forKey: "personOne").dog === one.dog)
    }

    @Test("decoding each key from the data separately gives two instances")
    func separateDecodes() throws {
        let data = try Self.twoPeople()
        let one = try ArchiveDecoder().decode(Person.self, forKey: "personOne", from: data)
        let two = try ArchiveDecoder().decode(Person.self, forKey: "personTwo", from: data)
        #expect(one.dog !== two.dog)
    }

    @Test("two archives of the same data do not share instances")
    func archivesAreSeparate() throws {
        let data = try Self.twoPeople()
        let first = try ArchiveDecoder().archive(from: data).decode(Person.self, forKey: "personOne")
        let second = try ArchiveDecoder().archive(from: data).decode(Person.self, forKey: "personTwo")
        #expect(first.dog !== second.dog)
    }

    @Test("data that is not an archive is refused at once; a missing key names the keys")
    func errors() throws {
        #expect(throws: DecodingError.self) { try ArchiveDecoder().archive(from: Data("hello".utf8)) }
        let archive = try ArchiveDecoder().archive(from: try Self.twoPeople())
        do {
            _ = try archive.decode(Person.self, forKey: "personThree")
            Issue.record("decoded a missing key")
        } catch {
            #expect(KeyedArchiveError.message(of: error) == "The archive has no top-level key 'personThree' (its $top keys: 'personOne', 'personTwo')")
        }
        // A failed call leaves the archive usable.
        #expect(try archive.decode(Person.self, forKey: "personTwo").name == "Grace")
    }

    @Test("the root value, as decode(_:from:) reads it")
    func root() throws {
        let dog = Dog(name: "Rex")
        let data = try ArchiveEncoder().encode([Person(name: "Ada", dog: dog), Person(name: "Grace", dog: dog)])
        let people = try ArchiveDecoder().archive(from: data).decode([Person].self)
        #expect(people.count == 2)
        #expect(people[0].dog === people[1].dog)
    }
}
