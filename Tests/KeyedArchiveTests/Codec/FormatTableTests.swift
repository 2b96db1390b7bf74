import Foundation
import Testing
@testable import KeyedArchive

// One test per row of FORMAT.md §4, each in both output formats: the value round-trips,
// encodes deterministically, and is laid out as the row says.

private struct Scalars: Codable, Equatable {
    var b: Bool, i: Int, i8: Int8, i16: Int16, i32: Int32, i64: Int64
    var u: UInt, u8: UInt8, u16: UInt16, u32: UInt32, u64: UInt64
    var f: Float, d: Double
}

private let scalars = Scalars(b: true, i: -42, i8: -8, i16: 300, i32: -70_000, i64: Int64.min,
                              u: 7, u8: 255, u16: 65_535, u32: UInt32.max, u64: UInt64.max,
                              f: 1.5, d: -0.1)

@Suite("FORMAT.md §4 rows")
struct FormatTableTests {
    @Test("Numbers and booleans in a keyed container are inline", arguments: PropertyListFormat.allCases)
    func inlineScalars(format: PropertyListFormat) throws {
        let (decoded, _, raw) = try roundTrip(scalars, format: format)
        #expect(decoded == scalars)
        let root = try #require(raw.root)
        #expect(root["b"] == .bool(true))
        #expect(root["i"] == .integer(-42))
        #expect(root["i64"] == .integer(Int64.min))
        #expect(root["u32"] == .integer(Int64(UInt32.max)))
        #expect(root["d"] == .real(-0.1))
        // A 4-byte real in binary; XML has no width.
        #expect(root["f"] == (format == .binary ? .float(1.5) : .real(1.5)))
        // UInt64 above Int64.max is a 16-byte integer object, by UID.
        #expect(raw.resolve(root["u64"]) == .unsignedInteger(UInt64.max))
        #expect(raw.className(of: root) == "Scalars")
    }

    @Test("Numbers as elements, single values and top-level values are objects by UID", arguments: PropertyListFormat.allCases)
    func numberObjects(format: PropertyListFormat) throws {
        let values: [Double] = [1.5, 1.5, -2]
        let (decoded, _, raw) = try roundTrip(values, format: format)
        #expect(decoded == values)
        guard case .array(let refs)? = raw.root?["NS.objects"] else { Issue.record("no NS.objects"); return }
        #expect(refs.count == 3)
        #expect(refs[0] == refs[1], "equal numbers are stored once")
        #expect(raw.resolve(refs[2]) == .real(-2))

        let (top, _, topRaw) = try roundTrip(Int16(12), format: format)
        #expect(top == 12)
        #expect(topRaw.root == .integer(12))
        let (flag, _, flagRaw) = try roundTrip(false, format: format)
        #expect(flag == false)
        #expect(flagRaw.root == .bool(false))
    }

    @Test("Strings are plain objects, stored once", arguments: PropertyListFormat.allCases)
    func strings(format: PropertyListFormat) throws {
        struct Names: Codable, Equatable { var a: String, b: String, c: String, d: String, empty: String }
        let value = Names(a: "same", b: "same", c: "héllo wörld ✓", d: "emoji 🐕 and \u{0}", empty: "")
        // U+0000 cannot be XML 1.0: written raw, as Foundation writes it, only when asked.
        #expect(throws: EncodingError.self) { try roundTrip(value, format: .xml) }
        let (decoded, _, raw) = try roundTrip(value, format: format, invalidXMLCharacters: .writeRaw)
        #expect(decoded == value)
        #expect(raw.count(ofString: "same") == 1)
        #expect(raw.root?["a"] == raw.root?["b"])
        #expect(raw.resolve(raw.root?["c"]) == .string("héllo wörld ✓"))
    }

    @Test("Data is a plain data object", arguments: PropertyListFormat.allCases)
    func data(format: PropertyListFormat) throws {
        let value = Data((0..<300).map { UInt8($0 % 256) })
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        #expect(raw.root == .data(value))
    }

    @Test("Date is NSDate with NS.time", arguments: PropertyListFormat.allCases)
    func date(format: PropertyListFormat) throws {
        let value = Date(timeIntervalSinceReferenceDate: 123_456.75)
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        #expect(raw.className(of: raw.root) == "NSDate")
        #expect(raw.root?["NS.time"] == .real(123_456.75))
    }

    @Test("URL is NSURL, with and without a base", arguments: PropertyListFormat.allCases)
    func url(format: PropertyListFormat) throws {
        let plain = try #require(URL(string: "https://www.swift.org/index.html?q=1#top"))
        let (decoded, _, raw) = try roundTrip(plain, format: format)
        #expect(decoded == plain)
        #expect(raw.className(of: raw.root) == "NSURL")
        #expect(raw.root?["NS.base"] == .uid(0))
        #expect(raw.resolve(raw.root?["NS.relative"]) == .string("https://www.swift.org/index.html?q=1#top"))

        let based = try #require(URL(string: "docs/a.xml", relativeTo: URL(string: "https://example.com/base/")))
        let (decodedBased, _, rawBased) = try roundTrip(based, format: format)
        #expect(decodedBased.absoluteString == based.absoluteString)
        #expect(rawBased.className(of: rawBased.resolve(rawBased.root?["NS.base"])) == "NSURL")
    }

    @Test("UUID is NSUUID with 16 bytes", arguments: PropertyListFormat.allCases)
    func uuid(format: PropertyListFormat) throws {
        let value = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        #expect(raw.className(of: raw.root) == "NSUUID")
        #expect(raw.root?["NS.uuidbytes"] == .data(Data([0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F])))
    }

    @Test("Decimal is NSDecimalNumber in Apple's layout",
          arguments: PropertyListFormat.allCases, ["12.345", "-0.001", "0", "123456789012345678901234567890", "1e20"])
    func decimal(format: PropertyListFormat, text: String) throws {
        let value = try #require(Decimal(string: text))
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        #expect(raw.className(of: raw.root) == "NSDecimalNumber")
        #expect(raw.classes(of: raw.root) == ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"])
        #expect(raw.root?["NS.mantissa.bo"] == .integer(1))
        if text == "12.345" {
            #expect(raw.root?["NS.exponent"] == .integer(-3))
            #expect(raw.root?["NS.length"] == .integer(1))
            #expect(raw.root?["NS.mantissa"] == .data(Data([0x39, 0x30] + [UInt8](repeating: 0, count: 14))))
        }
    }

    @Test("Array is NSArray, Set is NSSet", arguments: PropertyListFormat.allCases)
    func collections(format: PropertyListFormat) throws {
        struct Bag: Codable, Equatable { var list: [String]; var set: Set<Int>; var nested: [[Int]]; var empty: [Int] }
        let value = Bag(list: ["x", "y", "x"], set: [5, 3, 9, 1], nested: [[1], [], [2, 3]], empty: [])
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        #expect(raw.className(of: raw.resolve(raw.root?["list"])) == "NSArray")
        let set = raw.resolve(raw.root?["set"])
        #expect(raw.className(of: set) == "NSSet")
        // Deterministic order: sorted by value.
        guard case .array(let refs)? = set?["NS.objects"] else { Issue.record("no NS.objects"); return }
        #expect(refs.map { raw.resolve($0) } == [.integer(1), .integer(3), .integer(5), .integer(9)])
    }

    @Test("Dictionaries with any Codable key are NSDictionary", arguments: PropertyListFormat.allCases)
    func dictionaries(format: PropertyListFormat) throws {
        struct Point: Codable, Hashable { var x: Int, y: Int }
        struct Maps: Codable, Equatable {
            var byName: [String: Int]; var byNumber: [Int: String]; var byPoint: [Point: String]; var nested: [String: [String: Bool]]
        }
        let value = Maps(byName: ["b": 2, "a": 1, "c": 3], byNumber: [10: "ten", -1: "minus one"],
                         byPoint: [Point(x: 1, y: 2): "p", Point(x: 0, y: 0): "origin"], nested: ["k": ["t": true, "f": false]])
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        let byName = raw.resolve(raw.root?["byName"])
        #expect(raw.className(of: byName) == "NSDictionary")
        guard case .array(let keys)? = byName?["NS.keys"] else { Issue.record("no NS.keys"); return }
        #expect(keys.map { raw.resolve($0) } == [.string("a"), .string("b"), .string("c")])
        let byPoint = raw.resolve(raw.root?["byPoint"])
        guard case .array(let pointKeys)? = byPoint?["NS.keys"] else { Issue.record("no NS.keys"); return }
        #expect(pointKeys.allSatisfy { raw.className(of: raw.resolve($0)) == "Point" })
    }

    @Test("Equal dictionaries and sets built differently encode to the same bytes")
    func unorderedDeterminism() throws {
        var first: [String: Int] = [:]
        var second: [String: Int] = [:]
        second.reserveCapacity(1000)
        let keys = (0..<200).map { "key\($0)" }
        for key in keys { first[key] = key.count }
        for key in keys.reversed() { second[key] = key.count }
        #expect(try ArchiveEncoder().encode(first) == ArchiveEncoder().encode(second))
        let setA = Set((0..<100).map { "s\($0)" })
        var setB = Set<String>(minimumCapacity: 500)
        for s in setA.sorted().reversed() { setB.insert(s) }
        #expect(try ArchiveEncoder().encode(setA) == ArchiveEncoder().encode(setB))
    }

    @Test("nil is $null under a key (encodeNil and encodeIfPresent), an NSNull object in a collection", arguments: PropertyListFormat.allCases)
    func nils(format: PropertyListFormat) throws {
        struct Optionals: Codable, Equatable {
            var present: String?; var absent: String?; var explicitNil: Int?; var list: [Int?]
            enum CodingKeys: String, CodingKey { case present, absent, explicitNil, list }
            init(present: String?, absent: String?, explicitNil: Int?, list: [Int?]) {
                self.present = present; self.absent = absent; self.explicitNil = explicitNil; self.list = list
            }
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                present = try c.decodeIfPresent(String.self, forKey: .present)
                absent = try c.decodeIfPresent(String.self, forKey: .absent)
                explicitNil = try c.decodeNil(forKey: .explicitNil) ? nil : c.decode(Int.self, forKey: .explicitNil)
                list = try c.decode([Int?].self, forKey: .list)
            }
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encodeIfPresent(present, forKey: .present)
                try c.encodeIfPresent(absent, forKey: .absent)
                try c.encodeNil(forKey: .explicitNil)
                try c.encode(list, forKey: .list)
            }
        }
        let value = Optionals(present: "here", absent: nil, explicitNil: nil, list: [1, nil, 3])
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        // A nil optional property is `$null` under its key, as NSCoding writes it.
        #expect(raw.root?["absent"] == .uid(0))
        #expect(raw.root?["explicitNil"] == .uid(0))
        // Inside a collection, nil is an NSNull object: `$null` is never an element.
        guard case .array(let refs)? = raw.resolve(raw.root?["list"])?["NS.objects"] else { Issue.record("no list"); return }
        #expect(refs[1] != .uid(0))
        #expect(raw.className(of: raw.resolve(refs[1])) == "NSNull")
    }

    @Test("Structs, classes and enums with keyed containers are objects of their own class", arguments: PropertyListFormat.allCases)
    func keyedTypes(format: PropertyListFormat) throws {
        struct Dog: Codable, Equatable { var name: String }
        struct Owner: Codable, Equatable { var dog: Dog; var mood: Mood; var shape: Shape }
        enum Mood: String, Codable { case happy, sad }
        enum Shape: Codable, Equatable { case circle(radius: Double), rect(w: Int, h: Int), none }
        let value = Owner(dog: Dog(name: "Rex"), mood: .sad, shape: .rect(w: 2, h: 3))
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        #expect(raw.className(of: raw.root) == "Owner")
        #expect(raw.className(of: raw.resolve(raw.root?["dog"])) == "Dog")
        // An enum with a raw value is its raw value (single value container).
        #expect(raw.resolve(raw.root?["mood"]) == .string("sad"))
        // An enum with associated values: its own object, the payload an NSDictionary.
        let shape = raw.resolve(raw.root?["shape"])
        #expect(raw.className(of: shape) == "Shape")
        #expect(raw.className(of: raw.resolve(shape?["rect"])) == "NSDictionary")
        for other in [Shape.circle(radius: 1.5), .none] {
            #expect(try roundTrip(other, format: format).decoded == other)
        }
    }

    @Test("A single-value wrapper is the value itself", arguments: PropertyListFormat.allCases)
    func singleValueWrapper(format: PropertyListFormat) throws {
        struct Meters: Codable, Equatable {
            var value: Double
            init(_ value: Double) { self.value = value }
            init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Double.self) }
            func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(value) }
        }
        struct Run: Codable, Equatable { var distance: Meters; var laps: [Meters] }
        let value = Run(distance: Meters(42.195), laps: [Meters(1), Meters(2)])
        let (decoded, _, raw) = try roundTrip(value, format: format)
        #expect(decoded == value)
        #expect(raw.resolve(raw.root?["distance"]) == .real(42.195))
    }
}
