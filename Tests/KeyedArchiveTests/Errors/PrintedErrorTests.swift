import Foundation
import KeyedArchive
import Testing

/// What a user who prints a decoding error sees, for each family of failure: the
/// `DecodingError`'s own `localizedDescription` is Foundation's generic text, `"\(error)"`
/// shows the package's message (in the debug description, and again as the underlying
/// error), and the underlying error — a `KeyedArchiveError`, a `LocalizedError` — has the
/// message as its `localizedDescription`, which ``KeyedArchiveError/message(of:)`` returns.
@Suite("Errors: what a user printing a DecodingError sees")
struct PrintedErrorTests {
    struct Person: Codable { var name: String; var age: Int }
    struct Wrong: Codable { var name: Int }

    /// Each family of failure: the bytes, the read, and the start of the package's message.
    static func family(_ name: String) throws -> (data: Data, decode: (Data) throws -> Void, message: String) {
        let decodePerson: (Data) throws -> Void = { _ = try ArchiveDecoder().decode(Person.self, from: $0) }
        let good = try ArchiveEncoder().encode(Person(name: "Ada", age: 36))
        switch name {
        case "JPEG":
            return (Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8)), decodePerson,
                    "The data is not a property list (it looks like a JPEG image)")
        case "JSON":
            return (Data(#"{"name": "Ada", "age": 36}"#.utf8), decodePerson, "The data is not a property list (it looks like JSON)")
        case "plain property list":
            let plain = try PropertyListSerialization.data(fromPropertyList: ["name": "Ada"], format: .xml, options: 0)
            return (plain, decodePerson, "The data is a plain property list, not a keyed archive")
        case "truncated archive":
            return (good.prefix(good.count / 2), decodePerson, "The data is not a valid keyed archive: invalid property list: ")
        case "wrong type":
            return (good, { _ = try ArchiveDecoder().decode(Wrong.self, from: $0) }, "Expected Int but found a string at ")
        case "missing top-level key":
            let two = try ArchiveEncoder().encode(["personOne": Person(name: "Ada", age: 36)])
            return (two, { _ = try ArchiveDecoder().decode(Person.self, forKey: "personThree", from: $0) },
                    "The archive has no top-level key 'personThree' (its $top keys: 'root')")
        case "missing field":
            struct More: Codable { var name: String; var email: String }
            return (good, { _ = try ArchiveDecoder().decode(More.self, from: $0) }, "No value for key 'email' in object 1")
        default:
            throw CancellationError()
        }
    }

    @Test("each family", arguments: ["JPEG", "JSON", "plain property list", "truncated archive", "wrong type",
                                     "missing top-level key", "missing field"])
    func printed(name: String) throws {
        let family = try Self.family(name)
        do {
            try family.decode(family.data)
            Issue.record("decoded \(name)")
        } catch let error as DecodingError {
            let message = try #require(decodingErrorMessage(error))
            #expect(message.hasPrefix(family.message), "\(message)")
            // localizedDescription of the DecodingError itself: Foundation's generic text.
            #expect(!error.localizedDescription.contains(family.message), "\(error.localizedDescription)")
            // "\(error)": the message, in the debug description and as the underlying error.
            let printed = "\(error)"
            #expect(printed.contains(message), "\(printed)")
            #if compiler(>=6.2)
            // What Getting Started shows: "… Debug description: <message>. Underlying error: <message>".
            #expect(printed.contains("Debug description: \(message). Underlying error: \(message)"), "\(printed)")
            #endif
            // The underlying error: the package's error, whose localizedDescription is the message.
            let underlying = try #require(Self.underlyingError(of: error))
            let archiveError = try #require(underlying as? KeyedArchiveError)
            #expect(underlying.localizedDescription == message)
            #expect(archiveError.description == message)
            #expect(KeyedArchiveError.message(of: error) == message)
        }
    }

    @Test("the underlying error names the object and key in its fields")
    func fields() throws {
        let data = try ArchiveEncoder().encode(Person(name: "Ada", age: 36))
        do {
            _ = try ArchiveDecoder().decode(Wrong.self, from: data)
            Issue.record("decoded")
        } catch let error as DecodingError {
            let underlying = try #require(Self.underlyingError(of: error) as? KeyedArchiveError)
            #expect(underlying.key == "name")
            #expect(underlying.objectIndex != nil)
            #expect(underlying.message.contains("object \(underlying.objectIndex ?? -1)"))
        }
    }

    @Test("Getting Started's example prints the message it shows")
    func gettingStarted() throws {
        struct Named: Codable { var name: Int }
        let data = try ArchiveEncoder().encode(Named(name: 5))
        do {
            _ = try ArchiveDecoder().decode(Person.self, from: data)
            Issue.record("decoded")
        } catch {
            #expect(KeyedArchiveError.message(of: error) == "Expected String but found integer 5 at a field of object 1, path 'name'")
        }
    }

    @Test("message(of:) gives the package's other errors' localizedDescription")
    func otherErrors() {
        let error = KeyedArchiveError("missing $objects")
        #expect(KeyedArchiveError.message(of: error) == "missing $objects")
        let foreign = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "from an init(from:)"))
        #expect(KeyedArchiveError.message(of: foreign).contains("from an init(from:)"))
    }

    static func underlyingError(of error: DecodingError) -> (any Error)? {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context), .dataCorrupted(let context):
            return context.underlyingError
        @unknown default: return nil
        }
    }
}
