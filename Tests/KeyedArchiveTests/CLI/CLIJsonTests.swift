import Foundation
import KeyedArchive
import Testing

/// `keyedarchive json`.
@Suite("CLI: json")
struct CLIJsonTests {
    @Test("json of corpus archives matches the snapshots", .requiresCorpus,
          arguments: [
            ("apple/nskeyedunarchiver-rs/note.plist", "json-note.json"),
            ("apple/corelibs/NSKeyedUnarchiver-ComplexTest.plist", "json-ComplexTest.json"),
            ("apple/nskeyedunarchiver-rs/circularReference.plist", "json-circularReference.json"),
            ("apple/go-sample/arrays.bin", "json-go-arrays.json"),
            ("apple/go-sample/dict.bin", "json-go-dict.json"),
            ("apple/nskeyedunarchiver-rs/simpleDict.plist", "json-simpleDict.json"),
            ("apple/corelibs/NSKeyedUnarchiver-ConcreteValueTest.plist", "json-ConcreteValueTest.json"),
          ])
    func snapshots(file: String, snapshot: String) throws {
        let result = try CLI.run(["json", CLI.corpusFile(file)])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        CLI.expectSnapshot(result.stdout, snapshot)
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: result.stdoutData) }
    }

    @Test("binary and XML forms of an archive give the same JSON", .requiresCorpus,
          arguments: ["arrays", "dict", "nestedarrays", "onevalue", "primitives"])
    func binaryAndXMLAgree(name: String) throws {
        let binary = try CLI.run(["json", CLI.corpusFile("apple/go-sample/\(name).bin")])
        let xml = try CLI.run(["json", CLI.corpusFile("apple/go-sample/\(name).xml")])
        #expect(binary.status == 0 && xml.status == 0)
        #expect(binary.stdout == xml.stdout)
    }

    @Test("an archive from NSKeyedArchiver: cycles, shared objects, Foundation values")
    func team() throws {
        let path = try CLI.temporaryFile(try CLIFixtures.team())
        let result = try CLI.run(["json", path])
        #expect(result.status == 0)
        CLI.expectSnapshot(result.stdout, "json-team.json")
        // Run to run, the same bytes (Foundation's own field order varies; ours does not).
        let again = try CLI.run(["json", try CLI.temporaryFile(try CLIFixtures.team())])
        #expect(again.stdout == result.stdout)
    }

    @Test("every $ref resolves to an $id in the output", arguments: [[], ["--no-classes"]])
    func referencesResolve(options: [String]) throws {
        let path = try CLI.temporaryFile(try CLIFixtures.team())
        let result = try CLI.run(["json", "--compact"] + options + [path])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: result.stdoutData)
        var ids: [Int] = [], refs: [Int] = []
        var pending: [Any] = [json]
        while let value = pending.popLast() {
            if let array = value as? [Any] { pending += array }
            if let object = value as? [String: Any] {
                if let id = object["$id"] as? Int { ids.append(id) }
                if let ref = object["$ref"] as? Int { refs.append(ref) }
                pending += Array(object.values)
            }
        }
        #expect(!refs.isEmpty)
        #expect(Set(refs).isSubset(of: Set(ids)), "refs \(refs), ids \(ids)")
        #expect(Set(ids).count == ids.count, "each object written in full once")
        // An object referenced only once gets no $id.
        #expect(Set(ids) == Set(refs))
    }

    @Test("Foundation values print as JSON values, numbers exactly")
    func values() throws {
        let path = try CLI.temporaryFile(try CLIFixtures.values())
        let result = try CLI.run(["json", "--compact", path])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("}\n") && result.stdout.split(separator: "\n").count == 1)
        let text = result.stdout
        for fragment in [
            #""big":18446744073709551615"#,
            #""small":-9223372036854775808"#,
            #""pi":3.141592653589793"#,
            #""tenth":0.1"#,
            #""infinity":null"#,
            #""nan":null"#,
            #""date":"2020-01-06T10:40:00.5Z""#,
            #""bytes":"AAEC/w==""#,
            #""set":["only"]"#,
            #""null":null"#,
            #""numberKeys":{"1":"one","2.5":"two and a half"}"#,
            #""text":"tab\there \"quoted\" é ✓""#,
        ] {
            #expect(text.contains(fragment), "missing \(fragment) in \(text)")
        }
        let keys = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]).keys
        #expect(keys.count == 12)
        // Keys come sorted.
        let order = ["big", "bytes", "date", "infinity", "nan", "null", "numberKeys", "pi", "set", "small", "tenth", "text"]
        let positions = order.map { text.range(of: "\"\($0)\":")!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test("--no-classes drops $class, --compact prints one line, --key picks a value")
    func options() throws {
        let path = try CLI.temporaryFile(try CLIFixtures.team())
        let plain = try CLI.run(["json", "--no-classes", path])
        #expect(plain.status == 0)
        #expect(!plain.stdout.contains("$class"))
        #expect(plain.stdout.contains(#""$cycle": true"#), "cycle markers stay")
        let compact = try CLI.run(["json", "--compact", "--no-classes", path])
        let pretty = try JSONSerialization.jsonObject(with: plain.stdoutData) as? NSArray
        let oneLine = try JSONSerialization.jsonObject(with: compact.stdoutData) as? NSArray
        #expect(pretty != nil && pretty == oneLine)
        #expect(compact.stdout.split(separator: "\n").count == 1)
        let keyed = try CLI.run(["json", "--key", "root", "--compact", "--no-classes", path])
        #expect(keyed.stdout == compact.stdout)
    }

    @Test("several top-level keys give an object keyed by them", .requiresCorpus)
    func topLevelKeys() throws {
        let result = try CLI.run(["json", "--compact", CLI.corpusFile("apple/go-sample/primitives.bin")])
        #expect(result.stdout == #"{"$0":1,"$1":1,"$10":false,"$11":42,"$2":1.0,"$3":1.5,"$4":"YXNkZmFzZGZhZHNmYWRzZg==","$5":true,"$6":"Hello, World!","$7":"Hello, World!","$8":"Hello, World!","$9":false}"# + "\n")
        let one = try CLI.run(["json", "--key", "$3", CLI.corpusFile("apple/go-sample/primitives.bin")])
        #expect(one.stdout == "1.5\n")
    }

    @Test("an archive that shares objects 2^40 ways is shown, each shared object once")
    func heavySharing() throws {
        // 40 levels, each an NSArray holding the next level twice: 2^40 values written out.
        var objects: [KeyedArchive.PropertyListValue] = [CLIFixtures.classEntry("NSArray")]
        for level in 0..<40 {
            let next = UInt64(objects.count + 2)
            objects.append(CLIFixtures.object(1, [("NS.objects", .array(level < 39 ? [.uid(next), .uid(next)] : []))]))
        }
        let path = try CLI.temporaryFile(CLIFixtures.raw(objects, top: [("root", 2)]))
        let result = try CLI.run(["json", "--compact", path], timeout: 30)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.stderr)")
        // Each level is written once, with its "$id", its second occurrence as a reference.
        #expect(result.stdout.hasPrefix(#"[{"$id":3,"$items":[{"$id":4,"$items":["#))
        #expect(result.stdout.contains(#"{"$id":41,"$items":[]},{"$ref":41}"#))
        #expect(result.stdout.count < 2_000)
        #expect(try JSONSerialization.jsonObject(with: result.stdoutData) is [Any])
        #expect(try CLI.run(["dump", path]).status == 0, "dump shows each shared object once")
    }

    @Test("NSDecimalNumber prints its exact digits")
    func decimals() throws {
        /// An NSDecimalNumber in Apple's layout: 16 little-endian mantissa bytes.
        func decimal(_ mantissa: [UInt8], exponent: Int64, negative: Bool = false) -> KeyedArchive.PropertyListValue {
            let length = Int64((mantissa.lastIndex(where: { $0 != 0 }).map { $0 + 2 } ?? 0) / 2)
            return CLIFixtures.object(2, [
                ("NS.mantissa", .data(Data(mantissa + [UInt8](repeating: 0, count: 16 - mantissa.count)))),
                ("NS.mantissa.bo", .integer(1)), ("NS.exponent", .integer(exponent)), ("NS.length", .integer(length)),
                ("NS.negative", .bool(negative)), ("NS.compact", .bool(true)),
            ])
        }
        let archive = CLIFixtures.raw([
            CLIFixtures.object(3, [("NS.objects", .array((4...9).map { .uid($0) }))]),
            CLIFixtures.classEntry("NSDecimalNumber"),
            CLIFixtures.classEntry("NSArray"),
            decimal([0x39, 0x30], exponent: -2),                           // 12345e-2
            decimal([0x39, 0x30], exponent: -7, negative: true),           // -12345e-7
            decimal([5], exponent: 3),                                     // 5e3
            decimal([UInt8](repeating: 0xFF, count: 16), exponent: 0),     // 2^128 - 1
            decimal([1], exponent: 100),                                   // 1e100
            decimal([], exponent: 0, negative: true),                      // NaN
        ])
        let result = try CLI.run(["json", "--compact", try CLI.temporaryFile(archive)])
        #expect(result.status == 0)
        #expect(result.stdout == "[123.45,-0.0012345,5000,340282366920938463463374607431768211455,1e100,null]\n")
    }

    @Test("an archive from ArchiveEncoder reads back as the values encoded")
    func archiveEncoder() throws {
        struct Payment: Codable {
            var amount: Decimal
            var when: Date
            var receipt: URL
            var id: UUID
            var tags: Set<String>
            var lines: [String: Int]
        }
        let payment = Payment(
            amount: Decimal(string: "1234.56")!, when: Date(timeIntervalSince1970: 1_700_000_000),
            receipt: URL(string: "https://example.com/r/1")!, id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            tags: ["paid"], lines: ["tea": 3])
        let path = try CLI.temporaryFile(try ArchiveEncoder().encode(payment))
        let result = try CLI.run(["json", "--compact", "--no-classes", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"amount":1234.56,"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","lines":{"tea":3},"receipt":"https://example.com/r/1","tags":["paid"],"when":"2023-11-14T22:13:20Z"}"# + "\n")
        #expect(try CLI.run(["verify", path]).status == 0)
    }
}
