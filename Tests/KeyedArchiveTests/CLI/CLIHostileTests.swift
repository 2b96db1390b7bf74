import Foundation
import Testing

/// Every hostile input: a message and exit status 1 (0 only for the few that are sound
/// archives), never a crash, never a hang.
@Suite("CLI: hostile inputs")
struct CLIHostileTests {
    static var hostileFiles: [String] { CLI.corpusFiles(under: "hostile") }

    @Test("hostile files fail cleanly", .requiresCorpus,
          arguments: hostileFiles)
    func hostile(file: String) throws {
        let path = CLI.corpusFile(file)
        let verify = try CLI.run(["verify", path], timeout: 30)
        #expect(!verify.timedOut)
        #expect(verify.status == 0 || verify.status == 1, "verify exit \(verify.status): \(verify.stderr)")
        let sound = verify.status == 0
        if !sound { #expect(!verify.stderr.isEmpty) }
        for command in [["dump"], ["json"], ["convert", "--to", "xml"]] {
            let result = try CLI.run(command + [path], timeout: 30)
            #expect(!result.timedOut, "\(command[0]) hung")
            // dump and json show a well-formed plain property list (saying so) instead of refusing it.
            let plain = command[0] != "convert" && result.stderr.hasPrefix("note: \(path) is a plain property list")
            #expect(result.status == (sound || plain ? 0 : 1), "\(command[0]) exit \(result.status): \(result.stderr)")
            if !sound && !plain {
                #expect(result.stderr.hasPrefix("error: \(path): "), "\(command[0]): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }
    }

    @Test("the hostile corpus is there and mostly refused", .requiresCorpus)
    func corpusShape() throws {
        let files = Self.hostileFiles
        #expect(files.count >= 60)
        let result = try CLI.run(["verify"] + files.map(CLI.corpusFile), timeout: 120)
        #expect(result.status == 1)
        let sound = result.stdout.split(separator: "\n").filter { $0.contains(": OK") }
        #expect(sound.count <= 3, "sound hostile files: \(sound)")
    }
}
