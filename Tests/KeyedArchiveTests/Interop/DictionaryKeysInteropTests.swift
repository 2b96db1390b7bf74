import Foundation
import Testing
@testable import KeyedArchive

// Issue 27: NSDictionaries keyed by numbers, URLs, UUIDs, dates and NSString subclasses,
// as Foundation's NSKeyedArchiver writes them on this machine, read by every decoding
// path (typed dictionaries of each key type, a keyed container's allKeys, Swift's own
// Dictionary.init(from:)); and our dictionaries of those key types read back by
// Foundation's NSKeyedUnarchiver (with `.setErrorAndReturn`, so a failure is an error,
// never a trap).

/// Archives `dictionary` with Foundation in `format`.
private func foundationDictionary(_ dictionary: [AnyHashable: Any], format: PropertyListFormat) -> Data {
    foundationArchive(NSDictionary(dictionary: dictionary), format: format.foundationFormat)
}

/// A value decoded through Swift's own `Dictionary.init(from:)` (not the decoder's
/// NSDictionary layout): a `String`/`Int`-keyed dictionary asks a keyed container, any
/// other key type an unkeyed one for alternating keys and values — which the decoder gives
/// only to a type that asks for them, as this one says it does (issue 52).
private struct ThroughSwift<Key: Hashable & Decodable, Value: Decodable>: ArchiveKeyValuePairsDecodable {
    var value: [Key: Value]
    init(from decoder: any Decoder) throws { value = try [Key: Value](from: decoder) }
}

/// The keys a keyed container lists (as AnyCodable-style types read a dictionary).
private struct ListedKeys: Decodable {
    var names: [String]
    var integers: [Int?]
    var values: [String: String]
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AllKeysValue.AnyKey.self)
        names = container.allKeys.map(\.stringValue)
        integers = container.allKeys.map(\.intValue)
        var values: [String: String] = [:]
        for key in container.allKeys {
            #expect(container.contains(key))
            values[key.stringValue] = try container.decode(String.self, forKey: key)
        }
        self.values = values
    }
}

@Suite("Interop: NSDictionary keys that are not plain strings, both ways")
struct DictionaryKeysInteropTests {
    @Test("Number keys: [Int: V], every fixed-width integer, [String: V] as digits, and allKeys", arguments: PropertyListFormat.allCases)
    func numberKeys(format: PropertyListFormat) throws {
        let data = foundationDictionary([1: "one", 42: "answer", -7: "minus"], format: format)
        let decoder = ArchiveDecoder()
        #expect(try decoder.decode([Int: String].self, from: data) == [1: "one", 42: "answer", -7: "minus"])
        #expect(try decoder.decode([Int8: String].self, from: data) == [1: "one", 42: "answer", -7: "minus"])
        #expect(try decoder.decode([Int64: String].self, from: data) == [1: "one", 42: "answer", -7: "minus"])
        #expect(try decoder.decode([String: String].self, from: data) == ["1": "one", "42": "answer", "-7": "minus"])
        // UInt keys: a negative key does not fit, and says so.
        #expect(throws: DecodingError.self) { try decoder.decode([UInt: String].self, from: data) }
        let listed = try decoder.decode(ListedKeys.self, from: data)
        #expect(Set(listed.names) == ["1", "42", "-7"])
        #expect(Set(listed.integers.compactMap { $0 }) == [1, 42, -7])
        #expect(listed.values == ["1": "one", "42": "answer", "-7": "minus"])
        #expect(try decoder.decode(ThroughSwift<Int, String>.self, from: data).value == [1: "one", 42: "answer", -7: "minus"])
        #expect(try decoder.decode(ThroughSwift<String, String>.self, from: data).value == ["1": "one", "42": "answer", "-7": "minus"])
        #expect(try decoder.decode(ThroughSwift<UInt16, String>.self, from: foundationDictionary([3: "c"], format: format)).value == [3: "c"])
    }

    @Test("Set and array types never read a dictionary's keys and values as elements")
    func collectionsRefuseDictionaries() throws {
        let data = foundationDictionary(["a": "b"], format: .binary)
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Set<String>.self, from: data) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String].self, from: data) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(ContiguousArray<String>.self, from: data) }
        // Swift's own Dictionary.init(from:) does get them, for a key type that is not
        // String/Int, run by a type that adopts ArchiveKeyValuePairsDecodable.
        #expect(try ArchiveDecoder().decode(ThroughSwift<URL, String>.self, from: foundationDictionary([URL(string: "a:b")!: "c"], format: .binary)).value
                == [URL(string: "a:b")!: "c"])
    }

    @Test("A real number key reads as its digits; it is not an Int key")
    func realKey() throws {
        let data = foundationDictionary([2.5: "half"], format: .binary)
        #expect(try ArchiveDecoder().decode([String: String].self, from: data) == ["2.5": "half"])
        #expect(try ArchiveDecoder().decode([Double: String].self, from: data) == [2.5: "half"])
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([Int: String].self, from: data) }
    }

    @Test("URL keys: [URL: V], [String: V] as absolute strings, and Swift's own Dictionary", arguments: PropertyListFormat.allCases)
    func urlKeys(format: PropertyListFormat) throws {
        let a = URL(string: "file:///Users/me/Project/main.swift")!, b = URL(string: "https://example.com/x?y=1")!
        let data = foundationDictionary([a: "main", b: "web"], format: format)
        #expect(try ArchiveDecoder().decode([URL: String].self, from: data) == [a: "main", b: "web"])
        #expect(try ArchiveDecoder().decode([String: String].self, from: data) == [a.absoluteString: "main", b.absoluteString: "web"])
        #expect(try ArchiveDecoder().decode(ListedKeys.self, from: data).values == [a.absoluteString: "main", b.absoluteString: "web"])
        #expect(try ArchiveDecoder().decode(ThroughSwift<URL, String>.self, from: data).value == [a: "main", b: "web"])
    }

    @Test("UUID keys: [UUID: V] and [String: V] as the UUID's string", arguments: PropertyListFormat.allCases)
    func uuidKeys(format: PropertyListFormat) throws {
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let data = foundationDictionary([NSUUID(uuidString: id.uuidString)!: "thing"], format: format)
        #expect(try ArchiveDecoder().decode([UUID: String].self, from: data) == [id: "thing"])
        #expect(try ArchiveDecoder().decode([String: String].self, from: data) == [id.uuidString: "thing"])
        #expect(try ArchiveDecoder().decode(ThroughSwift<UUID, String>.self, from: data).value == [id: "thing"])
    }

    @Test("Date keys: [Date: V] reads them; a keyed container throws typeMismatch naming NSDate and the key's object")
    func dateKeys() throws {
        let when = Date(timeIntervalSinceReferenceDate: 86_400)
        let data = foundationDictionary([when: "tomorrow"], format: .binary)
        #expect(try ArchiveDecoder().decode([Date: String].self, from: data) == [when: "tomorrow"])
        #expect(try ArchiveDecoder().decode(ThroughSwift<Date, String>.self, from: data).value == [when: "tomorrow"])
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(ListedKeys.self, from: data) }
        guard case .typeMismatch(_, let context)? = error else { Issue.record("expected typeMismatch, got \(String(describing: error))"); return }
        #expect(context.debugDescription.contains("'NSDate'"))
        #expect(context.debugDescription.contains("object 2"))
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String: String].self, from: data) }
    }

    @Test("Our [Int: V], [URL: V], [UUID: V] and [Date: V] are NSDictionaries keyed by objects that Foundation reads", arguments: PropertyListFormat.allCases)
    func foundationReadsOurKeys(format: PropertyListFormat) throws {
        let url = URL(string: "https://example.com/a")!, id = UUID(), when = Date(timeIntervalSinceReferenceDate: 1_000)
        let ints = try foundationUnarchive(try archive([1: "one", -2: "minus two"] as [Int: String], format: format)) as? NSDictionary
        #expect(ints?[NSNumber(value: 1)] as? String == "one")
        #expect(ints?[NSNumber(value: -2)] as? String == "minus two")
        let urls = try foundationUnarchive(try archive([url: 5] as [URL: Int], format: format)) as? NSDictionary
        #expect((urls?.allKeys.first as? URL) == url)
        #expect(urls?.allValues.first as? Int == 5)
        let uuids = try foundationUnarchive(try archive([id: "x"] as [UUID: String], format: format)) as? NSDictionary
        #expect((uuids?.allKeys.first as? UUID) == id || (uuids?.allKeys.first as? NSUUID)?.uuidString == id.uuidString)
        let dates = try foundationUnarchive(try archive([when: "then"] as [Date: String], format: format)) as? NSDictionary
        #expect((dates?.allKeys.first as? Date) == when)
        // And they read back here as written.
        #expect(try ArchiveDecoder().decode([URL: Int].self, from: try archive([url: 5] as [URL: Int], format: format)) == [url: 5])
        #expect(try ArchiveDecoder().decode([Date: String].self, from: try archive([when: "then"] as [Date: String], format: format)) == [when: "then"])
    }

    @Test("An NSMutableString key and a key of an NSString subclass read as their text")
    func stringSubclassKeys() throws {
        let data = try renamedFoundationArchive(
            NSDictionary(dictionary: [FoundationMutableString("mutable"): "m", FoundationStringSubclass("subclass"): "s"]),
            names: [(FoundationMutableString.self, ["NSMutableString", "NSString", "NSObject"]),
                    (FoundationStringSubclass.self, ["OC_PythonUnicode", "NSString", "NSObject"])])
        #expect(try ArchiveDecoder().decode([String: String].self, from: data) == ["mutable": "m", "subclass": "s"])
        #expect(try ArchiveDecoder().decode(ListedKeys.self, from: data).values == ["mutable": "m", "subclass": "s"])
        // Foundation reads the same file back (into the classes that wrote it: Foundation's
        // own NSString on Linux traps on an `NS.string` stored by UID, as ours is).
        let theirs = try foundationUnarchive(data, classes: ["OC_PythonUnicode": FoundationStringSubclass.self,
                                                             "NSMutableString": FoundationMutableString.self]) as? NSDictionary
        #expect(theirs?[FoundationMutableString("mutable")] as? String == "m")
        #expect(theirs?[FoundationStringSubclass("subclass")] as? String == "s")
    }

    @Test("A key with no text (an arbitrary object) makes the keyed container throw, naming its class and object index")
    func arbitraryObjectKey() throws {
        let data = try renamedFoundationArchive(
            NSDictionary(dictionary: [FoundationGraphicID(7): "shape", FoundationMutableString("plain"): "p"]),
            names: [(FoundationGraphicID.self, ["XDGraphicID", "NSObject"]),
                    (FoundationMutableString.self, ["NSMutableString", "NSString", "NSObject"])])
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(ListedKeys.self, from: data) }
        guard case .typeMismatch(_, let context)? = error else { Issue.record("expected typeMismatch, got \(String(describing: error))"); return }
        #expect(context.debugDescription.contains("'XDGraphicID'"))
        #expect(context.debugDescription.contains("object "))
        // A generic value keyed by strings cannot hold it either: it throws, never reads
        // the keys and values as a list (issue 52), nor leaves an entry out.
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(AllKeysValue.self, from: data) }
    }
}

// MARK: - Foundation-written fixtures with Apple's class names

/// Foundation on Linux writes a Swift class under its module-qualified name and ignores
/// `setClassName`; Apple's classes (and PyObjC's) are written by NSCoding classes of ours
/// and their `$classes` renamed to the names Apple's software writes — the layout is
/// Foundation's own.
func renamedFoundationArchive(_ object: Any, names: [(AnyClass, [String])]) throws -> Data {
    let data = foundationArchive(object, format: .binary)
    // Rewritten with our own property-list engine: Foundation's PropertyListSerialization
    // traps on the UIDs of an archive.
    guard case .dictionary(var envelope) = try PropertyListValue(propertyList: data),
          let objectsAt = envelope.firstIndex(where: { $0.key == "$objects" }),
          case .array(var objects) = envelope[objectsAt].value else {
        throw FoundationUnarchiveError(description: "Foundation wrote no $objects")
    }
    var renames: [String: [String]] = [:]
    for (cls, chain): (AnyClass, [String]) in names { renames[NSStringFromClass(cls)] = chain }
    for (index, entry) in objects.enumerated() {
        guard case .string(let name)? = entry["$classname"], let chain = renames[name] else { continue }
        objects[index] = .dictionary([PropertyListEntry(key: "$classes", value: .array(chain.map { .string($0) })),
                                      PropertyListEntry(key: "$classname", value: .string(chain[0]))])
    }
    envelope[objectsAt].value = .array(objects)
    return PropertyListValue.dictionary(envelope).propertyListData(format: .binary)
}

/// Writes NSString's layout (`NS.string`).
class FoundationStringSubclass: NSObject, NSCoding, NSCopying, @unchecked Sendable {
    let text: String
    init(_ text: String) { self.text = text }
    required init?(coder: NSCoder) { text = coder.decodeObject(forKey: "NS.string") as? String ?? "" }
    func encode(with coder: NSCoder) { coder.encode(text, forKey: "NS.string") }
    func copy(with zone: NSZone? = nil) -> Any { self }
    override var hash: Int { text.hashValue }
    override func isEqual(_ object: Any?) -> Bool { (object as? FoundationStringSubclass)?.text == text }
}

/// Written as `NSMutableString`.
final class FoundationMutableString: FoundationStringSubclass, @unchecked Sendable {}

/// An object with no text (Core Data's model layouts key a dictionary by one).
final class FoundationGraphicID: NSObject, NSCoding, NSCopying, @unchecked Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
    required init?(coder: NSCoder) { number = coder.decodeInteger(forKey: "id") }
    func encode(with coder: NSCoder) { coder.encode(number, forKey: "id") }
    func copy(with zone: NSZone? = nil) -> Any { self }
    override var hash: Int { number }
    override func isEqual(_ object: Any?) -> Bool { (object as? FoundationGraphicID)?.number == number }
}

/// Writes NSDate's layout (`NS.time`).
class FoundationDate: NSObject, NSCoding, @unchecked Sendable {
    let time: Double
    init(time: Double) { self.time = time }
    required init?(coder: NSCoder) { time = coder.decodeDouble(forKey: "NS.time") }
    func encode(with coder: NSCoder) { coder.encode(time, forKey: "NS.time") }
}

/// A subclass of NSDate with fields of its own, as NSCalendarDate writes them.
final class FoundationCalendarDate: FoundationDate, @unchecked Sendable {
    let format: String
    init(time: Double, format: String) {
        self.format = format
        super.init(time: time)
    }
    required init?(coder: NSCoder) {
        format = coder.decodeObject(forKey: "NS.format") as? String ?? ""
        super.init(coder: coder)
    }
    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(format, forKey: "NS.format")
    }
}
