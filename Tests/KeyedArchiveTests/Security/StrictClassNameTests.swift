import Foundation
import Testing
@testable import KeyedArchive

// Strict class-name checking (`.strict`) holds on every path: an object archived as class
// `Evil` never decodes as `SecPerson` (whose init(from:) leaves a trace), however it is
// reached.

/// The pure-Swift NSCoding style reading a Codable person.
final class SecPersonKeeper: ArchiveCoding {
    var person: SecPerson?
    init(person: SecPerson?) { self.person = person }
    func encode(with coder: ArchiveKeyedEncoder) throws { try coder.encode(person, forKey: "person") }
    init(coder: ArchiveKeyedDecoder) throws {
        person = try? coder.decode(SecPerson.self, forKey: "person")  // even swallowed, the decode fails
    }
}

/// Reads its person through `superDecoder(forKey:)`.
private struct SuperReader: Decodable {
    var person: SecPerson
    enum CodingKeys: String, CodingKey { case person }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        person = try container.superDecoder(forKey: .person).singleValueContainer().decode(SecPerson.self)
    }
}

private struct PersonWriter: Encodable {
    var person: SecPerson
}

/// Writes `value` with SecPerson archived under the class name `Evil`.
private func evil<T: Encodable>(_ value: T) throws -> Data {
    let encoder = ArchiveEncoder()
    encoder.setClassName("Evil", for: SecPerson.self)
    return try encoder.encode(value)
}

private let strict: ArchiveDecoder = {
    let decoder = ArchiveDecoder()
    decoder.classNameChecking = .strict
    return decoder
}()

/// Whether decoding `T` from `data` under strict checking throws without running SecPerson's init for `tag`.
private func refused<T: Decodable>(_ type: T.Type, _ data: Data, tag: String, decoder: ArchiveDecoder = strict) -> Bool {
    let threw = (try? decoder.decode(type, from: data)) == nil
    return threw && !InitLog.ran("SecPerson", tag)
}

@Suite("Strict class-name checking on every path")
struct StrictClassNameTests {
    @Test("A plain field: an object of class Evil does not decode as SecPerson")
    func plain() throws {
        let tag = InitLog.newTag()
        #expect(refused(SecPerson.self, try evil(SecPerson(name: tag)), tag: tag))
        // Control: without strict checking the caller's type decides.
        #expect(try ArchiveDecoder().decode(SecPerson.self, from: try evil(SecPerson(name: tag))).name == tag)
    }

    @Test("decodeIfPresent (an optional property)")
    func decodeIfPresent() throws {
        struct Holder: Codable { var person: SecPerson? }
        let tag = InitLog.newTag()
        #expect(refused(Holder.self, try evil(Holder(person: SecPerson(name: tag))), tag: tag))
    }


    @Test("Optional at the top level")
    func optionalRoot() throws {
        let tag = InitLog.newTag()
        let data = try evil(SecPerson(name: tag))
        #expect(refused(SecPerson?.self, data, tag: tag))
    }

    @Test("An array of optionals")
    func arrayOfOptionals() throws {
        let tag = InitLog.newTag()
        let data = try evil([SecPerson?]([SecPerson(name: tag), nil]))
        #expect(refused([SecPerson?].self, data, tag: tag))
    }

    @Test("A dictionary of optionals")
    func dictionaryOfOptionals() throws {
        let tag = InitLog.newTag()
        let data = try evil(["a": SecPerson?(SecPerson(name: tag))])
        #expect(refused([String: SecPerson?].self, data, tag: tag))
    }

    @Test("superDecoder(forKey:) then singleValueContainer().decode(T.self)")
    func superDecoderForKey() throws {
        let tag = InitLog.newTag()
        let data = try evil(PersonWriter(person: SecPerson(name: tag)))
        #expect(try ArchiveDecoder().decode(SuperReader.self, from: data).person.name == tag)  // control
        let other = InitLog.newTag()
        let refusedData = try evil(PersonWriter(person: SecPerson(name: other)))
        let decoder = ArchiveDecoder()
        decoder.classNameChecking = .strict
        decoder.setType(SuperReader.self, forClassName: "PersonWriter")  // the outer object is fine
        #expect(refused(SuperReader.self, refusedData, tag: other, decoder: decoder))
    }

    @Test("decodeCodable inside init(coder:), even under try?")
    func decodeCodableInsideInitCoder() throws {
        let tag = InitLog.newTag()
        // A holder whose `value` is an object of class Evil with a name.
        let data = archive([
            dict(["$class": uid(2), "mode": uid(3), "tag": uid(4), "value": uid(5)]),
            classEntry("SecHolder"), .string("codablePerson"), .string(tag),
            dict(["$class": uid(6), "name": uid(4)]), classEntry("Evil"),
        ])
        let message: String?
        do {
            _ = try strict.decode(NSCodingObject<SecHolder>.self, from: data)
            message = nil
        } catch {
            message = "\(error)"
        }
        #expect(message?.contains("Evil") == true, "\(message ?? "decoded")")
        #expect(!InitLog.ran("SecPerson", tag))
        // Control: without strict checking it reads.
        let holder = try ArchiveDecoder().decode(NSCodingObject<SecHolder>.self, from: data).wrappedValue
        #expect((holder.got["value"] as? SecPerson)?.name == tag)
    }

    @Test("ArchiveKeyedDecoder.decode inside an ArchiveCoding initializer, even under try?")
    func archiveCodingDecode() throws {
        struct Box: Codable { var keeper: SecPersonKeeper }
        let tag = InitLog.newTag()
        let data = try evil(Box(keeper: SecPersonKeeper(person: SecPerson(name: tag))))
        #expect(refused(Box.self, data, tag: tag))
    }
}
