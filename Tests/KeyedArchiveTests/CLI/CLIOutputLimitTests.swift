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

    /// Issue 53 §6: `$objects` entries that all share one long string. Before, `convert`
    /// hashed the string once per reference into binary (50 s for 100 KB) and wrote it once
    /// per reference into XML (4.9 GB).
    @Test("convert keeps a shared string shared in binary, and stops XML at the output limit")
    func convertSharedString() throws {
        let data = AmplificationFamily.objectsShareOneString.archive(targetBytes: HostileSize.kb100.bytes)
        let path = try CLI.temporaryFile(data, name: "objects-share.plist")
        let binary = try CLI.run(["convert", "--to", "binary", path], timeout: 120)
        #expect(binary.status == 0, "\(binary.stderr)")
        // The string is written once: the output is about the input's size.
        #expect(binary.stdoutData.count <= data.count + data.count / 4, "\(binary.stdoutData.count) bytes from \(data.count)")
        let back = try KeyedArchiveView(data: binary.stdoutData)
        #expect(String(describing: back.objects) == String(describing: try KeyedArchiveView(data: data).objects))

        let xmlPath = path + ".xml"
        let xml = try CLI.run(["convert", "--to", "xml", path, "-o", xmlPath], timeout: 120)
        #expect(xml.status == 1, "\(xml.stderr)")
        #expect(xml.stderr.contains("output would pass \(64 * data.count + 1_048_576) bytes"), "\(xml.stderr)")
        #expect(xml.stderr.contains("--to binary"), "\(xml.stderr)")
        #expect(xml.stdout.isEmpty && !FileManager.default.fileExists(atPath: xmlPath))
    }

    @Test("convert to XML writes shared values in full while the output is within the limit")
    func convertSharedStringWithinTheLimit() throws {
        let data = AmplificationFamily.objectsShareOneString.archive(references: 40, length: 1_000)
        let path = try CLI.temporaryFile(data, name: "objects-share-small.plist")
        let xml = try CLI.run(["convert", "--to", "xml", path])
        #expect(xml.status == 0, "\(xml.stderr)")
        #expect(xml.stdoutData.count > 40_000)
        let back = try KeyedArchiveView(data: xml.stdoutData)
        #expect(String(describing: back.objects) == String(describing: try KeyedArchiveView(data: data).objects))
    }
}
