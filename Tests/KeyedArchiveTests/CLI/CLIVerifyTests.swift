import Foundation
import KeyedArchive
import Testing

/// `keyedarchive verify`.
@Suite("CLI: verify")
struct CLIVerifyTests {
    typealias P = PropertyListValue

    @Test("every Apple archive in the corpus is sound", .requiresCorpus)
    func corpusIsSound() throws {
        let files = CLIConvertTests.appleFiles.map(CLI.corpusFile)
        #expect(files.count > 20)
        let result = try CLI.run(["verify"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == files.count)
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.contains(": OK (") })
    }

    /// `verify FILE` on a sound file: status 0, the one line `FILE: verdict`, nothing on
    /// standard error.
    func expectOneLine(_ file: String, _ verdict: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try CLI.run(["verify", file])
        #expect(result.status == 0, sourceLocation: sourceLocation)
        #expect(result.stdout == "\(file): \(verdict)\n", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "\(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test("a cycle is counted, not an error; --verbose lists it as a note", .requiresCorpus)
    func cycleIsNote() throws {
        let file = CLI.corpusFile("apple/nskeyedunarchiver-rs/circularReference.plist")
        try expectOneLine(file, "OK (3 objects, 1 cycle)")
        for flag in ["--verbose", "-v"] {
            let verbose = try CLI.run(["verify", flag, file])
            #expect(verbose.status == 0)
            #expect(verbose.stdout == "\(file): OK (3 objects, 1 cycle)\n")
            #expect(verbose.stderr == "\(file): note: object #1 (NSMutableArray), NS.objects[0]: closes a cycle #1 -> #1 (legal in NSCoding archives; typed decoding needs an ArchiveReferenceDecodable class on the cycle)\n")
        }
    }

    @Test("a healthy nib prints one line with its count of cycles; --verbose lists 20 and counts the rest", .requiresCorpus)
    func quietNib() throws {
        let file = CLI.corpusFile("apps/interface-builder/nv-MainMenu.nib")
        try expectOneLine(file, "OK (1003 objects, 141 cycles)")
        let verbose = try CLI.run(["verify", "--verbose", file])
        #expect(verbose.stdout == "\(file): OK (1003 objects, 141 cycles)\n")
        let notes = verbose.stderr.split(separator: "\n")
        #expect(notes.count == 21)
        #expect(notes.filter { $0.contains("closes a cycle") }.count == 20)
        #expect(notes.last == "\(file): note: 121 more cycles not listed")
    }

    @Test("-q prints only problems, for one file as for several", .requiresCorpus)
    func quiet() throws {
        let good = CLI.corpusFile("apps/interface-builder/nv-MainMenu.nib")
        let bad = CLI.corpusFile("hostile/keyed/missing_top.xml")
        for flag in ["-q", "--quiet"] {
            let one = try CLI.run(["verify", flag, good])
            #expect(one.status == 0)
            #expect(one.stdout.isEmpty, "\(one.stdout)")
            #expect(one.stderr.isEmpty, "\(one.stderr)")
            let failing = try CLI.run(["verify", flag, bad])
            #expect(failing.status == 1)
            #expect(failing.stdout == "\(bad): FAILED (1 error)\n")
            #expect(failing.stderr.contains("\(bad): error: $top: missing"))
            let several = try CLI.run(["verify", flag, good, bad])
            #expect(several.status == 1)
            #expect(several.stdout == "\(bad): FAILED (1 error)\n")
            #expect(!several.stderr.contains("files:"), "no summary: \(several.stderr)")
        }
    }

    @Test("problems in Foundation objects are all reported, with object index and key path")
    func foundationProblems() throws {
        let archive = CLIFixtures.raw([
            // 1: the root, an NSArray whose second element is not a UID
            CLIFixtures.object(2, [("NS.objects", .array([.uid(3), .string("oops"), .uid(4), .uid(5), .uid(6)]))]),
            CLIFixtures.classEntry("NSArray"),                                                      // 2
            CLIFixtures.object(7, [("NS.keys", .array([.uid(9)])), ("NS.objects", .array([]))]),    // 3: counts differ
            CLIFixtures.object(8, [("NS.time", .string("yesterday"))]),                            // 4: NSDate
            CLIFixtures.object(10, [("NS.uuidbytes", .data(Data(count: 15)))]),                    // 5: NSUUID
            CLIFixtures.object(2, [("NS.objects", .array([.uid(1)]))]),                            // 6: back to the root
            CLIFixtures.classEntry("NSDictionary"),                                                 // 7
            CLIFixtures.classEntry("NSDate"),                                                       // 8
            .string("key"),                                                                         // 9
            CLIFixtures.classEntry("NSUUID"),                                                       // 10
        ])
        let path = try CLI.temporaryFile(archive)
        let result = try CLI.run(["verify", "--verbose", path])
        #expect(result.status == 1)
        #expect(result.stdout == "\(path): FAILED (4 errors, 1 cycle)\n")
        CLI.expectSnapshot(result.stderr.replacingOccurrences(of: path, with: "FILE"), "verify-foundation-problems.txt")
        for expected in [
            "error: object #1 (NSArray), NS.objects[1]: is a string, expected a UID",
            "error: object #3 (NSDictionary), NS.keys: holds 1 key but NS.objects holds 0 values",
            "error: object #4 (NSDate), NS.time: is a string, expected a number",
            "error: object #5 (NSUUID), NS.uuidbytes: holds 15 bytes, expected 16",
            "note: object #6 (NSArray), NS.objects[0]: closes a cycle #1 -> #6 -> #1",
        ] {
            #expect(result.stderr.contains(expected), "missing: \(expected)\n\(result.stderr)")
        }
    }

    @Test("broken references and classes are all reported")
    func referenceProblems() throws {
        let archive = CLIFixtures.raw([
            CLIFixtures.object(2, [("a", .uid(40)), ("b", .array([.uid(1), .uid(41)]))]),  // 1: two UIDs out of range
            CLIFixtures.classEntry("Thing"),                                                // 2
            .dictionary([.init(key: "value", value: .integer(1))]),                         // 3: no $class
            CLIFixtures.object(3, []),                                                      // 4: $class is not a class entry
        ], top: [("root", 1), ("other", 4), ("missing", 99)])
        let path = try CLI.temporaryFile(archive)
        let result = try CLI.run(["verify", path])
        #expect(result.status == 1)
        for expected in [
            "error: $top.missing: UID 99 is out of range (5 objects)",
            "error: object #1 (Thing), a: UID 40 is out of range (5 objects)",
            "error: object #1 (Thing), b[1]: UID 41 is out of range (5 objects)",
            "error: object #3, $class: missing",
            "error: object #4, $class: points at object #3, which is not a class entry",
        ] {
            #expect(result.stderr.contains(expected), "missing: \(expected)\n\(result.stderr)")
        }
    }

    @Test("several files: a verdict for each, status 1 when any fails", .requiresCorpus)
    func severalFiles() throws {
        let good = CLI.corpusFile("apple/nskeyedunarchiver-rs/note.plist")
        let bad = CLI.corpusFile("hostile/keyed/missing_top.xml")
        let result = try CLI.run(["verify", good, bad, "/nonexistent"])
        #expect(result.status == 1)
        #expect(result.stdout == "\(good): OK (10 objects)\n\(bad): FAILED (1 error)\n/nonexistent: FAILED (1 error)\n")
        #expect(result.stderr.contains("\(bad): error: $top: missing"))
        #expect(result.stderr.contains("/nonexistent: error: cannot open: No such file or directory"))
        #expect(try CLI.run(["verify", good, good]).status == 0)
    }

    @Test("an archive from NSKeyedArchiver is sound")
    func foundationArchive() throws {
        let result = try CLI.run(["verify", "-"], stdin: try CLIFixtures.team())
        #expect(result.status == 0)
        #expect(result.stdout == "<stdin>: OK (26 objects, 1 cycle)\n")
    }
}
