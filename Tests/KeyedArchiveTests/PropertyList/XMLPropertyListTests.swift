import Foundation
import Testing
@testable import KeyedArchive

/// Tests of the XML property-list reader and writer, including interoperability with
/// Foundation's `PropertyListSerialization` and Python's `plistlib`.
@Suite("XML property lists")
struct XMLPropertyListTests {
    // MARK: - Helpers

    /// Compares values exactly: reals and dates by bit pattern (so `-0.0 != 0.0`), and any
    /// NaN equal to any NaN (the XML format cannot carry NaN payloads).
    static func identical(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case (.real(let x), .real(let y)), (.date(let x), .date(let y)):
            return x.isNaN ? y.isNaN : x.bitPattern == y.bitPattern
        case (.float(let x), .float(let y)):
            return x.isNaN ? y.isNaN : x.bitPattern == y.bitPattern
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { Self.identical($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && Self.identical($0.value, $1.value) }
        default:
            return a == b
        }
    }

    static func dict(_ pairs: [(String, PropertyListValue)]) -> PropertyListValue {
        .dictionary(pairs.map { PropertyListEntry(key: $0.0, value: $0.1) })
    }

    /// Recursively sorts dictionary keys (Foundation writes and reads unordered dictionaries).
    static func sortedKeys(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .array(let items):
            return .array(items.map(Self.sortedKeys))
        case .dictionary(let entries):
            return .dictionary(entries.map { PropertyListEntry(key: $0.key, value: Self.sortedKeys($0.value)) }
                .sorted { $0.key < $1.key })
        default:
            return value
        }
    }

    /// Wraps a value's XML in a `<plist>` root.
    static func plist(_ body: String) -> [UInt8] {
        Array("<plist version=\"1.0\">\(body)</plist>".utf8)
    }

    /// The full document our writer produces around `body` (already indented for depth 0).
    static func document(_ body: String) -> String {
        String(decoding: XMLPropertyListWriter.header, as: UTF8.self) + body + "</plist>\n"
    }

    /// Converts what Foundation's `PropertyListSerialization` returns into our value type.
    /// Returns `nil` for anything unexpected (including UIDs, which are opaque on Linux).
    static func fromFoundation(_ any: Any) -> PropertyListValue? {
        if let s = any as? String { return .string(s) }
        if let d = any as? Data { return .data(d) }
        if let d = any as? Date { return .date(d.timeIntervalSinceReferenceDate) }
        if let n = any as? NSNumber {
            switch String(cString: n.objCType) {
            case "c": return .bool(n.boolValue)
            case "d", "f": return .real(n.doubleValue)
            case "Q":
                let u = n.uint64Value
                return u > UInt64(Int64.max) ? .unsignedInteger(u) : .integer(Int64(u))
            default: return .integer(n.int64Value)
            }
        }
        if let a = any as? [Any] {
            var items: [PropertyListValue] = []
            for element in a {
                guard let v = Self.fromFoundation(element) else { return nil }
                items.append(v)
            }
            return .array(items)
        }
        if let d = any as? [String: Any] {
            var entries: [PropertyListEntry] = []
            for (k, element) in d {
                guard let v = Self.fromFoundation(element) else { return nil }
                entries.append(PropertyListEntry(key: k, value: v))
            }
            return .dictionary(entries.sorted { $0.key < $1.key })
        }
        return nil
    }

    /// A rich value with every type, edge values and nesting, in insertion order.
    static let richValue: PropertyListValue = Self.dict([
        ("string", .string("Hello, wörld! 😀 <&> \"quotes\" 'apos' ]]> &amp;")),
        ("empty", .string("")),
        ("whitespace", .string("  leading and trailing\n\tlines  ")),
        ("int", .integer(42)),
        ("negative", .integer(-7)),
        ("int64Min", .integer(.min)),
        ("int64Max", .integer(.max)),
        ("uint64Max", .unsignedInteger(.max)),
        ("pi", .real(3.141592653589793)),
        ("tenth", .real(0.1)),
        ("tiny", .real(.leastNonzeroMagnitude)),
        ("huge", .real(1.7976931348623157e308)),
        ("whole", .real(100)),
        ("negativeZero", .real(-0.0)),
        ("yes", .bool(true)),
        ("no", .bool(false)),
        ("leapDay", .date(730_902_896)),  // 2024-02-29T12:34:56Z
        ("unixEpoch", .date(-978_307_200)),
        ("bytes", .data(Data((0..<200).map { UInt8($0) }))),
        ("emptyData", .data(Data())),
        ("uid", .uid(3)),
        ("uidMax", .uid(UInt64(UInt32.max))),
        ("array", .array([.integer(1), .string("two"), .array([]), Self.dict([])])),
        ("nested", Self.dict([
            ("deep", .array([.array([.array([.data(Data(repeating: 0xAB, count: 100))])])])),
            ("zz", .string("last")),
        ])),
    ])

    /// Deterministic pseudo-random numbers (SplitMix64) for the mutation test.
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func next(below bound: Int) -> Int {
            Int(next() % UInt64(bound))
        }
    }

    /// The path of `python3` on `PATH`, if any.
    static let python3Path: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    // MARK: - Reading single values

    struct ReadCase: Sendable, CustomTestStringConvertible {
        let xml: String
        let expected: PropertyListValue
        var testDescription: String { xml }
    }

    static let readCases: [ReadCase] = [
        // Strings, entities, CDATA, comments inside text.
        ReadCase(xml: "<string>hello</string>", expected: .string("hello")),
        ReadCase(xml: "<string/>", expected: .string("")),
        ReadCase(xml: "<string></string>", expected: .string("")),
        ReadCase(xml: "<string> \n spaced\t</string>", expected: .string(" \n spaced\t")),
        ReadCase(xml: "<string>&lt;&gt;&amp;&quot;&apos;</string>", expected: .string("<>&\"'")),
        ReadCase(xml: "<string>&#65;&#x42;&#X43;&#x1F600;&#233;</string>", expected: .string("ABC😀é")),
        ReadCase(xml: "<string><![CDATA[<not a tag> & ]]></string>", expected: .string("<not a tag> & ")),
        ReadCase(xml: "<string>a<![CDATA[<]]>b&amp;c<!-- note -->d</string>", expected: .string("a<b&cd")),
        ReadCase(xml: "<string>wörld 😀</string>", expected: .string("wörld 😀")),
        ReadCase(xml: "<key>k</key>", expected: .string("k")),
        ReadCase(xml: "<key/>", expected: .string("")),
        // Integers.
        ReadCase(xml: "<integer>0</integer>", expected: .integer(0)),
        ReadCase(xml: "<integer>-0</integer>", expected: .integer(0)),
        ReadCase(xml: "<integer>+5</integer>", expected: .integer(5)),
        ReadCase(xml: "<integer>-42</integer>", expected: .integer(-42)),
        ReadCase(xml: "<integer> 7 </integer>", expected: .integer(7)),
        ReadCase(xml: "<integer>0x1F</integer>", expected: .integer(31)),
        ReadCase(xml: "<integer>0XfF</integer>", expected: .integer(255)),
        ReadCase(xml: "<integer>-0x10</integer>", expected: .integer(-16)),
        ReadCase(xml: "<integer>9223372036854775807</integer>", expected: .integer(.max)),
        ReadCase(xml: "<integer>-9223372036854775808</integer>", expected: .integer(.min)),
        ReadCase(xml: "<integer>9223372036854775808</integer>", expected: .unsignedInteger(1 << 63)),
        ReadCase(xml: "<integer>18446744073709551615</integer>", expected: .unsignedInteger(.max)),
        ReadCase(xml: "<integer>0xFFFFFFFFFFFFFFFF</integer>", expected: .unsignedInteger(.max)),
        // Reals.
        ReadCase(xml: "<real>1.5</real>", expected: .real(1.5)),
        ReadCase(xml: "<real>-2.5e-3</real>", expected: .real(-0.0025)),
        ReadCase(xml: "<real>.5</real>", expected: .real(0.5)),
        ReadCase(xml: "<real>5.</real>", expected: .real(5)),
        ReadCase(xml: "<real>1E10</real>", expected: .real(1e10)),
        ReadCase(xml: "<real>0.10000000000000001</real>", expected: .real(0.1)),
        ReadCase(xml: "<real>-0</real>", expected: .real(-0.0)),
        ReadCase(xml: "<real>1e400</real>", expected: .real(.infinity)),
        ReadCase(xml: "<real>inf</real>", expected: .real(.infinity)),
        ReadCase(xml: "<real>+INF</real>", expected: .real(.infinity)),
        ReadCase(xml: "<real>-inf</real>", expected: .real(-.infinity)),
        ReadCase(xml: "<real>+infinity</real>", expected: .real(.infinity)),
        ReadCase(xml: "<real>-Infinity</real>", expected: .real(-.infinity)),
        ReadCase(xml: "<real>nan</real>", expected: .real(.nan)),
        ReadCase(xml: "<real>NaN</real>", expected: .real(.nan)),
        // Booleans.
        ReadCase(xml: "<true/>", expected: .bool(true)),
        ReadCase(xml: "<false/>", expected: .bool(false)),
        ReadCase(xml: "<true></true>", expected: .bool(true)),
        // Dates.
        ReadCase(xml: "<date>2001-01-01T00:00:00Z</date>", expected: .date(0)),
        ReadCase(xml: "<date>1970-01-01T00:00:00Z</date>", expected: .date(-978_307_200)),
        ReadCase(xml: "<date>2024-02-29T12:34:56Z</date>", expected: .date(730_902_896)),
        ReadCase(xml: "<date>2000-12-31T23:59:59.5Z</date>", expected: .date(-0.5)),
        ReadCase(xml: "<date>2001-01-01T00:00:01.25Z</date>", expected: .date(1.25)),
        ReadCase(xml: "<date>0001-01-01T00:00:00Z</date>", expected: .date(-63_113_904_000)),
        ReadCase(xml: "<date>-0001-12-31T23:59:59Z</date>", expected: .date(-63_113_904_000 - 366 * 86_400 - 1)),
        // Data.
        ReadCase(xml: "<data>AAEC</data>", expected: .data(Data([0, 1, 2]))),
        ReadCase(xml: "<data>\n\tAA\n\tEC\n\t</data>", expected: .data(Data([0, 1, 2]))),
        ReadCase(xml: "<data>AA==</data>", expected: .data(Data([0]))),
        ReadCase(xml: "<data>AAE=</data>", expected: .data(Data([0, 1]))),
        ReadCase(xml: "<data>/+/+</data>", expected: .data(Data([0xFF, 0xEF, 0xFE]))),
        ReadCase(xml: "<data/>", expected: .data(Data())),
        ReadCase(xml: "<data>\n</data>", expected: .data(Data())),
        // Containers and UIDs.
        ReadCase(xml: "<dict/>", expected: Self.dict([])),
        ReadCase(xml: "<array/>", expected: .array([])),
        ReadCase(xml: "<dict></dict>", expected: Self.dict([])),
        ReadCase(xml: "<array>\n</array>", expected: .array([])),
        ReadCase(xml: "<array><integer>1</integer><!-- c --><string>x</string></array>",
                 expected: .array([.integer(1), .string("x")])),
        ReadCase(xml: "<dict><key>b</key><true/><key>a</key><dict/><key>b</key><false/></dict>",
                 expected: Self.dict([("b", .bool(true)), ("a", Self.dict([])), ("b", .bool(false))])),
        ReadCase(xml: "<dict><key>CF$UID</key><integer>5</integer></dict>", expected: .uid(5)),
        ReadCase(xml: "<dict>\n\t<key>CF$UID</key>\n\t<integer>4294967295</integer>\n</dict>", expected: .uid(4_294_967_295)),
        // Out of UID range, negative, wrong type, or extra entries: stays a dictionary.
        ReadCase(xml: "<dict><key>CF$UID</key><integer>4294967296</integer></dict>",
                 expected: Self.dict([("CF$UID", .integer(4_294_967_296))])),
        ReadCase(xml: "<dict><key>CF$UID</key><integer>-1</integer></dict>",
                 expected: Self.dict([("CF$UID", .integer(-1))])),
        ReadCase(xml: "<dict><key>CF$UID</key><string>1</string></dict>",
                 expected: Self.dict([("CF$UID", .string("1"))])),
        ReadCase(xml: "<dict><key>CF$UID</key><integer>1</integer><key>x</key><integer>1</integer></dict>",
                 expected: Self.dict([("CF$UID", .integer(1)), ("x", .integer(1))])),
    ]

    @Test("Reads each value type", arguments: XMLPropertyListTests.readCases)
    func readsSingleValue(_ c: ReadCase) throws {
        let wrapped = try XMLPropertyListReader.read(Self.plist(c.xml))
        #expect(Self.identical(wrapped, c.expected), "got \(wrapped)")
        // The same value without the <plist> wrapper.
        let bare = try XMLPropertyListReader.read(Array(c.xml.utf8))
        #expect(Self.identical(bare, c.expected), "got \(bare)")
    }

    @Test func readsPrologBOMDoctypeAndComments() throws {
        let xml = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- before doctype -->\n"
            + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\" [ <!ENTITY x \"y>\"> ]>\n"
            + "<!-- c1 --><plist version='1.0' >\n<!-- c2 -->\n<dict >\n<!-- c3 -->\n\t<key>a</key>\n<!-- c4 -->\n\t<array>\n<!-- c5 -->\n</array >\n</dict>\n<!-- c6 -->\n</plist>\n<!-- trailing -->\n  "
        let value = try XMLPropertyListReader.read(Array(xml.utf8))
        #expect(value == Self.dict([("a", .array([]))]))
    }

    // MARK: - Writing

    struct WriteCase: Sendable, CustomTestStringConvertible {
        let value: PropertyListValue
        let body: String
        var testDescription: String { body }
    }

    static let writeCases: [WriteCase] = [
        WriteCase(value: .string("a<b>&c\"'"), body: "<string>a&lt;b&gt;&amp;c\"'</string>\n"),
        WriteCase(value: .string(""), body: "<string></string>\n"),
        WriteCase(value: .integer(-42), body: "<integer>-42</integer>\n"),
        WriteCase(value: .integer(.min), body: "<integer>-9223372036854775808</integer>\n"),
        WriteCase(value: .unsignedInteger(.max), body: "<integer>18446744073709551615</integer>\n"),
        WriteCase(value: .real(0.1), body: "<real>0.1</real>\n"),
        WriteCase(value: .real(1), body: "<real>1</real>\n"),
        WriteCase(value: .real(-0.0), body: "<real>-0</real>\n"),
        WriteCase(value: .real(1e300), body: "<real>1e+300</real>\n"),
        WriteCase(value: .real(.leastNonzeroMagnitude), body: "<real>5e-324</real>\n"),
        WriteCase(value: .real(.infinity), body: "<real>+infinity</real>\n"),
        WriteCase(value: .real(-.infinity), body: "<real>-infinity</real>\n"),
        WriteCase(value: .real(.nan), body: "<real>nan</real>\n"),
        WriteCase(value: .float(0.5), body: "<real>0.5</real>\n"),
        WriteCase(value: .float(0.1), body: "<real>0.10000000149011612</real>\n"),
        WriteCase(value: .bool(true), body: "<true/>\n"),
        WriteCase(value: .bool(false), body: "<false/>\n"),
        WriteCase(value: .date(0), body: "<date>2001-01-01T00:00:00Z</date>\n"),
        WriteCase(value: .date(12.75), body: "<date>2001-01-01T00:00:12Z</date>\n"),
        WriteCase(value: .date(-0.5), body: "<date>2000-12-31T23:59:59Z</date>\n"),
        WriteCase(value: .date(730_902_896), body: "<date>2024-02-29T12:34:56Z</date>\n"),
        WriteCase(value: .date(-63_113_904_000), body: "<date>0001-01-01T00:00:00Z</date>\n"),
        WriteCase(value: .date(-63_113_904_001), body: "<date>0000-12-31T23:59:59Z</date>\n"),
        WriteCase(value: .date(-63_113_904_000 - 366 * 86_400 - 1), body: "<date>-0001-12-31T23:59:59Z</date>\n"),
        WriteCase(value: .date(.nan), body: "<date>2001-01-01T00:00:00Z</date>\n"),
        WriteCase(value: .date(.infinity), body: "<date>999999999-12-31T23:59:59Z</date>\n"),
        WriteCase(value: .data(Data()), body: "<data>\n</data>\n"),
        WriteCase(value: .data(Data([0, 1, 2, 3])), body: "<data>\nAAECAw==\n</data>\n"),
        WriteCase(value: .uid(7), body: "<dict>\n\t<key>CF$UID</key>\n\t<integer>7</integer>\n</dict>\n"),
        WriteCase(value: .array([]), body: "<array/>\n"),
        WriteCase(value: Self.dict([]), body: "<dict/>\n"),
        WriteCase(value: Self.dict([("a&b", .array([.uid(1), .data(Data([0xFF]))]))]), body: """
            <dict>
            \t<key>a&amp;b</key>
            \t<array>
            \t\t<dict>
            \t\t\t<key>CF$UID</key>
            \t\t\t<integer>1</integer>
            \t\t</dict>
            \t\t<data>
            \t\t/w==
            \t\t</data>
            \t</array>
            </dict>

            """),
    ]

    @Test("Writes each value type in Apple's layout", arguments: XMLPropertyListTests.writeCases)
    func writesSingleValue(_ c: WriteCase) {
        let out = String(decoding: XMLPropertyListWriter.write(c.value), as: UTF8.self)
        #expect(out == Self.document(c.body))
    }

    @Test func base64LinesWrapLikeFoundation() {
        // 57 bytes fill exactly one 76-column line at depth 0; 58 spill onto a second line.
        let one = String(decoding: XMLPropertyListWriter.write(.data(Data(repeating: 0, count: 57))), as: UTF8.self)
        #expect(one == Self.document("<data>\n" + String(repeating: "A", count: 76) + "\n</data>\n"))
        let two = String(decoding: XMLPropertyListWriter.write(.data(Data(repeating: 0, count: 58))), as: UTF8.self)
        #expect(two == Self.document("<data>\n" + String(repeating: "A", count: 76) + "\nAA==\n</data>\n"))
        // At depth 1 the tab costs 8 columns: 68 characters per line.
        let nested = String(decoding: XMLPropertyListWriter.write(.array([.data(Data(repeating: 0, count: 51))])), as: UTF8.self)
        #expect(nested == Self.document("<array>\n\t<data>\n\t" + String(repeating: "A", count: 68) + "\n\t</data>\n</array>\n"))
    }

    // MARK: - Round trips

    @Test func richValueRoundTrips() throws {
        let bytes = XMLPropertyListWriter.write(Self.richValue)
        let back = try XMLPropertyListReader.read(bytes)
        #expect(Self.identical(back, Self.richValue))
        // Deterministic: writing the value read back gives the same bytes.
        #expect(XMLPropertyListWriter.write(back) == bytes)
    }

    @Test("Round-trips single values",
          arguments: [
              PropertyListValue.string("x"), .string(" \t\n"), .string("&&<<>>;"), .string("]]>"), .string("\u{0}\u{1}\u{7F}é"),
              .integer(0), .integer(-1), .integer(.max), .integer(.min), .unsignedInteger(UInt64(Int64.max) + 1),
              .real(0), .real(-0.0), .real(1), .real(-1.5), .real(.pi), .real(.ulpOfOne), .real(.leastNonzeroMagnitude),
              .real(.leastNormalMagnitude), .real(.greatestFiniteMagnitude), .real(-.greatestFiniteMagnitude),
              .real(.infinity), .real(-.infinity), .real(.nan), .real(123_456_789_012_345_680),
              .bool(true), .bool(false), .date(0), .date(-1), .date(1e10), .date(-1e11),
              .data(Data()), .data(Data([0])), .data(Data([0, 1])), .data(Data(repeating: 0x5A, count: 1000)),
              .uid(0), .uid(UInt64(UInt32.max)), .array([.array([.array([])])]), XMLPropertyListTests.dict([("", .string(""))]),
          ])
    func singleValueRoundTrips(_ value: PropertyListValue) throws {
        let back = try XMLPropertyListReader.read(XMLPropertyListWriter.write(value))
        #expect(Self.identical(back, value), "got \(back)")
    }

    @Test func floatsReadBackAsTheDoubleTheyWiden() throws {
        for f: Float in [0.1, 1.0 / 3.0, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0, 16_777_216] {
            let back = try XMLPropertyListReader.read(XMLPropertyListWriter.write(.float(f)))
            #expect(Self.identical(back, .real(Double(f))), "\(f) came back as \(back)")
        }
    }

    @Test func randomRealsRoundTripBitForBit() throws {
        var rng = SplitMix64(state: 42)
        var items: [PropertyListValue] = []
        for _ in 0..<2_000 {
            let d = Double(bitPattern: rng.next())
            items.append(.real(d))
        }
        let back = try XMLPropertyListReader.read(XMLPropertyListWriter.write(.array(items)))
        #expect(Self.identical(back, .array(items)))
    }

    @Test func wholeSecondDatesRoundTripAcrossCenturies() throws {
        var rng = SplitMix64(state: 7)
        var items: [PropertyListValue] = []
        for _ in 0..<2_000 {
            // Roughly years -9000...11000.
            let seconds = Int64(rng.next(below: 631_000_000_000)) - 315_500_000_000 - 63_000_000_000
            items.append(.date(Double(seconds)))
        }
        let bytes = XMLPropertyListWriter.write(.array(items))
        let back = try XMLPropertyListReader.read(bytes)
        #expect(Self.identical(back, .array(items)))
    }

    @Test func datesAgreeWithFoundationCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        var rng = SplitMix64(state: 99)
        for _ in 0..<200 {
            // 1601...2399, where Foundation's Gregorian calendar is proleptic-free.
            let seconds = Double(rng.next(below: 25_000_000_000)) - 12_600_000_000
            let text = XMLPropertyListWriter.dateDescription(seconds)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSinceReferenceDate: seconds))
            let expected = String(format: "%04ld-%02ld-%02ldT%02ld:%02ld:%02ldZ",
                                  c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
            #expect(text == expected)
        }
    }

    @Test func deepNestingWithinTheLimitParsesIteratively() throws {
        let depth = 10_000
        let xml = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        let value = try XMLPropertyListReader.read(Array(xml.utf8), maxDepth: depth)
        var levels = 0
        var current = value
        while case .array(let items) = current {
            levels += 1
            guard let first = items.first else { break }
            current = first
        }
        #expect(levels == depth)
    }

    // MARK: - Interoperability with Foundation

    @Test func readsFoundationXML() throws {
        let object: [String: Any] = [
            "string": "Hello, wörld! <&> \"q\"",
            "int": 42,
            "negative": -7,
            "uint64Max": UInt64.max,
            "real": 0.1,
            "whole": 100.0,
            "yes": true,
            "no": false,
            "date": Date(timeIntervalSinceReferenceDate: 730_902_896),
            "data": Data((0..<200).map { UInt8($0) }),
            "empty": [String: Any](),
            "list": [1, "two", [Any](), Data()] as [Any],
            "nested": ["deep": [[[Data(repeating: 0xAB, count: 100)]]]],
            "inf": Double.infinity,
            "minusInf": -Double.infinity,
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        let value = try XMLPropertyListReader.read([UInt8](data))
        let expected = Self.sortedKeys(Self.dict([
            ("string", .string("Hello, wörld! <&> \"q\"")),
            ("int", .integer(42)),
            ("negative", .integer(-7)),
            ("uint64Max", .unsignedInteger(.max)),
            ("real", .real(0.1)),
            ("whole", .real(100)),
            ("yes", .bool(true)),
            ("no", .bool(false)),
            ("date", .date(730_902_896)),
            ("data", .data(Data((0..<200).map { UInt8($0) }))),
            ("empty", Self.dict([])),
            ("list", .array([.integer(1), .string("two"), .array([]), .data(Data())])),
            ("nested", Self.dict([("deep", .array([.array([.array([.data(Data(repeating: 0xAB, count: 100))])])]))])),
            ("inf", .real(.infinity)),
            ("minusInf", .real(-.infinity)),
        ]))
        #expect(Self.identical(value, expected), "got \(value)")

        let nan = try PropertyListSerialization.data(fromPropertyList: [Double.nan], format: .xml, options: 0)
        let nanValue = try XMLPropertyListReader.read([UInt8](nan))
        #expect(Self.identical(nanValue, .array([.real(.nan)])))
    }

    @Test func readsNSKeyedArchiverXMLWithUIDs() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        archiver.encode(NSArray(array: ["a", "b", "a"]), forKey: "root")
        archiver.finishEncoding()
        let value = try XMLPropertyListReader.read([UInt8](archiver.encodedData))
        #expect(value["$archiver"] == .string("NSKeyedArchiver"))
        #expect(value["$top"]?["root"] == .uid(1))
        guard case .array(let objects)? = value["$objects"] else {
            Issue.record("no $objects array in \(value)")
            return
        }
        #expect(objects.first == .string("$null"))
        // The array object refers to its elements by UID.
        let arrayObject = objects.first { $0["NS.objects"] != nil }
        guard case .array(let refs)? = arrayObject?["NS.objects"] else {
            Issue.record("no NS.objects in \(objects)")
            return
        }
        #expect(refs.count == 3)
        #expect(refs[0] == refs[2])
        #expect(refs.allSatisfy { if case .uid = $0 { return true } else { return false } })
    }

    /// `richValue` without what Foundation cannot represent faithfully in this comparison.
    static let foundationComparable: PropertyListValue = {
        guard case .dictionary(let entries) = Self.richValue else { return Self.richValue }
        return .dictionary(entries.filter { !$0.key.hasPrefix("uid") })
    }()

    @Test func foundationParsesOurOutput() throws {
        let bytes = XMLPropertyListWriter.write(Self.foundationComparable)
        var format = PropertyListSerialization.PropertyListFormat.binary
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        #expect(format == .xml)
        let converted = try #require(Self.fromFoundation(object))
        #expect(converted == Self.sortedKeys(Self.foundationComparable), "Foundation read \(converted)")
    }

    @Test func foundationRoundTripKeepsUIDs() throws {
        // Ours → Foundation → Foundation's XML → ours. UIDs are opaque objects in Foundation on
        // Linux, so this is how their values are checked.
        let bytes = XMLPropertyListWriter.write(Self.richValue)
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        let again = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        let back = try XMLPropertyListReader.read([UInt8](again))
        #expect(back == Self.sortedKeys(Self.richValue), "got \(back)")
    }

    @Test func writerMatchesFoundationByteForByte() throws {
        // Foundation formats fractional reals with %.17g and zero as "0.0", so this value only
        // uses reals both write the same way; everything else must be identical.
        let object: [String: Any] = [
            "a": "text with <&> and 'quotes' \"here\"",
            "b": [1, -2, "x", [Any](), [String: Any](), true, false] as [Any],
            "c": UInt64.max,
            "d": Date(timeIntervalSinceReferenceDate: -0.5),
            "e": Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }),
            "f": Data(),
            "g": [[[[[[[[[[["deep": Data(repeating: 1, count: 40)]]]]]]]]]]],
            "h": [Double.infinity, -Double.infinity, Double.nan, 100.0, -3.0, 1.5],
            "i": ["nested": ["dict": Date(timeIntervalSinceReferenceDate: 730_902_896)]],
        ]
        let foundation = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        let ours = XMLPropertyListWriter.write(try XMLPropertyListReader.read([UInt8](foundation)))
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }

    // MARK: - Interoperability with Python

    @Test(.enabled(if: XMLPropertyListTests.python3Path != nil, "python3 is not on PATH"))
    func pythonPlistlibReadsOurOutput() throws {
        let directory = try Scratch.folder("xmlplist")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.plist")
        let summary = directory.appendingPathComponent("summary.json")
        try Data(XMLPropertyListWriter.write(Self.richValue)).write(to: input)

        // Load with plistlib, record each top-level value's Python type, and write the value
        // back out as XML for us to read.
        let script = """
            import json, plistlib, sys
            with open(sys.argv[1], 'rb') as f:
                value = plistlib.load(f)
            with open(sys.argv[2], 'w') as f:
                json.dump({k: type(v).__name__ for k, v in value.items()}, f)
            sys.stdout.buffer.write(plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=False))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python3Path ?? "python3")
        process.arguments = ["-c", script, input.path, summary.path]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 failed: \(String(decoding: errors, as: UTF8.self))")

        let types = try JSONSerialization.jsonObject(with: Data(contentsOf: summary)) as? [String: String]
        #expect(types?["string"] == "str")
        #expect(types?["uint64Max"] == "int")
        #expect(types?["tiny"] == "float")
        #expect(types?["whole"] == "float")
        #expect(types?["yes"] == "bool")
        #expect(types?["leapDay"] == "datetime")
        #expect(types?["bytes"] == "bytes")
        #expect(types?["uid"] == "dict")  // XML plistlib keeps CF$UID dictionaries as dictionaries
        #expect(types?["nested"] == "dict")

        // What Python wrote back is the same value (Python keeps key order).
        let back = try XMLPropertyListReader.read([UInt8](output))
        #expect(Self.identical(back, Self.richValue), "python wrote \(String(decoding: output, as: UTF8.self))")
    }

    // MARK: - Malformed input

    struct Malformed: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        /// A fragment the error message must contain (names the broken rule).
        let message: String
        let name: String
        var testDescription: String { name }

        init(_ xml: String, _ message: String) {
            self.bytes = Array(xml.utf8)
            self.message = message
            self.name = xml.count > 80 ? String(xml.prefix(80)) + "…" : xml
        }

        init(bytes: [UInt8], _ message: String, name: String) {
            self.bytes = bytes
            self.message = message
            self.name = name
        }
    }

    static let malformedCases: [Malformed] = [
        // Nothing to read.
        Malformed("", "no property-list value"),
        Malformed(" \n<!-- only a comment -->\n", "no property-list value"),
        // <plist> must hold exactly one value and be closed.
        Malformed("<plist version=\"1.0\"></plist>", "empty <plist>"),
        Malformed("<plist/>", "empty <plist>"),
        Malformed("<plist><string>a</string>", "<plist> is not closed"),
        Malformed("<plist><string>a</string><string>b</string></plist>", "more than one value"),
        Malformed("<plist><plist><string/></plist></plist>", "nested <plist>"),
        Malformed("<plist>text<string>a</string></plist>", "unexpected text inside <plist>"),
        // Nothing but comments and whitespace may follow the root value.
        Malformed("<plist><string>a</string></plist>trailing", "after the root value"),
        Malformed("<plist><string>a</string></plist><plist/>", "after the root value"),
        Malformed("<string>a</string><string>b</string>", "after the root value"),
        Malformed("garbage<plist/>", "text before the root"),
        // Malformed tags.
        Malformed("<<plist/>", "malformed tag"),
        Malformed("<plist><string>a</string></plist", "malformed closing tag"),
        Malformed("<plist><string>a</ string></plist>", "malformed closing tag"),
        Malformed("<plist><string a></string></plist>", "malformed attribute"),
        Malformed("<plist><string a=\"x></string></plist>", "'<' in attribute value"),
        Malformed("<plist><string a=\"x\"b=\"y\"></string></plist>", "malformed tag"),
        Malformed("<plist><string", "unterminated tag"),
        Malformed("<plist><true/ ></plist>", "malformed tag"),
        // Close tags must match.
        Malformed("<plist><array></dict></plist>", "mismatched closing tag </dict>, expected </array>"),
        Malformed("<plist><string>a</strin></plist>", "mismatched closing tag </strin>"),
        Malformed("<plist><dict></array></plist>", "mismatched closing tag"),
        Malformed("<plist><array><string>a</string>", "<array> opened here is not closed"),
        Malformed("<plist><string>abc", "<string> is not closed"),
        // Unknown elements (tag names are case-sensitive).
        Malformed("<plist><foo/></plist>", "unknown tag <foo>"),
        Malformed("<plist><String>a</String></plist>", "unknown tag <String>"),
        Malformed("<plist><array><nil/></array></plist>", "unknown tag <nil>"),
        // Dictionary structure.
        Malformed("<plist><dict><key>a</key></dict></plist>", "key without a value"),
        Malformed("<plist><dict><key>a</key><key>b</key><string/></dict></plist>", "key without a value"),
        Malformed("<plist><dict><string>a</string></dict></plist>", "expected <key> in dictionary, found <string>"),
        Malformed("<plist><dict><key>a</key><true/><integer>1</integer></dict></plist>", "expected <key>"),
        Malformed("<plist><dict><key>a</key><true/>text</dict></plist>", "unexpected text inside <dict>"),
        Malformed("<plist><array>text</array></plist>", "unexpected text inside <array>"),
        Malformed("<plist><dict><key>a<b/></key><string/></dict></plist>", "unexpected markup inside <key>"),
        // Elements inside scalar elements.
        Malformed("<plist><string>a<b/></string></plist>", "unexpected markup inside <string>"),
        Malformed("<plist><data>AAAA<x/></data></plist>", "unexpected markup inside <data>"),
        Malformed("<plist><true>x</true></plist>", "<true> must be empty"),
        Malformed("<plist>\n<![CDATA[x]]></plist>", "unexpected markup"),
        // Integers.
        Malformed("<plist><integer>12a</integer></plist>", "malformed integer"),
        Malformed("<plist><integer></integer></plist>", "empty <integer>"),
        Malformed("<plist><integer/></plist>", "empty <integer>"),
        Malformed("<plist><integer>-</integer></plist>", "malformed integer"),
        Malformed("<plist><integer>--1</integer></plist>", "malformed integer"),
        Malformed("<plist><integer>0x</integer></plist>", "malformed integer"),
        Malformed("<plist><integer>0x1G</integer></plist>", "malformed integer"),
        Malformed("<plist><integer>1.5</integer></plist>", "malformed integer"),
        Malformed("<plist><integer>1 2</integer></plist>", "malformed integer"),
        // Beyond a 128-bit magnitude (up to it is a .wideInteger: Int128Tests).
        Malformed("<plist><integer>340282366920938463463374607431768211456</integer></plist>", "integer out of range"),
        Malformed("<plist><integer>0x100000000000000000000000000000000</integer></plist>", "integer out of range"),
        Malformed("<plist><integer>-340282366920938463463374607431768211456</integer></plist>", "integer out of range"),
        Malformed("<plist><integer>999999999999999999999999999999999999999999999</integer></plist>", "integer out of range"),
        // Reals.
        Malformed("<plist><real>1e</real></plist>", "malformed real"),
        Malformed("<plist><real>abc</real></plist>", "malformed real"),
        Malformed("<plist><real>0x1p3</real></plist>", "malformed real"),
        Malformed("<plist><real>nan(1)</real></plist>", "malformed real"),
        Malformed("<plist><real>1.2.3</real></plist>", "malformed real"),
        Malformed("<plist><real>.</real></plist>", "malformed real"),
        Malformed("<plist><real>1_000</real></plist>", "malformed real"),
        Malformed("<plist><real>infinit</real></plist>", "malformed real"),
        Malformed("<plist><real/></plist>", "empty <real>"),
        // Dates.
        Malformed("<plist><date>2001-01-01</date></plist>", "malformed date"),
        Malformed("<plist><date>2001-13-01T00:00:00Z</date></plist>", "month out of range"),
        Malformed("<plist><date>2001-00-01T00:00:00Z</date></plist>", "month out of range"),
        Malformed("<plist><date>2001-02-29T00:00:00Z</date></plist>", "day out of range"),
        Malformed("<plist><date>1900-02-29T00:00:00Z</date></plist>", "day out of range"),
        Malformed("<plist><date>2001-01-01T24:00:00Z</date></plist>", "hour out of range"),
        Malformed("<plist><date>2001-01-01T00:60:00Z</date></plist>", "minute out of range"),
        Malformed("<plist><date>2001-01-01T00:00:60Z</date></plist>", "second out of range"),
        Malformed("<plist><date>2001-01-01T00:00:00+01:00</date></plist>", "expected 'Z'"),
        Malformed("<plist><date>2001-01-01T00:00:00</date></plist>", "expected 'Z'"),
        Malformed("<plist><date>2001-01-01T00:00:00ZZ</date></plist>", "expected 'Z'"),
        Malformed("<plist><date>2001-01-01T00:00:00.Z</date></plist>", "malformed fractional seconds"),
        Malformed("<plist><date>2001-1-01T00:00:00Z</date></plist>", "two-digit month"),
        Malformed("<plist><date>1234567890-01-01T00:00:00Z</date></plist>", "too many digits"),
        Malformed("<plist><date>--01-01T00:00:00Z</date></plist>", "missing year"),
        Malformed("<plist><date/></plist>", "empty <date>"),
        // Base64.
        Malformed("<plist><data>AB=</data></plist>", "malformed base64"),
        Malformed("<plist><data>A</data></plist>", "not a multiple of 4"),
        Malformed("<plist><data>AB*D</data></plist>", "invalid character '*'"),
        Malformed("<plist><data>AB==CD==</data></plist>", "characters after padding"),
        Malformed("<plist><data>A===</data></plist>", "misplaced '='"),
        Malformed("<plist><data>====</data></plist>", "misplaced '='"),
        Malformed("<plist><data>AB-_</data></plist>", "invalid character '-'"),
        // Entities and character references.
        Malformed("<plist><string>&foo;</string></plist>", "unknown entity '&foo;'"),
        Malformed("<plist><string>a & b</string></plist>", "malformed entity"),
        Malformed("<plist><string>&amp</string></plist>", "malformed entity"),
        Malformed("<plist><string>&#;</string></plist>", "malformed character reference"),
        Malformed("<plist><string>&#x;</string></plist>", "malformed character reference"),
        Malformed("<plist><string>&#12a;</string></plist>", "malformed character reference"),
        Malformed("<plist><string>&#xD800;</string></plist>", "invalid scalar"),
        Malformed("<plist><string>&#x110000;</string></plist>", "out of range"),
        Malformed("<plist><string>&#4294967297;</string></plist>", "out of range"),
        Malformed("<plist><string>&#99999999999999999999;</string></plist>", "malformed entity"),
        // Unterminated constructs.
        Malformed("<plist><string><![CDATA[abc</string></plist>", "unterminated CDATA"),
        Malformed("<plist><!-- unterminated </plist>", "unterminated comment"),
        Malformed("<!DOCTYPE plist [ <!ENTITY x \"y\"> <plist/>", "unterminated DOCTYPE"),
        Malformed("<?xml version=\"1.0\"<plist/>", "unterminated processing instruction"),
        Malformed("<plist><!DOCTYPE plist><string/></plist>", "unexpected markup '<!'"),
        // Invalid UTF-8 anywhere.
        Malformed(bytes: Array("<plist><string>".utf8) + [0xFF] + Array("</string></plist>".utf8), "invalid UTF-8", name: "stray 0xFF"),
        Malformed(bytes: Array("<plist><string>".utf8) + [0xC0, 0x80] + Array("</string></plist>".utf8), "invalid UTF-8", name: "overlong NUL"),
        Malformed(bytes: Array("<plist><string>".utf8) + [0xED, 0xA0, 0x80] + Array("</string></plist>".utf8), "invalid UTF-8", name: "encoded surrogate"),
        Malformed(bytes: Array("<plist><string>".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("</string></plist>".utf8), "invalid UTF-8", name: "above U+10FFFF"),
        Malformed(bytes: Array("<plist><string>a</string></plist>".utf8) + [0xE2, 0x82], "truncated UTF-8", name: "truncated sequence at end"),
        Malformed(bytes: Array("<!-- ".utf8) + [0x80] + Array(" --><plist/>".utf8), "invalid UTF-8", name: "invalid UTF-8 in a comment"),
        Malformed(bytes: [0xFF, 0xFE] + Array("<\0p\0".utf8), "UTF-16", name: "UTF-16 byte-order mark"),
        // Nesting deeper than maxDepth (the default is 512).
        Malformed(String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000),
                  "nesting deeper than 512"),
        Malformed("<plist>" + String(repeating: "<dict><key>k</key>", count: 10_000) + "<true/>"
                  + String(repeating: "</dict>", count: 10_000) + "</plist>", "nesting deeper than 512"),
        Malformed(String(repeating: "<array>", count: 10_000), "nesting deeper than 512"),
    ]

    @Test("Rejects malformed input", arguments: XMLPropertyListTests.malformedCases)
    func rejectsMalformed(_ c: Malformed) {
        let error = #expect(throws: PropertyListError.self) {
            try XMLPropertyListReader.read(c.bytes)
        }
        #expect(error?.message.contains(c.message) == true, "message: \(error?.message ?? "none")")
        #expect(error?.message.contains(" at line ") == true)
    }

    @Test func errorsReportTheLine() {
        let xml = "<plist>\n<dict>\r\n\t<key>a</key>\r\t<integer>x</integer>\n</dict>\n</plist>\n"
        let error = #expect(throws: PropertyListError.self) {
            try XMLPropertyListReader.read(Array(xml.utf8))
        }
        #expect(error?.message == "malformed integer 'x' at line 4")
        let deep = "<plist>\n" + String(repeating: "<array>\n", count: 600) + "</plist>"
        let depthError = #expect(throws: PropertyListError.self) {
            try XMLPropertyListReader.read(Array(deep.utf8))
        }
        #expect(depthError?.message == "nesting deeper than 512 levels at line 514")
        let depthLimit = #expect(throws: PropertyListError.self) {
            try XMLPropertyListReader.read(Array("<array><array/></array>".utf8), maxDepth: 1)
        }
        #expect(depthLimit?.message.contains("nesting deeper than 1 levels") == true)
    }

    @Test func everyTruncationIsRejected() throws {
        let bytes = XMLPropertyListWriter.write(Self.richValue)
        // Dropping the final newline still leaves a complete document; any shorter prefix
        // cuts into `</plist>` or earlier.
        let complete = bytes.count - 1
        var rejected = 0
        for length in 0..<complete {
            do {
                _ = try XMLPropertyListReader.read(Array(bytes[0..<length]))
                Issue.record("prefix of \(length) bytes was accepted")
            } catch is PropertyListError {
                rejected += 1
            }
        }
        #expect(rejected == complete)
        #expect(Self.identical(try XMLPropertyListReader.read(Array(bytes[0..<complete])), Self.richValue))
    }

    @Test func randomMutationsNeverTrapAndStayConsistent() throws {
        let original = XMLPropertyListWriter.write(Self.richValue)
        let interesting = Array("<>/&;#x![]-=\"' \nCDATA0123456789abcdefkeyplistdictarray".utf8)
        var rng = SplitMix64(state: 2024)
        var accepted = 0
        var rejected = 0
        for _ in 0..<3_000 {
            var bytes = original
            for _ in 0..<(1 + rng.next(below: 3)) {
                let position = rng.next(below: bytes.count)
                switch rng.next(below: 4) {
                case 0: bytes[position] = interesting[rng.next(below: interesting.count)]
                case 1: bytes[position] = UInt8(truncatingIfNeeded: rng.next())
                case 2: bytes.remove(at: position)
                default:
                    let end = min(bytes.count, position + rng.next(below: 40))
                    let chunk = Array(bytes[position..<end])
                    bytes.insert(contentsOf: chunk, at: position)
                }
            }
            do {
                let value = try XMLPropertyListReader.read(bytes)
                accepted += 1
                // Whatever was accepted must survive a write/read cycle unchanged.
                let written = XMLPropertyListWriter.write(value)
                let again = try XMLPropertyListReader.read(written)
                #expect(XMLPropertyListWriter.write(again) == written)
            } catch let error as PropertyListError {
                rejected += 1
                #expect(error.message.contains(" at line "))
            }
        }
        #expect(accepted > 0)
        #expect(rejected > 0)
    }
}
