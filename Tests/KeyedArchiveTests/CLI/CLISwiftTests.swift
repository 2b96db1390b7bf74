import Foundation
import KeyedArchive
import Testing

/// `keyedarchive swift`, and `--expand-nested` for `json` and `dump`. The generated code
/// is compiled and run against its archives by Scripts/check-generated-code.sh.
@Suite("CLI: swift and nested archives")
struct CLISwiftTests {
    @Test("every Apple corpus archive gives Swift, the same twice", .requiresCorpus,
          arguments: CLI.corpusFiles(under: "apple"))
    func corpus(file: String) throws {
        let result = try CLI.run(["swift", CLI.corpusFile(file)])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("import KeyedArchive\n"))
        #expect(result.stdout.contains("// Decode it with:\n//     let root = try "))
        #expect(try CLI.run(["swift", CLI.corpusFile(file)]).stdout == result.stdout)
    }

    @Test("generated code matches the snapshots", .requiresCorpus,
          arguments: [
            ("apple/nskeyedunarchiver-rs/note.plist", "swift-note.swift"),
            ("apple/corelibs/NSKeyedUnarchiver-ComplexTest.plist", "swift-ComplexTest.swift"),
            ("apple/go-sample/primitives.bin", "swift-go-primitives.swift"),
            ("apple/macos/NSMeasurement-Length.archive", "swift-NSMeasurement.swift"),
          ])
    func snapshots(file: String, snapshot: String) throws {
        let result = try CLI.run(["swift", CLI.corpusFile(file)])
        #expect(result.status == 0)
        CLI.expectSnapshot(result.stdout, snapshot)
    }

    @Test("binary and XML forms give the same code", .requiresCorpus,
          arguments: ["arrays", "dict", "nestedarrays", "onevalue", "primitives"])
    func binaryAndXMLAgree(name: String) throws {
        func body(_ ext: String) throws -> String {
            let output = try CLI.run(["swift", CLI.corpusFile("apple/go-sample/\(name).\(ext)")]).stdout
            return output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        }
        #expect(try body("bin") == body("xml"))
    }

    /// Generates code for one Foundation-written fixture.
    private func generate(_ name: String, _ extra: [String] = []) throws -> String {
        let archives = try CodegenFixtures.all()
        let data = try #require(archives.first(where: { $0.name == name })?.data)
        let result = try CLI.run(["swift"] + extra + [try CLI.temporaryFile(data, name: name)])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return result.stdout
    }

    @Test("shared objects and cycles give a final class; missing and nil keys give optionals")
    func identity() throws {
        for name in ["foundation-shared.archive", "foundation-chain.archive"] {
            let code = try generate(name)
            #expect(code.contains("final class CodegenPerson: Codable, ArchivedClass {"), "\(name)")
            #expect(code.contains("    static let archivedClassName = \"KeyedArchiveTests.CodegenPerson\""))
            #expect(code.contains("    var age: Int\n") && code.contains("    var name: String\n"))
        }
        // Grace has no friend in one archive; in the other, everyone has one.
        let shared = try generate("foundation-shared.archive")
        #expect(shared.contains("    var friend: CodegenPerson?\n"))
        #expect(shared.contains("    init(age: Int, friend: CodegenPerson? = nil, name: String, nickname: String? = nil) {"))
        // A chain without sharing: a struct could not hold itself, so a class it is.
        #expect(try generate("foundation-chain.archive").contains("    var friend: CodegenPerson?\n"))
        let cycle = try generate("foundation-cycle.archive")  // two phases: CodegenCyclesTests
        #expect(cycle.contains("    var friend: CodegenPerson?\n"))
        #expect(cycle.contains("typealias Root = CodegenPerson\n"))
        #expect(try generate("foundation-shared.archive").contains("typealias Root = [CodegenPerson]"))
        #expect(try generate("foundation-shared.archive").contains("    var nickname: String?\n"))
    }

    @Test("a heterogeneous array becomes an enum; subclasses keep their superclass chain")
    func shapes() throws {
        let code = try generate("foundation-shapes.archive")
        #expect(code.contains("typealias Root = [RootElement]"))
        #expect(code.contains("enum RootElement: Codable, Hashable, Sendable {\n    case codegenSquare(CodegenSquare)\n    case codegenCircle(CodegenCircle)\n"))
        #expect(code.contains("if let value = try? container.decode(CodegenSquare.self) {"))
        #expect(code.contains("static let archivedSuperclassNames: [String] = [\"KeyedArchiveTests.CodegenShape\", \"NSObject\"]"))
        #expect(code.contains("struct CodegenCircle: Codable, Hashable, Sendable, ArchivedClass {\n"))
    }

    @Test("Foundation values map to Swift types; keys that are not identifiers get CodingKeys")
    func record() throws {
        let code = try generate("foundation-record.archive")
        for line in [
            "var bytes: Data", "var `class`: Bool", "var count: Int", "var created: Date", "var empty: [UnknownValue]",
            "var firstName: String", "var homepage: URL", "var id: UUID", "var nothing: UnknownValue?",
            "var numbers: Set<Int>", "var ratio: Double", "var scores: [String: Int]", "var string: String",
            "var tags: [String]", "case count = \"$count\"", "case firstName = \"first name\"",
            "case string = \"NS.string\"", "case `class`\n", "var selfValue: Int", "case selfValue = \"self\"",
            "var `default`: String", "case `default`\n", "enum UnknownValue: Codable, Hashable, Sendable {",
        ] {
            #expect(code.contains(line), "\(line)")
        }
        CLI.expectSnapshot(code, "swift-foundation-record.swift")
    }

    @Test("$top without root: a struct of the keys, Foundation's $$ escape undone; one key: a typealias")
    func topLevel() throws {
        let code = try generate("foundation-top-keys.archive")
        #expect(code.contains("//     let root = try Root(archive: data)"))
        #expect(code.contains("struct Root: Codable, Hashable, Sendable {\n    var tag: String\n    var first: CodegenPerson\n"))
        #expect(code.contains("case tag = \"$tag\""))
        #expect(code.contains("tag: try decoder.decode(String.self, forKey: \"$tag\", from: data)"))  // topLevelKeys are unescaped
        let one = try generate("foundation-one-key.archive")
        #expect(one.contains("typealias Root = [String]"))
        #expect(one.contains("decode(Root.self, forKey: \"names\", from: data)"))
    }

    @Test("--root-name and --access public")
    func options() throws {
        let code = try generate("foundation-dictionaries.archive", ["--root-name", "Catalog", "--access", "public"])
        #expect(code.contains("public struct Catalog: Codable, Hashable, Sendable {"))
        #expect(code.contains("    public var rows: [CatalogRowsElement]\n"))
        #expect(code.contains("    public init("))
        #expect(code.contains("decode(Catalog.self, from: data)"))
        #expect(!code.contains("internal "))
        let bad = try CLI.run(["swift", "--root-name", "not a name", try CLI.temporaryFile(try CodegenFixtures.oneKey())])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("cannot be the root type's name"))
    }

    @Test("nesting deeper than the decoder's depth limit is refused with a message")
    func tooDeep() throws {
        struct Node: Codable { var next: [Node] }
        var node = Node(next: [])
        for _ in 0..<600 { node = Node(next: [node]) }
        let result = try CLI.run(["swift", try CLI.temporaryFile(try ArchiveEncoder().encode(node))])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nested more than 512 levels deep"))
    }

    @Test("a dictionary shared twice at each of 40 levels is refused, not walked 2^40 times")
    func sharedDictionaries() throws {
        func uid(_ index: Int) -> PropertyListValue { .uid(UInt64(index)) }
        func entry(_ key: String, _ value: PropertyListValue) -> PropertyListEntry { PropertyListEntry(key: key, value: value) }
        var objects: [PropertyListValue] = [
            .string("$null"),
            .dictionary([entry("$classname", .string("NSDictionary")), entry("$classes", .array([.string("NSDictionary"), .string("NSObject")]))]),
            .string("a"), .string("b"), .string("c"), .integer(7),
            .dictionary([entry("NS.keys", .array([uid(2)])), entry("NS.objects", .array([uid(5)])), entry("$class", uid(1))]),
        ]
        for _ in 0..<40 {
            let previous = objects.count - 1
            objects.append(.dictionary([
                entry("NS.keys", .array([uid(2), uid(3), uid(4)])),
                entry("NS.objects", .array([uid(previous), uid(previous), uid(5)])),
                entry("$class", uid(1)),
            ]))
        }
        let archive = PropertyListValue.dictionary([
            entry("$archiver", .string("NSKeyedArchiver")), entry("$version", .integer(100_000)),
            entry("$top", .dictionary([entry("root", uid(objects.count - 1))])), entry("$objects", .array(objects)),
        ])
        let result = try CLI.run(["swift", try CLI.temporaryFile(archive.propertyListData(format: .binary))], timeout: 30)
        #expect(!result.timedOut)
        #expect(result.status == 1)
        #expect(result.stderr.contains("more than 20000 parts"), "\(result.stderr)")
    }

    @Test("hostile files: a message or output, never a crash or a hang", .requiresCorpus,
          arguments: CLI.corpusFiles(under: "hostile"))
    func hostile(file: String) throws {
        for command in [["swift"], ["json", "--expand-nested"], ["dump", "--expand-nested"]] {
            let result = try CLI.run(command + [CLI.corpusFile(file)], timeout: 30)
            #expect(!result.timedOut, "\(command[0]) hung")
            #expect(result.status == 0 || result.status == 1, "\(command[0]) exit \(result.status): \(result.stderr)")
            if result.status == 1 { #expect(result.stderr.hasPrefix("error: "), "\(command[0]): \(result.stderr)") }
        }
    }

    // MARK: - --expand-nested

    /// A dictionary whose `payload` is an archive written by NSKeyedArchiver and whose
    /// `settings` is an XML property list.
    private func nestedFixture() throws -> Data {
        let inner = try NSKeyedArchiver.archivedData(withRootObject: ["title": "inner", "count": 3] as NSDictionary, requiringSecureCoding: false)
        let plist = try PropertyListSerialization.data(fromPropertyList: ["mode": "dark"], format: .xml, options: 0)
        return try NSKeyedArchiver.archivedData(withRootObject: [
            "payload": NSData(data: inner), "settings": NSData(data: plist), "raw": NSData(data: Data([1, 2, 3])),
        ] as NSDictionary, requiringSecureCoding: false)
    }

    @Test("json --expand-nested opens an archive and a property list held in NSData")
    func jsonNested() throws {
        let path = try CLI.temporaryFile(try nestedFixture())
        let result = try CLI.run(["json", "--expand-nested", "--compact", path])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let payload = try #require((object["payload"] as? [String: Any])?["$archive"] as? [String: Any])
        #expect(payload["title"] as? String == "inner")
        #expect(payload["count"] as? Int == 3)
        let settings = try #require((object["settings"] as? [String: Any])?["$plist"] as? [String: Any])
        #expect(settings["mode"] as? String == "dark")
        #expect(object["raw"] as? String == Data([1, 2, 3]).base64EncodedString())
        // Without the flag, data stays base64.
        let plain = try CLI.run(["json", "--compact", path])
        #expect(!plain.stdout.contains("$archive"))
    }

    @Test("dump --expand-nested shows the nested archive in place")
    func dumpNested() throws {
        let path = try CLI.temporaryFile(try nestedFixture())
        let result = try CLI.run(["dump", "--no-color", "--expand-nested", path])
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.range(of: #"\n  "payload"(: NSMutableData #\d+)? = keyed archive, \d+ bytes\n    root: NSDictionary #1 \(2 entries\)\n"#,
                                    options: .regularExpression) != nil, "\(result.stdout)")
        #expect(result.stdout.contains("      \"title\" = \"inner\"\n"))
        #expect(result.stdout.contains("= property list, "))
        #expect(result.stdout.contains("      mode = \"dark\"\n"))
        #expect(result.stdout.contains("  \"raw\" = <3 bytes: 010203>\n"), "data that is no property list stays bytes")
    }

    @Test("archives nested 600 deep stop at the work limit, as data", arguments: ["json", "dump"])
    func deepNesting(command: String) throws {
        var data = try ArchiveEncoder().encode("core")
        for _ in 0..<600 { data = try ArchiveEncoder().encode(data) }
        let result = try CLI.run([command, "--expand-nested", try CLI.temporaryFile(data)])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("nested property list was shown as data"))
        let opened = command == "json" ? result.stdout.components(separatedBy: "$archive").count - 1
            : result.stdout.components(separatedBy: "= keyed archive").count - 1
        #expect(opened > 10 && opened < 600, "\(opened) levels opened")
    }

    @Test("one nested archive referenced 20,000 times is opened only within the work limit")
    func sharedNesting() throws {
        let inner = try ArchiveEncoder().encode(Array(repeating: "x", count: 200))
        let outer = try NSKeyedArchiver.archivedData(
            withRootObject: NSArray(array: Array(repeating: NSData(data: inner), count: 20_000)), requiringSecureCoding: false)
        // The output limit raised: the work limit on nested archives is what is tested here.
        let result = try CLI.run(["json", "--expand-nested", "--compact", "--max-output", "1000000000", try CLI.temporaryFile(outer)])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let opened = result.stdout.components(separatedBy: "$archive").count - 1
        #expect(opened > 0 && opened < 20_000)
        #expect(result.stderr.contains("nested property lists were shown as data"))
    }
}
