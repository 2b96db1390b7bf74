import Foundation
import Testing
@testable import KeyedArchive

// ArchiveEncoder's binary and XML output read by two independent property-list readers:
// Python's plistlib and Foundation's PropertyListSerialization. Both must read it without
// complaint, and see the same envelope and object table as our own reader.

private struct PLInner: Codable, Equatable {
    var label: String
    var weight: Double
}

private struct PLRich: Codable, Equatable {
    var ascii = "hello"
    var unicode = "ħéłłø ✓ 数 🧮"
    var empty = ""
    var dollarKeyed = ["$weird": 1, "plain": 2]
    var int = -7
    var big = Int64.max
    var huge = UInt64.max
    var byte: UInt8 = 255
    var double = 0.1
    var float: Float = 3.14
    var flag = true
    var date = Date(timeIntervalSinceReferenceDate: 86_400)
    var blob = Data([0, 1, 2, 254, 255])
    var url = URL(string: "https://example.com/a%20b?x=1")!
    var uuid = UUID(uuidString: "12345678-9ABC-DEF0-1234-56789ABCDEF0")!
    var decimal = Decimal(string: "-1234.5678")!
    var strings = ["a", "b", "a"]
    var numbers = [1, 2, 3, 1]
    var set: Set<Int> = [5, 6]
    var nested = PLInner(label: "inner", weight: 2.5)
    var nestedList = [PLInner(label: "x", weight: 1), PLInner(label: "y", weight: -1)]
    var optionalNil: String? = nil
    var optionalSet: String? = "set"
}

@Suite("plistlib and PropertyListSerialization read ArchiveEncoder output")
struct PlistlibReadsUsTests {
    /// Our own reading of `data`, as a property-list tree.
    private func ours(_ data: Data) throws -> PropertyListValue {
        try PropertyListValue(propertyList: data)
    }

    @Test("python3 plistlib reads it and sees exactly what we read", .requiresPython3, arguments: PropertyListFormat.allCases)
    func plistlibAgrees(format: PropertyListFormat) throws {
        let data = try archive(PLRich(), format: format)
        let theirs = try plistlibJSON(of: data)
        #expect(theirs == (try ours(data)).canonicalJSON)
        #expect(theirs.contains(#""$archiver":"NSKeyedArchiver""#))
        #expect(theirs.contains(#""$top":{"root":{"UID":1}}"#))
        #expect(theirs.contains(#""$version":100000"#))
    }

    @Test("The canonical JSON rendering agrees with plistlib on a value of every type", .requiresPython3)
    func renderingSelfCheck() throws {
        // Guards the comparison above: a rendering bug would make both sides disagree here.
        let value = PropertyListValue.dictionary([
            .init(key: "s", value: .string("héllo \"q\" \\ \n")),
            .init(key: "i", value: .integer(-5)),
            .init(key: "u", value: .unsignedInteger(UInt64.max)),
            .init(key: "r", value: .real(0.1)),
            .init(key: "f", value: .float(1.5)),
            .init(key: "b", value: .bool(true)),
            .init(key: "d", value: .date(86_400.5)),
            .init(key: "x", value: .data(Data([0, 255]))),
            .init(key: "id", value: .uid(3)),
            .init(key: "a", value: .array([.integer(1), .array([])])),
        ])
        let data = value.propertyListData(format: .binary)
        #expect(try plistlibJSON(of: data) == value.canonicalJSON)
    }

    @Test("python3 plistlib reads several top-level keys", .requiresPython3, arguments: PropertyListFormat.allCases)
    func plistlibSeveralKeys(format: PropertyListFormat) throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let pairs: KeyValuePairs<String, any Encodable> = [
            "personOne": PLInner(label: "one", weight: 1), "personTwo": PLInner(label: "two", weight: 2),
        ]
        let data = try encoder.encode(topLevel: pairs)
        let theirs = try plistlibJSON(of: data)
        #expect(theirs == (try ours(data)).canonicalJSON)
        let script = """
        import plistlib, sys
        with open(sys.argv[1], 'rb') as f: p = plistlib.load(f)
        objs, top = p['$objects'], p['$top']
        uid = lambda v: v.data if isinstance(v, plistlib.UID) else v['CF$UID']
        keys = sorted(top.keys())
        print(keys, [objs[uid(objs[uid(top[k])]['label'])] for k in keys])
        """
        let url = Scratch.file("plistlib")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let output = try runPython3(["-c", script, url.path]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(output == "['personOne', 'personTwo'] ['one', 'two']")
    }

    @Test("Foundation's PropertyListSerialization reads it: same format, envelope, $objects count and $top",
          arguments: PropertyListFormat.allCases)
    func foundationAgrees(format: PropertyListFormat) throws {
        let data = try archive(PLRich(), format: format)
        var found = PropertyListSerialization.PropertyListFormat.openStep
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: &found)
        #expect(found == format.foundationFormat)
        let root = try #require(plist as? [String: Any])
        #expect(Set(root.keys) == ["$archiver", "$version", "$top", "$objects"])
        #expect(root["$archiver"] as? String == "NSKeyedArchiver")
        #expect((root["$version"] as? NSNumber)?.intValue == 100_000)

        guard case .array(let ourObjects)? = try ours(data)["$objects"],
              case .dictionary(let ourTop)? = try ours(data)["$top"] else {
            Issue.record("our reader found no $objects / $top")
            return
        }
        let objects = try #require(root["$objects"] as? [Any])
        #expect(objects.count == ourObjects.count)
        #expect(objects.first as? String == "$null")
        let top = try #require(root["$top"] as? [String: Any])
        #expect(Set(top.keys) == Set(ourTop.map(\.key)))
        #expect(top.keys.sorted() == ["root"])
        // Strings that we store once are in Foundation's view once as well.
        #expect(objects.compactMap { $0 as? String }.filter { $0 == "a" }.count == 1)
        #expect(objects.compactMap { $0 as? String }.contains("ħéłłø ✓ 数 🧮"))
    }

    @Test("The archive round-trips; binary and XML hold the same object table", arguments: PropertyListFormat.allCases)
    func roundTripAndShape(format: PropertyListFormat) throws {
        let value = PLRich()
        let data = try archive(value, format: format)
        #expect(try ArchiveDecoder().decode(PLRich.self, from: data) == value)
        let tree = try ours(data)
        let binary = try ours(try archive(value, format: .binary))
        #expect(Self.objectTypes(tree) == Self.objectTypes(binary))
        #expect(tree["$top"] == binary["$top"])
        #expect(Self.objectTypes(tree).count > 20)
    }

    /// The type of each object in `$objects` (4- and 8-byte reals both say "real").
    private static func objectTypes(_ archive: PropertyListValue) -> [String] {
        guard case .array(let objects)? = archive["$objects"] else { return [] }
        return objects.map(\.typeName)
    }
}
