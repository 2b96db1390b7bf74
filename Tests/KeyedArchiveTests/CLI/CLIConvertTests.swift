import Foundation
import KeyedArchive
import Testing

/// `keyedarchive convert`: the object graph survives a trip through XML and back.
@Suite("CLI: convert")
struct CLIConvertTests {
    /// Every archive in the corpus that should open.
    static var appleFiles: [String] { CLI.corpusFiles(under: "apple") }

    /// Converts to XML and back to binary (through standard input) and checks that the
    /// library's untyped view and the tool's JSON are unchanged.
    func roundTrip(_ original: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let source = try CLI.temporaryFile(original)
        let xmlPath = source + ".xml"
        var toXML = try CLI.run(["convert", "--to", "xml", source, "-o", xmlPath])
        if toXML.status == 1 && toXML.stderr.contains("which XML 1.0 cannot represent") {
            // A string XML cannot hold (a nib's Delete key equivalent): refused, with nothing
            // written; written raw, as Foundation writes it, when asked.
            #expect(!FileManager.default.fileExists(atPath: xmlPath), sourceLocation: sourceLocation)
            toXML = try CLI.run(["convert", "--to", "xml", "--raw-xml-characters", source, "-o", xmlPath])
        }
        #expect(toXML.status == 0, "\(toXML.stderr)", sourceLocation: sourceLocation)
        #expect(toXML.stdout.isEmpty, sourceLocation: sourceLocation)
        let xml = try Data(contentsOf: URL(fileURLWithPath: xmlPath))
        #expect(xml.starts(with: Data("<?xml".utf8)), sourceLocation: sourceLocation)

        let toBinary = try CLI.run(["convert", "--to", "binary", "-"], stdin: xml)
        #expect(toBinary.status == 0, "\(toBinary.stderr)", sourceLocation: sourceLocation)
        #expect(toBinary.stdoutData.starts(with: Data("bplist00".utf8)), sourceLocation: sourceLocation)

        let before = try KeyedArchiveView(data: original)
        for converted in [xml, toBinary.stdoutData] {
            let after = try KeyedArchiveView(data: converted)
            #expect(after.topLevel == before.topLevel, sourceLocation: sourceLocation)
            // Compared as text: NaN, which an archive may hold, is not equal to itself.
            #expect(String(describing: after.objects) == String(describing: before.objects), sourceLocation: sourceLocation)
            #expect(after.render() == before.render(), sourceLocation: sourceLocation)
        }
        let jsonBefore = try CLI.run(["json", source])
        let jsonAfter = try CLI.run(["json", "-"], stdin: toBinary.stdoutData)
        #expect(jsonBefore.stdout == jsonAfter.stdout, sourceLocation: sourceLocation)
    }

    @Test("corpus archives round-trip through XML and binary", .requiresCorpus,
          arguments: appleFiles)
    func corpus(file: String) throws {
        try roundTrip(try Data(contentsOf: CLI.corpus.appendingPathComponent(file)))
    }

    @Test("archives from NSKeyedArchiver round-trip through XML and binary")
    func foundationArchives() throws {
        try roundTrip(try CLIFixtures.team())
        try roundTrip(try CLIFixtures.values())
    }

    @Test("a string XML 1.0 cannot hold is refused, naming the object and key; --raw-xml-characters writes it")
    func forbiddenCharacters() throws {
        struct Item: Codable { var title: String }
        let data = try ArchiveEncoder().encode(Item(title: "Back\u{8}space"))
        let path = try CLI.temporaryFile(data)
        let output = path + ".xml"
        let refused = try CLI.run(["convert", "--to", "xml", path, "-o", output])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(path + ": object 3: \"Back\\u{08}space\" holds U+0008, which XML 1.0 cannot represent"), "\(refused.stderr)")
        #expect(refused.stderr.contains("convert to binary, or pass --raw-xml-characters"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let raw = try CLI.run(["convert", "--to", "xml", "--raw-xml-characters", path])
        #expect(raw.status == 0, "\(raw.stderr)")
        #expect(raw.stdout.contains("<string>Back\u{8}space</string>"))
        #expect(try ArchiveDecoder().decode(Item.self, from: raw.stdoutData).title == "Back\u{8}space")
    }

    @Test("a broken archive is refused, and no output file is written")
    func refusesBrokenArchive() throws {
        let broken = CLIFixtures.raw([CLIFixtures.object(9, [])])
        let path = try CLI.temporaryFile(broken)
        let output = path + ".out"
        let result = try CLI.run(["convert", "--to", "xml", path, "-o", output])
        #expect(result.status == 1)
        #expect(result.stderr.contains(path))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("an unwritable output is an error naming it")
    func unwritableOutput() throws {
        let path = try CLI.temporaryFile(try CLIFixtures.team())
        let result = try CLI.run(["convert", "--to", "xml", path, "-o", "/nonexistent/folder/out.xml"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/folder/out.xml"))
    }
}

/// `convert -o` never writes through a symbolic link and leaves no temporary file.
@Suite("CLI: convert output file")
struct CLIConvertOutputFileTests {
    @Test("a symbolic link at the output path is replaced, and the file it points to is untouched")
    func linkAtOutputIsReplaced() throws {
        let path = try CLI.temporaryFile(try CLIFixtures.team())
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let victim = folder.appendingPathComponent("victim")
        try Data("keep".utf8).write(to: victim)
        let output = folder.appendingPathComponent("out.xml")
        try FileManager.default.createSymbolicLink(at: output, withDestinationURL: victim)
        let result = try CLI.run(["convert", "--to", "xml", path, "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: victim) == Data("keep".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: output.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try Data(contentsOf: output).starts(with: Data("<?xml".utf8)))
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(entries == ["archive.plist", "out.xml", "victim"], "a temporary file was left behind")
    }

    @Test("links planted under the old predictable temporary names are never followed")
    func plantedTemporaryLinks() throws {
        let path = try CLI.temporaryFile(try CLIFixtures.team())
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let victim = folder.appendingPathComponent("victim")
        try Data("keep".utf8).write(to: victim)
        let output = folder.appendingPathComponent("out.plist")
        // The tool used to write `OUT.keyedarchive-<pid>`; plant links for a range of pids.
        for pid in 1...400 {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("out.plist.keyedarchive-\(pid)"), withDestinationURL: victim)
        }
        let result = try CLI.run(["convert", "--to", "binary", path, "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: victim) == Data("keep".utf8))
        #expect(try Data(contentsOf: output).starts(with: Data("bplist00".utf8)))
    }
}
