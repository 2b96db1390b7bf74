import Foundation
import Testing
@testable import KeyedArchive

// Archives written on this machine by Foundation's own NSKeyedArchiver (binary and XML),
// from hand-written NSCoding classes, decoded by ArchiveDecoder into Codable types with
// the same field names. Foundation on Linux names these classes "KeyedArchiveTests.X";
// ArchiveDecoder does not care, the Codable type decides.

// MARK: - NSCoding side (encode only)

final class WRFPetCoding: NSObject, NSCoding {
    let name: String
    let legs: Int
    init(name: String, legs: Int) { self.name = name; self.legs = legs }
    required init?(coder: NSCoder) { return nil }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(legs, forKey: "legs")
    }
}

final class WRFEverythingCoding: NSObject, NSCoding {
    static let date = Date(timeIntervalSinceReferenceDate: 123_456_789.5)
    static let uuid = UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34")!
    let pet = WRFPetCoding(name: "Rex", legs: 4)

    override init() {}
    required init?(coder: NSCoder) { return nil }
    func encode(with coder: NSCoder) {
        coder.encode("plain ASCII", forKey: "ascii")
        coder.encode("ünïcødé ✓ 数", forKey: "unicode")
        coder.encode(-42, forKey: "int")
        coder.encode(Int32(-2_000_000_000), forKey: "int32")
        coder.encode(Int64.min, forKey: "int64")
        coder.encode(2.718_281_828_459_045, forKey: "double")
        coder.encode(Float(0.1), forKey: "float")
        coder.encode(true, forKey: "yes")
        coder.encode(false, forKey: "no")
        coder.encode(NSDate(timeIntervalSinceReferenceDate: Self.date.timeIntervalSinceReferenceDate), forKey: "date")
        coder.encode(NSData(data: Data([0xDE, 0xAD, 0xBE, 0xEF])), forKey: "data")
        coder.encode(NSURL(string: "https://swift.org/path?q=1")!, forKey: "url")
        coder.encode(NSUUID(uuidString: Self.uuid.uuidString)!, forKey: "uuid")
        coder.encode(NSArray(array: ["a", "b", "a"].map { NSString(string: $0) }), forKey: "strings")
        coder.encode(NSArray(array: [1, 2, 3].map { NSNumber(value: $0) }), forKey: "numbers")
        coder.encode(NSDictionary(dictionary: ["x": NSNumber(value: 1), "y": NSNumber(value: 2)]), forKey: "dictionary")
        coder.encode(pet, forKey: "pet")
        coder.encode(pet, forKey: "samePet")  // the same object twice: one entry, two UIDs
        coder.encode(nil as Any?, forKey: "nothing")
    }
}

// MARK: - Codable side

private struct PetR: Codable, Equatable {
    var name: String
    var legs: Int
}

private final class PetClassR: Codable {
    let name: String
    let legs: Int
}

private struct EverythingR: Decodable {
    var ascii: String
    var unicode: String
    var int: Int
    var int32: Int32
    var int64: Int64
    var double: Double
    var float: Float
    var yes: Bool
    var no: Bool
    var date: Date
    var data: Data
    var url: URL
    var uuid: UUID
    var strings: [String]
    var numbers: [Int]
    var dictionary: [String: Int]
    var pet: PetR
    var samePet: PetR
    var nothing: String?
    var absent: String?  // never written
}

/// The same archive read into class instances, for identity.
private struct PetsByClassR: Decodable {
    var pet: PetClassR
    var samePet: PetClassR
}

private func foundationArchive(_ object: Any, _ format: PropertyListFormat) -> Data {
    foundationArchive(object, format: format.foundationFormat)
}

// MARK: - Tests

@Suite("ArchiveDecoder reads what Foundation's NSKeyedArchiver writes")
struct WeReadFoundationTests {
    @Test("Foundation wrote the format it was asked for", arguments: PropertyListFormat.allCases)
    func formatIsAsRequested(format: PropertyListFormat) {
        let data = foundationArchive(WRFEverythingCoding(), format)
        #expect(data.starts(with: Array("bplist00".utf8)) == (format == .binary))
        #expect(data.starts(with: Array("<?xml".utf8)) == (format == .xml))
    }

    @Test("Every field of an NSCoding object", arguments: PropertyListFormat.allCases)
    func everything(format: PropertyListFormat) throws {
        let data = foundationArchive(WRFEverythingCoding(), format)
        let value = try ArchiveDecoder().decode(EverythingR.self, from: data)
        #expect(value.ascii == "plain ASCII")
        #expect(value.unicode == "ünïcødé ✓ 数")
        #expect(value.int == -42)
        #expect(value.int32 == -2_000_000_000)
        #expect(value.int64 == Int64.min)
        #expect(value.double == 2.718_281_828_459_045)
        #expect(value.float == Float(0.1))
        #expect(value.yes == true)
        #expect(value.no == false)
        #expect(value.date == WRFEverythingCoding.date)
        #expect(value.data == Data([0xDE, 0xAD, 0xBE, 0xEF]))
        #expect(value.url == URL(string: "https://swift.org/path?q=1")!)
        #expect(value.uuid == WRFEverythingCoding.uuid)
        #expect(value.strings == ["a", "b", "a"])
        #expect(value.numbers == [1, 2, 3])
        #expect(value.dictionary == ["x": 1, "y": 2])
        #expect(value.pet == PetR(name: "Rex", legs: 4))
        #expect(value.samePet == value.pet)
        #expect(value.nothing == nil)
        #expect(value.absent == nil)
    }

    @Test("An object referenced twice decodes to one class instance", arguments: PropertyListFormat.allCases)
    func sharedIdentity(format: PropertyListFormat) throws {
        let data = foundationArchive(WRFEverythingCoding(), format)
        let pets = try ArchiveDecoder().decode(PetsByClassR.self, from: data)
        #expect(pets.pet === pets.samePet)
        #expect(pets.pet.name == "Rex")
        #expect(pets.pet.legs == 4)
    }

    @Test("A root NSArray whose elements are the same object twice", arguments: PropertyListFormat.allCases)
    func sharedInArray(format: PropertyListFormat) throws {
        let pet = WRFPetCoding(name: "Tom", legs: 3)
        let data = foundationArchive(NSArray(array: [pet, pet, WRFPetCoding(name: "Jerry", legs: 2)]), format)
        let pets = try ArchiveDecoder().decode([PetClassR].self, from: data)
        try #require(pets.count == 3)
        #expect(pets[0] === pets[1])
        #expect(pets[0] !== pets[2])
        #expect(pets.map(\.name) == ["Tom", "Tom", "Jerry"])
    }

    @Test("Two top-level keys, read back by key", arguments: PropertyListFormat.allCases)
    func twoTopLevelKeys(format: PropertyListFormat) throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = format.foundationFormat
        archiver.encode(WRFPetCoding(name: "One", legs: 1), forKey: "personOne")
        archiver.encode(WRFPetCoding(name: "Two", legs: 2), forKey: "personTwo")
        archiver.finishEncoding()
        let data = archiver.encodedData

        let decoder = ArchiveDecoder()
        #expect(Set(try decoder.topLevelKeys(in: data)) == ["personOne", "personTwo"])
        #expect(try decoder.decode(PetR.self, forKey: "personOne", from: data) == PetR(name: "One", legs: 1))
        #expect(try decoder.decode(PetR.self, forKey: "personTwo", from: data) == PetR(name: "Two", legs: 2))
        // No "root": the whole $top is the value, keyed by the top-level keys.
        let both = try decoder.decode(TwoPetsR.self, from: data)
        #expect(both.personOne == PetR(name: "One", legs: 1))
        #expect(both.personTwo == PetR(name: "Two", legs: 2))
        // One key and no "root": the value itself.
        let single = NSKeyedArchiver(requiringSecureCoding: false)
        single.outputFormat = format.foundationFormat
        single.encode(WRFPetCoding(name: "First", legs: 3), forKey: "first")
        single.finishEncoding()
        #expect(try decoder.decode(PetR.self, from: single.encodedData) == PetR(name: "First", legs: 3))
    }

    @Test("Root Foundation values", arguments: PropertyListFormat.allCases)
    func rootValues(format: PropertyListFormat) throws {
        let decoder = ArchiveDecoder()
        #expect(try decoder.decode(String.self, from: foundationArchive(NSString(string: "root string"), format)) == "root string")
        #expect(try decoder.decode(Int.self, from: foundationArchive(NSNumber(value: 7), format)) == 7)
        #expect(try decoder.decode(UInt64.self, from: foundationArchive(NSNumber(value: UInt64.max), format)) == UInt64.max)
        #expect(try decoder.decode(Double.self, from: foundationArchive(NSNumber(value: 0.25), format)) == 0.25)
        #expect(try decoder.decode(Bool.self, from: foundationArchive(NSNumber(value: true), format)) == true)
        #expect(try decoder.decode(Data.self, from: foundationArchive(NSData(data: Data([1, 2])), format)) == Data([1, 2]))
        #expect(try decoder.decode(Date.self, from: foundationArchive(NSDate(timeIntervalSinceReferenceDate: 0), format))
            == Date(timeIntervalSinceReferenceDate: 0))
        let set = NSSet(array: [NSString(string: "p"), NSString(string: "q")])
        #expect(try decoder.decode(Set<String>.self, from: foundationArchive(set, format)) == ["p", "q"])
        let mutable = NSMutableArray(array: [NSNumber(value: 1.5), NSNumber(value: -1)])
        #expect(try decoder.decode([Double].self, from: foundationArchive(mutable, format)) == [1.5, -1])
        let ordered = NSOrderedSet(array: [NSString(string: "z"), NSString(string: "y")])
        #expect(try decoder.decode([String].self, from: foundationArchive(ordered, format)) == ["z", "y"])
        let dictionary = NSMutableDictionary(dictionary: ["k": NSArray(array: [NSString(string: "v")])])
        #expect(try decoder.decode([String: [String]].self, from: foundationArchive(dictionary, format)) == ["k": ["v"]])
    }

    @Test("A relative NSURL keeps its base", arguments: PropertyListFormat.allCases)
    func relativeURL(format: PropertyListFormat) throws {
        let url = NSURL(string: "foo.xml", relativeTo: URL(string: "https://www.example.com/dir/"))!
        let decoded = try ArchiveDecoder().decode(URL.self, from: foundationArchive(url, format))
        #expect(decoded.absoluteString == "https://www.example.com/dir/foo.xml")
    }
}

private struct TwoPetsR: Decodable {
    var personOne: PetR
    var personTwo: PetR
}
