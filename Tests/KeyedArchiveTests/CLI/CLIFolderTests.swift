import Foundation
import Testing

/// `json`, `verify` and `swift --check` on folders and several files.
@Suite("CLI: folders")
struct CLIFolderTests {
    @Test("json on a mixed folder: one JSON line per archive in walk order, the rest counted, errors in place")
    func jsonMixedFolder() throws {
        let root = try FolderFixtures.mixed()
        let result = try CLI.run(["json", "--jobs", "2", root.path])
        let lines = try FolderFixtures.jsonLines(result.stdout)
        let p = root.path
        #expect(lines.map { $0["path"] as? String } == ["\(p)/a.plist", "\(p)/b.xml.plist", "\(p)/damaged.plist", "\(p)/sub/deeper/c.plist"])
        #expect(lines[0]["archive"] as? [AnyHashable] == ["item", 1])
        #expect(lines[1]["archive"] as? [AnyHashable] == ["xml", 2])
        #expect((lines[2]["error"] as? String)?.contains("invalid property list") == true, "\(lines[2])")
        #expect(lines[3]["archive"] as? [AnyHashable] == ["item", 3])
        #expect(result.stderr == "json: 8 files: 3 archives, 1 failed, 4 skipped (not keyed archives, links and special files; --all lists them)\n")
        #expect(result.status == 1, "a damaged archive fails the run")
    }

    @Test("json --all lists plain property lists and skipped files too")
    func jsonAll() throws {
        let root = try FolderFixtures.mixed()
        try FileManager.default.removeItem(at: root.appendingPathComponent("damaged.plist"))
        let result = try CLI.run(["json", "--all", root.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try FolderFixtures.jsonLines(result.stdout)
        let names = lines.compactMap { ($0["path"] as? String).map { String($0.dropFirst(root.path.count + 1)) } }
        #expect(names == ["a.plist", "b.xml.plist", "empty", "photo.jpg", "settings.plist", "sub/deeper/c.plist", "sub/notes.txt"])
        #expect(lines[2]["skipped"] as? String == "not a property list (the data is empty)")
        #expect(lines[3]["skipped"] as? String == "not a property list (it looks like a JPEG image)")
        #expect(lines[4]["plist"] as? NSDictionary == ["volume": 7, "name": "settings"] as NSDictionary)
        #expect(lines[6]["skipped"] != nil)
        #expect(lines.allSatisfy { $0.count == 2 }, "each line is {path, one of archive/plist/skipped/error}")
    }

    @Test("output is byte for byte the same with --jobs 1 and --jobs 4, in byte-wise name order, depth first")
    func stableOrder() throws {
        let root = try FolderFixtures.folder()
        var files: [String: Data] = [:]
        let names = ["B", "a", "a0", "a.b", "Z9", "_x", "é", "10", "9"]
        for (index, name) in names.enumerated() {
            files["\(name).plist"] = try FolderFixtures.archive(index)
            files["\(name)/inner.plist"] = try FolderFixtures.archive(100 + index)
        }
        try FolderFixtures.write(files, in: root)
        let one = try CLI.run(["json", "--jobs", "1", root.path])
        let four = try CLI.run(["json", "--jobs", "4", root.path])
        #expect(one.status == 0 && four.status == 0)
        #expect(one.stdoutData == four.stdoutData)
        let paths = try FolderFixtures.jsonLines(one.stdout).compactMap { $0["path"] as? String }.map { String($0.dropFirst(root.path.count + 1)) }
        // Each folder's entries sorted by their UTF-8 bytes; a subfolder's files come where its name falls.
        let expected = files.keys.map { $0.split(separator: "/").map(String.init) }
            .sorted { $0.lexicographicallyPrecedes($1) { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } }
            .map { $0.joined(separator: "/") }
        #expect(paths == expected)
        #expect(paths.first == "10/inner.plist" && paths.last == "é.plist")
    }

    @Test("verify on a folder: a verdict per file, findings on standard error, a summary, status 1 when one failed")
    func verifyFolder() throws {
        let root = try FolderFixtures.mixed()
        let result = try CLI.run(["verify", root.path])
        let p = root.path
        #expect(result.stdout == """
            \(p)/a.plist: OK (5 objects)
            \(p)/b.xml.plist: OK (5 objects)
            \(p)/damaged.plist: FAILED (1 error)
            \(p)/sub/deeper/c.plist: OK (5 objects)

            """)
        #expect(result.stderr.hasPrefix("\(p)/damaged.plist: error: invalid property list"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("verify: 8 files: 3 OK, 1 failed, 4 skipped (not keyed archives, links and special files; --all lists them)\n"))
        #expect(result.status == 1)

        try FileManager.default.removeItem(at: root.appendingPathComponent("damaged.plist"))
        let sound = try CLI.run(["verify", "--all", "--quiet", root.path])
        #expect(sound.status == 0)
        #expect(sound.stderr.isEmpty, "--quiet leaves out the summary")
        #expect(sound.stdout.contains("\(p)/settings.plist: skipped: a plain property list, not a keyed archive\n"))
        // --quiet leaves out the verdicts of the 3 sound files; --all still names the 4 skipped.
        #expect(!sound.stdout.contains(": OK ("), "\(sound.stdout)")
        #expect(sound.stdout.split(separator: "\n").count == 4)
    }

    @Test("a file named on the command line is always judged, never skipped")
    func namedFilesAreJudged() throws {
        let root = try FolderFixtures.mixed()
        let photo = root.appendingPathComponent("photo.jpg").path, settings = root.appendingPathComponent("settings.plist").path
        let verify = try CLI.run(["verify", photo, settings])
        #expect(verify.status == 1)
        #expect(verify.stdout == "\(photo): FAILED (1 error)\n\(settings): FAILED (4 errors)\n")
        let json = try FolderFixtures.jsonLines(try CLI.run(["json", photo, settings]).stdout)
        #expect(json[0]["error"] as? String == "not a property list (it looks like a JPEG image)")
        #expect(json[1]["plist"] as? NSDictionary == ["volume": 7, "name": "settings"] as NSDictionary)
    }

    @Test("swift --check generates the code of every archive in a folder and prints a line per file")
    func swiftCheck() throws {
        let root = try FolderFixtures.mixed()
        let result = try CLI.run(["swift", "--check", root.path])
        let p = root.path
        #expect(result.stdout == """
            \(p)/a.plist: OK (1 type, 38 lines)
            \(p)/b.xml.plist: OK (1 type, 38 lines)
            \(p)/damaged.plist: FAILED
            \(p)/sub/deeper/c.plist: OK (1 type, 38 lines)

            """)
        #expect(result.stderr.hasPrefix("\(p)/damaged.plist: error: invalid property list"))
        #expect(result.stderr.contains("swift --check: 8 files: 3 OK, 1 failed, 4 skipped"))
        #expect(result.status == 1)
    }

    @Test("symbolic links inside folders are not followed, so a loop ends; a named link is followed")
    func symbolicLinkLoops() throws {
        let root = try FolderFixtures.folder()
        try FolderFixtures.write(["inner/a.plist": try FolderFixtures.archive(1)], in: root)
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("inner/up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("inner/self").path, withDestinationPath: "self")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("inner/gone").path, withDestinationPath: "nowhere")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("link").path, withDestinationPath: "inner")
        let result = try CLI.run(["json", "--all", root.path, root.appendingPathComponent("link").path, root.appendingPathComponent("inner/self").path],
                                 timeout: 30)
        #expect(!result.timedOut)
        let lines = try FolderFixtures.jsonLines(result.stdout)
        let p = root.path
        #expect(lines.map { $0["path"] as? String } == [
            "\(p)/inner/a.plist", "\(p)/inner/gone", "\(p)/inner/self", "\(p)/inner/up", "\(p)/link",
            "\(p)/link/a.plist", "\(p)/link/gone", "\(p)/link/self", "\(p)/link/up", "\(p)/inner/self",
        ])
        #expect(lines[1]["skipped"] as? String == "a symbolic link, not followed inside folders")
        #expect(lines[9]["error"] as? String == "cannot open: Too many levels of symbolic links")
        #expect(result.status == 1)
    }

    @Test("a FIFO in a folder is skipped without being opened")
    func fifoIsSkipped() throws {
        let root = try FolderFixtures.folder()
        try FolderFixtures.write(["z.plist": try FolderFixtures.archive(1)], in: root)
        #expect(mkfifo(root.appendingPathComponent("pipe").path, 0o600) == 0)
        let result = try CLI.run(["verify", "--all", root.path], timeout: 30)
        #expect(!result.timedOut, "opening the FIFO would wait for a writer forever")
        #expect(result.stdout == "\(root.path)/pipe: skipped: a FIFO, not opened\n\(root.path)/z.plist: OK (5 objects)\n")
        #expect(result.status == 0)
    }

    @Test("an unreadable file is reported in its place and the run goes on",
          .disabled(if: getuid() == 0, "root reads files whatever their mode"))
    func unreadableFile() throws {
        let root = try FolderFixtures.folder()
        try FolderFixtures.write(["a.plist": try FolderFixtures.archive(1), "b.plist": try FolderFixtures.archive(2),
                                  "c.plist": try FolderFixtures.archive(3), "locked/d.plist": try FolderFixtures.archive(4)], in: root)
        #expect(chmod(root.appendingPathComponent("b.plist").path, 0) == 0)
        #expect(chmod(root.appendingPathComponent("locked").path, 0) == 0)
        defer { _ = chmod(root.appendingPathComponent("locked").path, 0o755) }
        let lines = try FolderFixtures.jsonLines(try CLI.run(["json", root.path]).stdout)
        #expect(lines.map { $0["path"] as? String } == ["a", "b", "c", "locked"].map { "\(root.path)/\($0)" + ($0 == "locked" ? "" : ".plist") })
        #expect(lines[1]["error"] as? String == "cannot open: Permission denied")
        #expect(lines[3]["error"] as? String == "cannot list: Permission denied")
        #expect(lines[2]["archive"] != nil)
    }

    @Test("a read error is reported in its place and the run goes on",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem"), "needs Linux's /proc"))
    func readError() throws {
        let root = try FolderFixtures.folder()
        try FolderFixtures.write(["a.plist": try FolderFixtures.archive(1)], in: root)
        // Opening /proc/self/mem succeeds and reading it at offset 0 fails (EIO), even as root.
        let result = try CLI.run(["json", "/proc/self/mem", root.path])
        let lines = try FolderFixtures.jsonLines(result.stdout)
        #expect(lines.count == 2)
        #expect(lines[0]["error"] as? String == "cannot read: Input/output error")
        #expect(lines[1]["archive"] as? [AnyHashable] == ["item", 1])
        #expect(result.status == 1)
    }

    @Test("a file that vanishes between the walk and the read is reported in its place")
    func vanishingFile() throws {
        let root = try FolderFixtures.folder()
        try FolderFixtures.write(["a.plist": try FolderFixtures.archive(1), "b.plist": try FolderFixtures.archive(2),
                                  "c.plist": try FolderFixtures.archive(3)], in: root)
        // Debug builds of the tool remove the file of this name just before opening it.
        let result = try CLI.run(["verify", root.path], environment: ["KEYEDARCHIVE_TEST_REMOVE_BEFORE_READ": "b.plist"])
        let p = root.path
        #expect(!FileManager.default.fileExists(atPath: "\(p)/b.plist"), "the test hook needs a debug build of keyedarchive")
        #expect(result.stdout == "\(p)/a.plist: OK (5 objects)\n\(p)/b.plist: FAILED (1 error)\n\(p)/c.plist: OK (5 objects)\n")
        #expect(result.stderr.hasPrefix("\(p)/b.plist: error: cannot open: No such file or directory\n"))
        #expect(result.status == 1)
    }

    @Test("file names are escaped: JSON strings in json, ArchiveText in verify; non-UTF-8 names are still read")
    func awkwardNames() throws {
        let root = try FolderFixtures.folder()
        let name = "evil\u{1B}]52;c;AAAA\u{07}\n.plist"
        try FolderFixtures.write([name: try FolderFixtures.archive(1)], in: root)
        // A name that is not UTF-8 (Latin-1 "é"): shown with U+FFFD, opened by its bytes. Linux
        // file systems take any bytes; APFS and HFS+ refuse such a name, so it is not made there.
        #if os(Linux)
        let raw = Array((root.path + "/caf").utf8) + [0xE9] + Array(".plist".utf8)
        let fd = open(raw.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(fd >= 0)
        let bytes = try FolderFixtures.archive(2)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let expected: [(path: String, item: Int)] = [("\(root.path)/caf\u{FFFD}.plist", 2), ("\(root.path)/\(name)", 1)]
        #else
        let expected: [(path: String, item: Int)] = [("\(root.path)/\(name)", 1)]
        #endif

        let json = try CLI.run(["json", root.path])
        #expect(!json.stdout.contains("\u{1B}"))
        let lines = try FolderFixtures.jsonLines(json.stdout)
        #expect(lines.map { $0["path"] as? String } == expected.map(\.path))
        for (line, entry) in zip(lines, expected) {
            #expect(line["archive"] as? [AnyHashable] == ["item", AnyHashable(entry.item)])
        }

        let verify = try CLI.run(["verify", root.path])
        #expect(!verify.stdout.contains("\u{1B}") && !verify.stdout.contains("\u{07}"))
        #expect(verify.stdout.contains("/evil\\u{1b}]52;c;AAAA\\u{07}\\n.plist: OK (5 objects)"), "\(verify.stdout)")
    }

    @Test("a progress line on a terminal's standard error, never in a pipe or with --quiet",
          .enabled(if: CLIDumpTests.script != nil, "`script` is not installed"))
    func progressLine() throws {
        let binary = try #require(CLI.binary)
        let root = try FolderFixtures.mixed()
        func onTerminal(_ arguments: String) throws -> String {
            let script = URL(fileURLWithPath: try #require(CLIDumpTests.script))
            // Standard output goes to a file: only standard error is the terminal.
            return try BuiltExecutable.run(path: script, CLIDumpTests.scriptArguments("'\(binary.path)' \(arguments) '\(root.path)' >/dev/null"),
                                           environment: ["TERM": "xterm"]).stdout
        }
        let shown = try onTerminal("verify")
        #expect(shown.contains(" files/s"), "\(shown)")
        #expect(shown.contains("\r\u{1B}[K"), "the line is erased before the summary")
        #expect(!(try onTerminal("verify --quiet")).contains("files/s"))
        #expect(!(try CLI.run(["verify", root.path]).stderr.contains("files/s")))
    }

    @Test("one file keeps its single-file output: pretty JSON, no summary")
    func oneFileUnchanged() throws {
        let path = try CLI.temporaryFile(try FolderFixtures.archive(7))
        let result = try CLI.run(["json", path])
        #expect(result.stdout == "[\n  \"item\",\n  7\n]\n")
        #expect(result.stderr.isEmpty)
    }
}

/// Folder runs over the shared corpus.
@Suite("CLI: folders, corpus")
struct CLIFolderCorpusTests {
    @Test("json on the corpus's Apple archives: a line per file, each the same JSON as the file alone", .requiresCorpus)
    func appleArchives() throws {
        let folder = CLI.corpusFile("apple")
        let files = CLI.corpusFiles(under: "apple").map(CLI.corpusFile)
        let result = try CLI.run(["json", "--all", folder])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == files.count)
        let parsed = try FolderFixtures.jsonLines(result.stdout)
        #expect(Set(parsed.compactMap { $0["path"] as? String }) == Set(files))
        #expect(parsed.allSatisfy { $0["archive"] != nil }, "\(parsed.filter { $0["archive"] == nil })")
        for (line, object) in zip(lines, parsed).prefix(12) {
            let file = try #require(object["path"] as? String)
            let alone = try CLI.run(["json", "--compact", file]).stdout
            #expect(line == "{\"path\":\"\(file)\",\"archive\":" + alone.dropLast() + "}")
        }
    }

    @Test("json on the hostile corpus finishes, reports every file in its place and fails", .requiresCorpus)
    func hostileFiles() throws {
        let result = try CLI.run(["json", "--all", "--jobs", "2", CLI.corpusFile("hostile")], timeout: 300)
        #expect(!result.timedOut)
        let lines = try FolderFixtures.jsonLines(result.stdout)
        #expect(lines.count == CLI.corpusFiles(under: "hostile").count)
        #expect(lines.allSatisfy { $0.count == 2 && $0["path"] is String })
        #expect(lines.contains { $0["error"] != nil })
        #expect(result.status == 1)
    }
}
