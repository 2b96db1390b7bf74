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

    @Test("a directory", arguments: commands)
    func directory(command: [String]) throws {
        let folder = FileManager.default.temporaryDirectory.path
        let result = try CLI.run(command + [folder])
        #expect(result.status == 1)
        #expect(result.stderr.contains(folder))
    }

    @Test("a file that is not a property list", arguments: commands)
    func notAPropertyList(command: [String]) throws {
        let path = try CLI.temporaryFile(Data("hello, world\n".utf8), name: "note.txt")
        let result = try CLI.run(command + [path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(path))
        #expect(result.stderr.contains("not a property list"))
    }

    @Test("a property list that is not an archive", arguments: commands)
    func notAnArchive(command: [String]) throws {
        let plist = PropertyListValue.dictionary([.init(key: "name", value: .string("plain"))])
        let path = try CLI.temporaryFile(plist.propertyListData(format: .binary))
        let result = try CLI.run(command + [path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(path))
        #expect(result.stderr.contains("$archiver"))
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
