import Foundation
import Testing
@testable import KeyedArchive

// Archives written by Apple's Foundation (corpus/apple), decoded into Codable models with
// exact values. The expected values were read from each file with python3 plistlib.

// MARK: - corelibs

/// NSKeyedUnarchiver-ComplexTest.plist: a root NSDictionary.
private struct ComplexRoot: Decodable {
    enum CodingKeys: String, CodingKey { case array, string, url, uuid }
    var firstIsNull: Bool
    var hello: String
    var number: Int
    var dictionary: [String: String]
    var arrayAtEnd: Bool
    var string: String
    var url: URL
    var uuid: UUID

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // [NSNull, "hello", 34545, {"key": "val"}]
        var array = try container.nestedUnkeyedContainer(forKey: .array)
        firstIsNull = try array.decodeNil()
        if !firstIsNull { _ = try array.decode(AnyValue.self) }  // step over it so the rest is still checked
        hello = try array.decode(String.self)
        number = try array.decode(Int.self)
        dictionary = try array.decode([String: String].self)
        arrayAtEnd = array.isAtEnd
        string = try container.decode(String.self, forKey: .string)
        url = try container.decode(URL.self, forKey: .url)
        uuid = try container.decode(UUID.self, forKey: .uuid)
    }
}

/// Accepts any object without reading it.
private struct AnyValue: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// NSKeyedUnarchiver-NotificationTest.plist: field names that are not Swift identifiers.
private struct NotificationR: Decodable, Equatable {
    enum CodingKeys: String, CodingKey { case name = "NS.name", object = "NS.object", userInfo = "NS.userinfo" }
    var name: String
    var object: String
    var userInfo: [String: String]
}

/// NSKeyedUnarchiver-RangeTest.plist: numbers stored by UID rather than inline.
private struct RangeValueR: Decodable, Equatable {
    enum CodingKeys: String, CodingKey { case location = "NS.rangeval.location", length = "NS.rangeval.length", special = "NS.special" }
    var location: Int
    var length: Int
    var special: Int
}

/// NSKeyedUnarchiver-EdgeInsetsTest.plist: inline reals.
private struct EdgeInsetsR: Decodable, Equatable {
    enum CodingKeys: String, CodingKey {
        case top = "NS.edgeval.top", left = "NS.edgeval.left", bottom = "NS.edgeval.bottom", right = "NS.edgeval.right"
        case special = "NS.special"
    }
    var top: Double, left: Double, bottom: Double, right: Double
    var special: Int
}

// MARK: - nskeyedunarchiver-rs

/// note.plist: a custom class `Note`.
private struct Note: Decodable {
    var title: String
    var author: String
    var date: Int
    var published: Bool
    var array: HelloFortyTwoTrue
}

/// ["Hello, World!", 42, true]
private struct HelloFortyTwoTrue: Decodable, Equatable {
    var text: String, number: Int, flag: Bool, atEnd: Bool
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        #expect(c.count == 3)
        text = try c.decode(String.self)
        number = try c.decode(Int.self)
        flag = try c.decode(Bool.self)
        atEnd = c.isAtEnd
    }
}

/// simpleArray.plist: ["value1", "value2", ["innerValue3", "innerValue4"]]
private struct SimpleArrayR: Decodable, Equatable {
    var first: String, second: String, inner: [String]
    init(first: String, second: String, inner: [String]) { self.first = first; self.second = second; self.inner = inner }
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        first = try c.decode(String.self)
        second = try c.decode(String.self)
        inner = try c.decode([String].self)
        #expect(c.isAtEnd)
    }
}

/// simpleDict.plist
private struct SimpleDictR: Decodable, Equatable {
    enum CodingKeys: String, CodingKey { case array = "Array key", first = "First key", second = "Second key" }
    var array: [Int], first: String, second: String
}

/// NSMutableAttributedString.plist: only its NSMutableString `{NS.string}` field.
private struct AttributedStringR: Decodable {
    enum CodingKeys: String, CodingKey { case string = "NSString" }
    var string: String
}

/// NSAffineTransform.plist: 24 bytes of transform.
private struct AffineTransformR: Decodable {
    enum CodingKeys: String, CodingKey { case bytes = "NSTransformStruct" }
    var bytes: Data
}

/// A recursive type for circularReference.plist (an NSMutableArray that contains itself).
private struct NestedList: Decodable {
    var items: [NestedList]
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        var items: [NestedList] = []
        while !c.isAtEnd { items.append(try c.decode(NestedList.self)) }
        self.items = items
    }
}

private final class NestedListClass: Decodable {
    let items: [NestedListClass]
    init(from decoder: any Decoder) throws {
        items = try decoder.singleValueContainer().decode([NestedListClass].self)
    }
}

// MARK: - go-sample

/// arrays $0: [1, 1, 1.0, 1.5, data, true, "Hello, World!" ×3, false, false, 42]
private struct GoPrimitiveArray: Decodable, Equatable {
    var ints: [Int] = [], doubles: [Double] = [], data: Data, bools: [Bool] = [], strings: [String] = []
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        #expect(c.count == 12)
        ints.append(try c.decode(Int.self))
        ints.append(try c.decode(Int.self))
        doubles.append(try c.decode(Double.self))
        doubles.append(try c.decode(Double.self))
        data = try c.decode(Data.self)
        bools.append(try c.decode(Bool.self))
        for _ in 0..<3 { strings.append(try c.decode(String.self)) }
        bools.append(try c.decode(Bool.self))
        bools.append(try c.decode(Bool.self))
        ints.append(try c.decode(Int.self))
        #expect(c.isAtEnd)
    }
}

/// [true, "Hello, World!", 42] (the NSMutableArray in arrays and dict).
private struct TrueHelloFortyTwo: Decodable, Equatable {
    var flag: Bool, text: String, number: Int
    init(flag: Bool, text: String, number: Int) { self.flag = flag; self.text = text; self.number = number }
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        flag = try c.decode(Bool.self)
        text = try c.decode(String.self)
        number = try c.decode(Int.self)
        #expect(c.isAtEnd)
    }
}

/// [42, true, "Hello, World!"] (the NSMutableSet, in archive order).
private struct FortyTwoTrueHello: Decodable, Equatable {
    var number: Int, flag: Bool, text: String
    init(number: Int, flag: Bool, text: String) { self.number = number; self.flag = flag; self.text = text }
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        number = try c.decode(Int.self)
        flag = try c.decode(Bool.self)
        text = try c.decode(String.self)
        #expect(c.isAtEnd)
    }
}

private struct GoDict: Decodable, Equatable {
    var int: Int
    var string: String
    var array: TrueHelloFortyTwo
}

/// nestedarrays: [NSSet [true], NSMutableSet [42, true, "Hello, World!"]]
private struct GoNested: Decodable, Equatable {
    var flags: Set<Bool>, mixed: FortyTwoTrueHello
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        flags = try c.decode(Set<Bool>.self)
        mixed = try c.decode(FortyTwoTrueHello.self)
        #expect(c.isAtEnd)
    }
}

private struct GoPrimitives: Equatable {
    var ints: [Int], doubles: [Double], data: Data, bools: [Bool], strings: [String], keys: Set<String>
}

private let goHello = "Hello, World!"
private let goData = Data("asdfasdfadsfadsf".utf8)

// MARK: - Tests

@Suite("Archives written by Apple's Foundation (corpus/apple)", .requiresCorpus)
struct AppleCorpusTests {
    let decoder = ArchiveDecoder()

    // corelibs

    @Test("ComplexTest: NSDictionary of NSArray (with NSNull), string, NSURL, NSUUID")
    func complex() throws {
        let value = try decoder.decode(ComplexRoot.self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-ComplexTest.plist"))
        #expect(value.firstIsNull, "NSNull in an NSArray should decode as nil through decodeNil()")
        #expect(value.hello == "hello")
        #expect(value.number == 34545)
        #expect(value.dictionary == ["key": "val"])
        #expect(value.arrayAtEnd)
        #expect(value.string == "hello")
        #expect(value.url.absoluteString == "https://www.swift.org/index.xml")
        #expect(value.url.relativeString == "index.xml")
        #expect(value.url.baseURL?.absoluteString == "https://www.swift.org")
        #expect(value.uuid == UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22"))
    }

    @Test("NSNull elements read as nil in [String?]")
    func nullElements() throws {
        struct Holder: Decodable {
            enum CodingKeys: String, CodingKey { case array }
            var heads: [String?]
            init(from decoder: any Decoder) throws {
                var c = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .array)
                heads = [try c.decodeIfPresent(String.self), try c.decodeIfPresent(String.self)]
            }
        }
        let value = try decoder.decode(Holder.self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-ComplexTest.plist"))
        #expect(value.heads == [nil, "hello"])
    }

    @Test("XML archives: NSOrderedSet, NSArray with a shared string, NSURL, NSUUID")
    func corelibsXML() throws {
        #expect(try decoder.decode([String].self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-OrderedSetTest.plist"))
            == ["valgeir", "nico", "puzzle"])
        #expect(try decoder.decode([String].self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-ArrayTest.plist"))
            == ["baa", "baa", "black", "sheep"])
        let url = try decoder.decode(URL.self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-URLTest.plist"))
        #expect(url.absoluteString == "https://www.example.com/foo.xml")
        #expect(url.relativeString == "foo.xml")
        #expect(url.baseURL?.absoluteString == "https://www.example.com")
        #expect(try decoder.decode(UUID.self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-UUIDTest.plist"))
            == UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
    }

    @Test("XML archives: NSNotification, NSValue ranges, edge insets and rects as keyed structs")
    func corelibsValues() throws {
        #expect(try decoder.decode(NotificationR.self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-NotificationTest.plist"))
            == NotificationR(name: "notification-name", object: "notification-object",
                             userInfo: ["notification-key": "notification-val"]))
        #expect(try decoder.decode(RangeValueR.self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-RangeTest.plist"))
            == RangeValueR(location: 97345, length: 98345, special: 4))
        #expect(try decoder.decode(EdgeInsetsR.self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-EdgeInsetsTest.plist"))
            == EdgeInsetsR(top: 1, left: 2, bottom: 3, right: 4, special: 12))
        struct RectR: Decodable { enum CodingKeys: String, CodingKey { case rect = "NS.rectval" }; var rect: String }
        #expect(try decoder.decode(RectR.self, from: corpusData("apple/corelibs/NSKeyedUnarchiver-RectTest.plist")).rect
            == "{{400, 300}, {200, 300}}")
    }

    // nskeyedunarchiver-rs

    @Test("note.plist: a custom class with inline int and BOOL and a mixed NSArray")
    func note() throws {
        let note = try decoder.decode(Note.self, from: corpusData("apple/nskeyedunarchiver-rs/note.plist"))
        #expect(note.title == "Some cool title")
        #expect(note.author == "Michael Wright")
        #expect(note.date == 2025)
        #expect(note.published == true)
        #expect(note.array.text == "Hello, World!")
        #expect(note.array.number == 42)
        #expect(note.array.flag == true)
        #expect(note.array.atEnd)
    }

    @Test("simpleArray, simpleDict, nsData, plainString")
    func simpleValues() throws {
        #expect(try decoder.decode(SimpleArrayR.self, from: corpusData("apple/nskeyedunarchiver-rs/simpleArray.plist"))
            == SimpleArrayR.expected)
        #expect(try decoder.decode(SimpleDictR.self, from: corpusData("apple/nskeyedunarchiver-rs/simpleDict.plist"))
            == SimpleDictR(array: [1, 2, 3], first: "First value", second: "Second value"))
        #expect(try decoder.decode([String: AnyValue].self, from: corpusData("apple/nskeyedunarchiver-rs/simpleDict.plist")).keys.sorted()
            == ["Array key", "First key", "Second key"])
        #expect(try decoder.decode(Data.self, from: corpusData("apple/nskeyedunarchiver-rs/nsData.plist")) == Data("Some data!".utf8))
        #expect(try decoder.decode(String.self, from: corpusData("apple/nskeyedunarchiver-rs/plainString.plist")) == "Some string!")
    }

    @Test("AppKit objects: NSMutableAttributedString's NSMutableString, NSAffineTransform's bytes")
    func appKitObjects() throws {
        #expect(try decoder.decode(AttributedStringR.self, from: corpusData("apple/nskeyedunarchiver-rs/NSMutableAttributedString.plist")).string
            == "firstsecondthird")
        let transform = try decoder.decode(AffineTransformR.self, from: corpusData("apple/nskeyedunarchiver-rs/NSAffineTransform.plist"))
        #expect(transform.bytes.count == 24)
        #expect(transform.bytes.prefix(4) == Data([0x3F, 0x76, 0xB0, 0x7C]))
    }

    @Test("circularReference.plist: typed decoding of a self-containing array throws, it does not recurse")
    func circular() throws {
        let data = try corpusData("apple/nskeyedunarchiver-rs/circularReference.plist")
        let error = #expect(throws: DecodingError.self) { try decoder.decode(NestedList.self, from: data) }
        #expect(error.flatMap(decodingErrorMessage)?.localizedCaseInsensitiveContains("cycle") == true)
        let classError = #expect(throws: DecodingError.self) { try decoder.decode(NestedListClass.self, from: data) }
        #expect(classError.flatMap(decodingErrorMessage)?.isEmpty == false)
        #expect(try decoder.topLevelKeys(in: data) == ["root"])  // the envelope itself is fine
    }

    // go-sample

    @Test("go-sample primitives: twelve $top keys, binary and XML equal", arguments: ["bin", "xml"])
    func goPrimitives(ext: String) throws {
        let value = try Self.readPrimitives(try corpusData("apple/go-sample/primitives.\(ext)"))
        #expect(value.ints == [1, 1, 42])
        #expect(value.doubles == [1.0, 1.5])
        #expect(value.data == goData)
        #expect(value.bools == [true, false, false])
        #expect(value.strings == [goHello, goHello, goHello])
        #expect(value.keys == Set((0...11).map { "$\($0)" }))
    }

    @Test("go-sample: binary (.bin) and XML (.xml) decode to equal values")
    func goBinaryEqualsXML() throws {
        func both<T: Decodable & Equatable>(_ name: String, _ type: T.Type, key: String = "$0") throws -> T {
            let binary = try decoder.decode(type, forKey: key, from: corpusData("apple/go-sample/\(name).bin"))
            let xml = try decoder.decode(type, forKey: key, from: corpusData("apple/go-sample/\(name).xml"))
            #expect(binary == xml, "\(name) \(key)")
            return binary
        }
        #expect(try Self.readPrimitives(corpusData("apple/go-sample/primitives.bin"))
            == Self.readPrimitives(corpusData("apple/go-sample/primitives.xml")))

        let array = try both("arrays", GoPrimitiveArray.self)
        #expect(array.ints == [1, 1, 42])
        #expect(array.doubles == [1.0, 1.5])
        #expect(array.data == goData)
        #expect(array.bools == [true, false, false])
        #expect(array.strings == [goHello, goHello, goHello])
        #expect(try both("arrays", TrueHelloFortyTwo.self, key: "$1") == TrueHelloFortyTwo.expected)
        #expect(try both("arrays", Set<Bool>.self, key: "$2") == [true])
        #expect(try both("arrays", FortyTwoTrueHello.self, key: "$3") == FortyTwoTrueHello.expected)

        let dict = try both("dict", GoDict.self)
        #expect(dict == GoDict(int: 1, string: "string", array: TrueHelloFortyTwo.expected))

        let nested = try both("nestedarrays", GoNested.self)
        #expect(nested.flags == [true])
        #expect(nested.mixed == FortyTwoTrueHello.expected)

        #expect(try both("onevalue", Bool.self) == true)
    }

    @Test("go-sample: topLevelKeys lists $0, $1, …; without root one key unwraps and several are a keyed $top",
          arguments: ["arrays.bin", "arrays.xml", "onevalue.bin", "onevalue.xml"])
    func goTopLevelKeys(name: String) throws {
        let data = try corpusData("apple/go-sample/\(name)")
        let keys = try decoder.topLevelKeys(in: data)
        #expect(Set(keys) == (name.hasPrefix("arrays") ? ["$0", "$1", "$2", "$3"] : ["$0"]))
        if name.hasPrefix("onevalue") {
            #expect(try decoder.decode(Bool.self, from: data) == true)
        } else {
            let top = try decoder.decode(GoArraysTop.self, from: data)
            #expect(top.one == TrueHelloFortyTwo.expected)
            #expect(top.two == [true])
            #expect(top.three == FortyTwoTrueHello.expected)
        }
    }

    /// primitives.bin / .xml: `$0` … `$11`, each a top-level value.
    fileprivate static func readPrimitives(_ data: Data) throws -> GoPrimitives {
        let d = ArchiveDecoder()
        return GoPrimitives(
            ints: [try d.decode(Int.self, forKey: "$0", from: data), try d.decode(Int.self, forKey: "$1", from: data),
                   try d.decode(Int.self, forKey: "$11", from: data)],
            doubles: [try d.decode(Double.self, forKey: "$2", from: data), try d.decode(Double.self, forKey: "$3", from: data)],
            data: try d.decode(Data.self, forKey: "$4", from: data),
            bools: [try d.decode(Bool.self, forKey: "$5", from: data), try d.decode(Bool.self, forKey: "$9", from: data),
                    try d.decode(Bool.self, forKey: "$10", from: data)],
            strings: try ["$6", "$7", "$8"].map { try d.decode(String.self, forKey: $0, from: data) },
            keys: Set(try d.topLevelKeys(in: data)))
    }
}

private extension SimpleArrayR {
    static let expected = SimpleArrayR(first: "value1", second: "value2", inner: ["innerValue3", "innerValue4"])
}

private extension TrueHelloFortyTwo {
    static let expected = TrueHelloFortyTwo(flag: true, text: "Hello, World!", number: 42)
}

private extension FortyTwoTrueHello {
    static let expected = FortyTwoTrueHello(number: 42, flag: true, text: "Hello, World!")
}

/// go-sample/arrays: `$top` has `$0` … `$3` and no `root`, so the whole `$top` is the value.
private struct GoArraysTop: Decodable {
    var one: TrueHelloFortyTwo
    var two: Set<Bool>
    var three: FortyTwoTrueHello
    enum CodingKeys: String, CodingKey { case one = "$1", two = "$2", three = "$3" }
}
