import Foundation
import KeyedArchive

// Typed decoding of a realistic model. Rule: if decoding succeeds, encoding the result and
// decoding again gives an equal value.

struct Dog: Codable, Equatable {
    var name: String
    var breed: String?
}

final class Tag: Codable, Equatable {
    var label: String
    var weight: Double
    static func == (a: Tag, b: Tag) -> Bool { a.label == b.label && (a.weight == b.weight || (a.weight.isNaN && b.weight.isNaN)) }
}

enum Status: Codable, Equatable {
    case active(since: Date)
    case suspended(reason: String, days: Int)
    case closed
}

struct Person: Codable, Equatable {
    var name: String
    var age: Int
    var height: Float?
    var tags: [Tag]
    var dogs: [String: Dog]
    var ids: Set<UUID>
    var home: URL?
    var balance: Decimal?
    var photo: Data?
    var status: Status
    var friends: [Person]?

    static func == (a: Person, b: Person) -> Bool {
        a.name == b.name && a.age == b.age && (a.height == b.height || (a.height?.isNaN == true && b.height?.isNaN == true))
            && a.tags == b.tags && a.dogs == b.dogs && a.ids == b.ids && a.home == b.home
            && a.balance == b.balance && a.photo == b.photo && a.status == b.status && a.friends == b.friends
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let decoder = ArchiveDecoder()
    guard let person = try? decoder.decode(Person.self, from: data) else { return 0 }
    guard let encoded = try? ArchiveEncoder().encode(person) else {
        fatalError("a decoded value failed to encode")
    }
    guard let again = try? decoder.decode(Person.self, from: encoded) else {
        fatalError("re-encoded value failed to decode")
    }
    if again != person { fatalError("decode → encode → decode changed the value") }
    return 0
}
