import Foundation
import Testing

/// `keyedarchive dump`.
@Suite("CLI: dump")
struct CLIDumpTests {
    @Test("dump of corpus archives matches the snapshots", .requiresCorpus,
          arguments: [
            ("apple/nskeyedunarchiver-rs/note.plist", "dump-note.txt"),
            ("apple/corelibs/NSKeyedUnarchiver-ComplexTest.plist", "dump-ComplexTest.txt"),
            ("apple/nskeyedunarchiver-rs/circularReference.plist", "dump-circularReference.txt"),
            ("apple/go-sample/arrays.xml", "dump-go-arrays.txt"),
            ("apple/nskeyedunarchiver-rs/NSMutableAttributedString.plist", "dump-NSMutableAttributedString.txt"),
            ("apple/corelibs/NSKeyedUnarchiver-ConcreteValueTest.plist", "dump-ConcreteValueTest.txt"),
          ])
    func snapshots(file: String, snapshot: String) throws {
        let result = try CLI.run(["dump", CLI.corpusFile(file)])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(!result.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
        CLI.expectSnapshot(result.stdout, snapshot)
    }

    @Test("shared objects are shown once, cycles are marked")
    func sharedAndCycles() throws {
        let path = try CLI.temporaryFile(try CLIFixtures.team())
        let result = try CLI.run(["dump", path])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "root: NSArray #1 (3 items)")
        // Field order inside an object follows the archive, which Foundation on Linux
        // writes in hash order, so check lines rather than a snapshot.
        for expected in [
            "  [0]: KeyedArchiveTests.CLIPerson #2",
            "    name = \"Ada\"",
            "    age = 36",
            "    height = 1.65",
            "    birthday: NSDate #4 = 1815-12-10T00:00:00Z",
            "    homepage: NSURL #7 = https://example.com/people/ada",
            "    id: NSUUID #10 = E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "    photo = <3 bytes: 416461>",
            "      [0] = \"math\"",
            "      friend: -> KeyedArchiveTests.CLIPerson #2 (cycle)",
            "      birthday: NSDate #18 = 1906-06-08T23:59:59.75Z",
            "  [1]: -> KeyedArchiveTests.CLIPerson #16 (shown above)",
            "  [2]: -> KeyedArchiveTests.CLIPerson #2 (shown above)",
        ] {
            #expect(lines.contains(expected), "missing line: \(expected)\n\(result.stdout)")
        }
        #expect(lines.filter { $0.contains("name = \"Grace\"") }.count == 1, "Grace is shown once")
    }

    @Test("--key shows one top-level value", .requiresCorpus)
    func key() throws {
        let result = try CLI.run(["dump", "--key", "$1", CLI.corpusFile("apple/go-sample/arrays.bin")])
        #expect(result.status == 0)
        #expect(result.stdout == """
            $1: NSMutableArray #13 (3 items)
              [0] = true
              [1] = "Hello, World!"
              [2] = 42

            """)
    }

    @Test("reads standard input for -")
    func standardInput() throws {
        let data = try CLIFixtures.team()
        let fromFile = try CLI.run(["dump", try CLI.temporaryFile(data)])
        let fromStdin = try CLI.run(["dump", "-"], stdin: data)
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout == fromFile.stdout)
    }

    /// `script` gives the tool a pseudo-terminal, the only way to see it choose colour.
    static let script = ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// `script`'s arguments to run the shell command `command` on a pseudo-terminal, its
    /// transcript discarded: util-linux's form on Linux, the BSD form on Apple platforms.
    static func scriptArguments(_ command: String) -> [String] {
        #if os(Linux)
        return ["-qec", command, "/dev/null"]
        #else
        return ["-q", "/dev/null", "/bin/sh", "-c", command]
        #endif
    }

    @Test("colour on a terminal, unless --no-color or NO_COLOR", .enabled(if: script != nil, "`script` is not installed"))
    func colour() throws {
        let binary = try #require(CLI.binary)
        let archive = try CLI.temporaryFile(try CLIFixtures.team())
        func onTerminal(_ command: String, environment: [String: String] = [:]) throws -> String {
            let script = URL(fileURLWithPath: try #require(Self.script))
            var env = environment
            env["TERM"] = "xterm"
            return try BuiltExecutable.run(path: script, Self.scriptArguments(command), environment: env).stdout
        }
        #expect(try onTerminal("'\(binary.path)' dump '\(archive)'").contains("\u{1B}["))
        #expect(!(try onTerminal("'\(binary.path)' dump --no-color '\(archive)'").contains("\u{1B}[")))
        #expect(!(try onTerminal("'\(binary.path)' dump '\(archive)'", environment: ["NO_COLOR": "1"]).contains("\u{1B}[")))
    }
}
