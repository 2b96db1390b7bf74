import Foundation
import KeyedArchive
import Testing

/// Unreadable files and inputs that are not archives: exit 1, the file named on stderr.
@Suite("CLI: errors")
struct CLIErrorTests {
    static let commands: [[String]] = [["dump"], ["json"], ["convert", "--to", "xml"], ["verify"]]

    @Test("a missing file", arguments: commands)
    func missingFile(command: [String]) throws {
        let result = try CLI.run(command + ["/nonexistent/archive.plist"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/archive.plist"))
        #expect(result.stderr.contains("No such file or directory"))
    }

    /// `json` and `verify` read folders (CLIFolderTests); the single-file commands refuse
    /// them, saying which commands take folders (`swift` says it in its own usage error).
    @Test("a directory", arguments: [["dump"], ["convert", "--to", "xml"]])
    func directory(command: [String]) throws {
        let folder = Scratch.root.path
        let result = try CLI.run(command + [folder])
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(folder): is a folder; '\(command[0])' reads one archive, while 'json', 'verify' and 'swift --check' take folders\n",
                "\(result.stderr)")
        #expect(!result.stderr.contains("Is a directory"))
    }

    @Test("a file that is not a property list", arguments: commands)
    func notAPropertyList(command: [String]) throws {
        let path = try CLI.temporaryFile(Data("hello, world\n".utf8), name: "note.txt")
        let result = try CLI.run(command + [path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(path))
        #expect(result.stderr.contains("not a property list (it looks like text, starting \"hello, world\\n\")"), "\(result.stderr)")
    }

    @Test("a property list that is not an archive: convert and verify refuse it")
    func notAnArchive() throws {
        let plist = PropertyListValue.dictionary([.init(key: "name", value: .string("plain"))])
        let path = try CLI.temporaryFile(plist.propertyListData(format: .binary))
        let convert = try CLI.run(["convert", "--to", "xml", path])
        #expect(convert.status == 1)
        #expect(convert.stderr.contains("\(path): a plain property list, not a keyed archive"))
        let verify = try CLI.run(["verify", path])
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("$archiver"))
    }

    @Test("dump and json show a plain property list and say what it is", arguments: [PropertyListFormat.binary, .xml])
    func plainPropertyList(format: PropertyListFormat) throws {
        let plist = PropertyListValue.dictionary([
            .init(key: "name", value: .string("plain")), .init(key: "sizes", value: .array([.integer(1), .integer(2)])),
        ])
        let path = try CLI.temporaryFile(plist.propertyListData(format: format))
        let note = "note: \(path) is a plain property list (\(format == .binary ? "binary" : "XML")), not a keyed archive"
        let dump = try CLI.run(["dump", "--no-color", path])
        #expect(dump.status == 0)
        #expect(dump.stderr.contains(note))
        #expect(dump.stdout == "plist = 2 entries\n  name = \"plain\"\n  sizes = 2 items\n    [0] = 1\n    [1] = 2\n")
        let json = try CLI.run(["json", "--compact", path])
        #expect(json.status == 0)
        #expect(json.stderr.contains(note))
        #expect(json.stdout == "{\"name\":\"plain\",\"sizes\":[1,2]}\n")
    }

    @Test("files of other kinds are named by what they look like", arguments: [
        ([UInt8]([0xFF, 0xD8, 0xFF, 0xE0]), "not a property list (it looks like a JPEG image)"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a property list (it looks like a PNG image)"),
        (Array("{\"a\": 1}".utf8), "not a property list (it looks like JSON)"),
        (Array("SQLite format 3\0".utf8), "not a property list (it looks like an SQLite database)"),
    ])
    func otherKinds(bytes: [UInt8], says: String) throws {
        let path = try CLI.temporaryFile(Data(bytes))
        for command in Self.commands {
            let result = try CLI.run(command + [path])
            #expect(result.status == 1)
            #expect(result.stderr.contains(path))
            #expect(result.stderr.contains(says), "\(command): \(result.stderr)")
        }
    }

    @Test("an empty standard input", arguments: commands)
    func emptyStandardInput(command: [String]) throws {
        let result = try CLI.run(command + ["-"], stdin: Data())
        #expect(result.status == 1)
        #expect(result.stderr.contains("<stdin>"))
    }

    @Test("--key naming a key the archive lacks", arguments: ["dump", "json"])
    func missingKey(command: String) throws {
        let path = try CLI.temporaryFile(try CLIFixtures.team())
        let result = try CLI.run([command, "--key", "nope", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no top-level key 'nope'"))
        #expect(result.stderr.contains("'root'"))
    }
}
