import Foundation
import Testing

/// Help, version and command-line mistakes.
@Suite("CLI: help and usage")
struct CLIHelpTests {
    @Test("--help shows the overview, usage, options and commands")
    func rootHelp() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        CLI.expectSnapshot(result.stdout, "help.txt")
        for heading in ["OVERVIEW:", "USAGE: keyedarchive <subcommand>", "OPTIONS:", "SUBCOMMANDS:"] {
            #expect(result.stdout.contains(heading))
        }
        #expect(try CLI.run([]).stdout == result.stdout, "no arguments shows the help")
        #expect(try CLI.run(["help"]).stdout == result.stdout)
    }

    @Test("help COMMAND and COMMAND --help agree", arguments: ["dump", "json", "convert", "verify", "swift"])
    func commandHelp(command: String) throws {
        let viaHelp = try CLI.run(["help", command])
        let viaFlag = try CLI.run([command, "--help"])
        let viaShort = try CLI.run([command, "-h"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0 && viaShort.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout && viaFlag.stdout == viaShort.stdout)
        for heading in ["OVERVIEW:", "USAGE: keyedarchive \(command)", "ARGUMENTS:", "OPTIONS:", "-h, --help"] {
            #expect(viaHelp.stdout.contains(heading), "\(heading) in help \(command)")
        }
        CLI.expectSnapshot(viaHelp.stdout, "help-\(command).txt")
        // --help wins over other mistakes on the same line.
        #expect(try CLI.run([command, "--bogus", "--help"]).status == 0)
    }

    @Test("--version prints the latest version heading of CHANGELOG.md")
    func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
        let changelog = try String(contentsOf: CLI.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // The first "## X.Y.Z - date" heading; "## Unreleased" above it is skipped.
        let heading = try #require(changelog.split(separator: "\n").first { $0.range(of: #"^## \d+\.\d+\.\d+ "#, options: .regularExpression) != nil })
        let latest = heading.dropFirst(3).prefix { $0 != " " }
        #expect(result.stdout == latest + "\n")
    }

    @Test("mistakes on the command line exit 2 with a message on stderr", arguments: [
        (["frobnicate"], "Unknown command 'frobnicate'"),
        (["--bogus"], "Unknown option '--bogus'"),
        (["help", "frobnicate"], "Unknown command 'frobnicate'"),
        (["json", "--bogus", "x"], "Unknown option '--bogus'"),
        (["json", "-z", "x"], "Unknown option '-z'"),
        (["json"], "Missing expected argument '<file>'"),
        (["dump", "a", "b"], "Unexpected argument 'b'"),
        (["swift", "a", "b"], "give one file, or --check for folders and several files"),
        (["json", "--jobs", "0", "a", "b"], "--jobs needs a number from 1 to 256, not '0'"),
        (["verify", "-j", "x", "a"], "--jobs needs a number from 1 to 256, not 'x'"),
        (["verify", "-", "-"], "standard input ('-') can be read only once"),
        (["json", "--key"], "Missing value for '--key <key>'"),
        (["json", "--compact=yes", "x"], "does not take a value"),
        (["convert", "x"], "Missing expected argument '--to <format>'"),
        (["convert", "--to", "json", "x"], "The value 'json' is invalid for '--to <format>'"),
        (["verify"], "Missing expected argument '<file>'"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("Usage: keyedarchive"))
    }

    @Test("options accept --name=value and -xVALUE forms")
    func optionForms() throws {
        let data = try CLIFixtures.team()
        let path = try CLI.temporaryFile(data)
        let output = path + ".xml"
        #expect(try CLI.run(["convert", "--to=xml", "-o\(output)", path]).status == 0)
        #expect(try CLI.run(["json", "--key=root", "--compact", "--", path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: output))
    }
}
