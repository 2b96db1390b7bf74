import Foundation
import HostileArchives
import KeyedArchive
import Testing

/// Issue 32 §2 through the tool: `dump` and `json` print values in every place, so a value
/// referenced from many places is output that outgrows its input; both stop at the output
/// limit (64 bytes per input byte plus 1 MB, `--max-output`) with an error naming it.
@Suite("CLI: output limit")
struct CLIOutputLimitTests {
    @Test("dump and json stop at the output limit with an error naming it", arguments: ["dump", "json"])
    func stopsAtTheLimit(command: String) throws {
        let data = AmplificationFamily.sharedString.archive(targetBytes: HostileSize.kb10.bytes)
        let path = try CLI.temporaryFile(data, name: "shared.plist")
        let result = try CLI.run([command, path], timeout: 120)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("max-output") || result.stderr.contains("maxOutputBytes"), "\(result.stderr)")
        #expect(result.stdout.utf8.count <= 64 * data.count + 1_048_576)
        if command == "json" { #expect(result.stdout.isEmpty, "a refused JSON document prints nothing") }
    }

    @Test("--max-output lowers and raises the limit", arguments: ["dump", "json"])
    func limitIsAnOption(command: String) throws {
        let data = AmplificationFamily.sharedString.archive(references: 40, length: 1_000)
        let path = try CLI.temporaryFile(data, name: "small.plist")
        let full = try CLI.run([command, path])
        #expect(full.status == 0 && full.stdout.utf8.count > 40_000, "\(full.stderr)")
        let low = try CLI.run([command, "--max-output", "10000", path])
        #expect(low.status == 1 && low.stdout.utf8.count <= 10_000, "\(low.stderr)")
        let raised = try CLI.run([command, "--max-output", "100000000",
                                  try CLI.temporaryFile(AmplificationFamily.sharedString.archive(targetBytes: HostileSize.kb10.bytes), name: "big.plist")],
                                 timeout: 120)
        #expect(raised.status == 0, "\(raised.stderr)")
        let bad = try CLI.run([command, "--max-output", "lots", path])
        #expect(bad.status != 0 && bad.stderr.contains("--max-output"))
    }

    /// `json` charges a visit per field it interprets, so reading the set's fields again at
    /// each of its references (the set's size times its references: 828 s for 1 MB in a
    /// release build before this was fixed) runs out of visits and fails here, not in time.
    @Test("json writes an object with many keys reached from many places once, and a $ref elsewhere")
    func sharedOrderedSetIsInterpretedOnce() throws {
        let data = AmplificationFamily.sharedOrderedSet.archive(targetBytes: HostileSize.kb100.bytes)
        let result = try CLI.run(["json", "--compact", try CLI.temporaryFile(data, name: "ordered.plist")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "{\"$ref\":").count > 1_000)
        #expect(result.stdout.utf8.count < 4 * data.count)
    }
}
