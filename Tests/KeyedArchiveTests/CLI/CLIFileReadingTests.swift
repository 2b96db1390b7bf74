import Foundation
import Testing

/// How the tool reads its inputs: huge, growing, special and rewritten files, the
/// `--max-file-size` cap, and work threads the system refuses.
@Suite("CLI: reading files")
struct CLIFileReadingTests {
    /// A sparse file of `size` bytes (no disk used) starting with `head`.
    private static func sparseFile(_ url: URL, size: Int64, head: Data = Data()) throws {
        try head.write(to: url)
        try #require(truncate(url.path, off_t(size)) == 0, "cannot make a sparse file of \(size) bytes")
    }

    /// Two archives around a 5 GB file of zeros and a 3 GB file that starts like a binary
    /// property list.
    private static func folderWithHugeFiles() throws -> URL {
        let root = try FolderFixtures.folder()
        try FolderFixtures.write(["a.plist": try FolderFixtures.archive(1), "z.plist": try FolderFixtures.archive(2)], in: root)
        try sparseFile(root.appendingPathComponent("disk.img"), size: 5 << 30)
        try sparseFile(root.appendingPathComponent("huge.plist"), size: 3 << 30, head: Data("bplist00".utf8))
        return root
    }

    @Test("A 5 GB file found in a folder is skipped by its first bytes, a 3 GB property list passes --max-file-size, the others are read")
    func hugeFilesInAFolder() throws {
        let root = try Self.folderWithHugeFiles()
        let p = root.path
        let result = try CLI.run(["json", "--all", "--jobs", "2", p])
        let lines = try FolderFixtures.jsonLines(result.stdout)
        #expect(lines.map { $0["path"] as? String } == ["\(p)/a.plist", "\(p)/disk.img", "\(p)/huge.plist", "\(p)/z.plist"])
        #expect(lines[0]["archive"] as? [AnyHashable] == ["item", 1])
        #expect((lines[1]["skipped"] as? String)?.hasPrefix("not a property list") == true, "\(lines[1])")
        #expect(lines[2]["error"] as? String == "cannot read: it is 3221225472 bytes, more than the limit of 1073741824 (--max-file-size)",
                "\(lines[2])")
        #expect(lines[3]["archive"] as? [AnyHashable] == ["item", 2])
        #expect(result.status == 1, "the file over the limit fails the run")

        // verify and swift --check read the same way.
        let verify = try CLI.run(["verify", p])
        #expect(verify.stdout.contains("\(p)/huge.plist: FAILED"), "\(verify.stdout)")
        #expect(verify.stderr.contains("more than the limit of 1073741824 (--max-file-size)"), "\(verify.stderr)")
        #expect(verify.stdout.contains("\(p)/a.plist: OK") && verify.stdout.contains("\(p)/z.plist: OK"))
        let check = try CLI.run(["swift", "--check", "--jobs", "1", p])
        #expect(check.stdout.contains("\(p)/z.plist: OK"), "\(check.stdout)")
    }

    @Test("--max-file-size refuses smaller files too, takes K/M/G, and rejects nonsense")
    func maxFileSizeOption() throws {
        let root = try FolderFixtures.folder()
        let archive = try FolderFixtures.archive(1)
        try FolderFixtures.write(["a.plist": archive], in: root)
        let file = root.appendingPathComponent("a.plist").path
        let small = try CLI.run(["json", "--max-file-size", "100", root.path])
        #expect(small.stdout.contains("more than the limit of 100 (--max-file-size)"), "\(small.stdout)")
        #expect(small.status == 1)
        let single = try CLI.run(["dump", "--max-file-size", "100", file])
        #expect(single.stderr.contains("\(file): cannot read: it is \(archive.count) bytes, more than the limit of 100 (--max-file-size)"),
                "\(single.stderr)")
        #expect(single.status == 1)
        #expect(try CLI.run(["dump", "--max-file-size", "1K", file]).status == 0)
        #expect(try CLI.run(["convert", "--to", "xml", "--max-file-size", "1M", file]).status == 0)
        // Standard input is capped as it is read.
        let piped = try CLI.run(["json", "--max-file-size", "100", "-"], stdin: archive)
        #expect(piped.stderr.contains("more than the limit of 100") && piped.stderr.contains("(--max-file-size)"), "\(piped.stderr)")
        let wrong = try CLI.run(["verify", "--max-file-size", "lots", file])
        #expect(wrong.status == 2, "a usage error")
        #expect(wrong.stderr.contains("--max-file-size needs a size"), "\(wrong.stderr)")
        #expect(try CLI.run(["json", "--max-file-size", "0", file]).status != 0)
    }

    @Test("A symbolic link to /dev/zero named on the command line is judged by its first kilobyte, not read to the limit")
    func devZeroNamed() throws {
        let root = try FolderFixtures.folder()
        let link = root.appendingPathComponent("zero.plist")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
        let result = try CLI.run(["dump", link.path], timeout: 30)
        #expect(!result.timedOut)
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a property list"), "\(result.stderr)")
        // Inside a folder it is a link, not followed.
        let folder = try CLI.run(["json", "--all", root.path], timeout: 30)
        #expect(folder.stdout.contains("a symbolic link, not followed"), "\(folder.stdout)")
    }

    @Test("A file that keeps growing is read to the size it had when opened")
    func growingFile() throws {
        let root = try FolderFixtures.folder()
        let url = root.appendingPathComponent("growing.plist")
        // Starts like an XML property list, so it is read, not skipped.
        try Data("<?xml version=\"1.0\"?><plist><array>".utf8).write(to: url)
        let writer = try FileHandle(forWritingTo: url)
        let stop = StopFlag()
        let appender = Thread {
            let chunk = Data(repeating: UInt8(ascii: " "), count: 1 << 16)
            var written = 0
            while !stop.isSet, written < 32 << 20 {
                writer.seekToEndOfFile()
                writer.write(chunk)
                written += chunk.count
            }
        }
        appender.start()
        defer { stop.set(); usleep(50_000); try? writer.close() }
        let result = try CLI.run(["json", "--all", root.path], timeout: 120)
        stop.set()
        #expect(!result.timedOut, "the run ends while the file grows")
        let lines = try FolderFixtures.jsonLines(result.stdout)
        #expect(lines.count == 1 && lines.first?["error"] != nil, "an unfinished XML file is an error: \(lines)")
    }

    @Test("Rewriting the file in place while the tool reads it gives an error or a value, never SIGBUS")
    func truncatedWhileRead() throws {
        let root = try FolderFixtures.folder()
        let url = root.appendingPathComponent("rewritten.plist")
        // About 1 MB: long enough that the rewrites land during the reads.
        let big = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: (0..<40_000).map { "value number \($0)" }),
                                                   requiringSecureCoding: false)
        try big.write(to: url)
        let stop = StopFlag()
        let rewriter = Thread {
            let fd = open(url.path, O_WRONLY)
            guard fd >= 0 else { return }
            while !stop.isSet {
                _ = ftruncate(fd, 0)
                _ = big.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            }
            close(fd)
        }
        rewriter.start()
        defer { stop.set() }
        for round in 0..<20 {
            let result = try CLI.run(["json", "--compact", url.path], timeout: 60)
            #expect(result.status == 0 || result.status == 1, "round \(round): status \(result.status) (7 is SIGBUS): \(result.stderr)")
            #expect(!result.timedOut)
        }
    }

    @Test("Work threads the system refuses: the run goes on with fewer, or on the calling thread, with the same output")
    func refusedThreads() throws {
        let root = try FolderFixtures.mixed()
        let reference = try CLI.run(["json", "--jobs", "1", root.path])
        for allowed in ["0", "1", "2"] {
            let result = try CLI.run(["json", "--jobs", "4", root.path], environment: ["KEYEDARCHIVE_TEST_THREADS": allowed], timeout: 60)
            #expect(!result.timedOut, "\(allowed) threads allowed")
            #expect(result.stdoutData == reference.stdoutData, "\(allowed) threads allowed")
            #expect(result.status == reference.status)
        }
    }

    @Test("Under an address-space limit, --jobs 200 does not wait forever for threads that never start",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func addressSpaceLimit() throws {
        let binary = try #require(CLI.binary)
        let root = try FolderFixtures.mixed()
        // 200 stacks of 64 MiB need 12.5 GiB of address space; the limit leaves room for
        // the program and a few of them.
        let script = "ulimit -v 4000000 && exec \"$0\" json --jobs 200 \"$1\""
        let result = try BuiltExecutable.run(path: URL(fileURLWithPath: "/bin/bash"), ["-c", script, binary.path, root.path], timeout: 60)
        #expect(!result.timedOut, "the run ended")
        let reference = try CLI.run(["json", "--jobs", "1", root.path])
        #expect(result.stdoutData == reference.stdoutData, "\(result.stderr)")
    }
}

/// A flag one thread sets and another polls.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
