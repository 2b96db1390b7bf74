import Foundation
import KeyedArchive

/// The options of the commands that take folders and many files (`json`, `verify`,
/// `swift --check`), and what they share: when a run is a folder run, how many threads it
/// uses, and its summary.
extension OptionSpec {
    static let jobs = OptionSpec.option(
        "jobs", short: "j", value: "n",
        help: "With folders or several files: how many files to work on at once (default: the number of cores).")
    static let quiet = OptionSpec.flag(
        "quiet", short: "q", help: "With folders or several files: no progress line and no summary on standard error.")
    /// `verify`'s `--quiet`: the folder meaning, and no verdict for a sound file.
    static let verifyQuiet = OptionSpec.flag(
        "quiet", short: "q",
        help: "Print only problems: no line for a sound file (one file or many), and with folders no progress line and no summary.")
    /// `verify`'s `--verbose`.
    static let verbose = OptionSpec.flag(
        "verbose", short: "v", help: "Also list each cycle as a note (otherwise the verdict only counts them).")
    static let all = OptionSpec.flag(
        "all", help: "With folders: also report the files that are not keyed archives, instead of only counting them.")
}

extension ArgumentSpec {
    /// The inputs of the commands that take folders and many files.
    static let files = ArgumentSpec(
        "file", repeating: true,
        help: "The archives (binary or XML), or folders to read recursively; '-' for standard input.")
}

/// A run over folders or several files.
struct FolderOptions: Sendable {
    let roots: [String]
    let jobs: Int
    let quiet: Bool
    let includesAll: Bool
    /// `--max-file-size`: the most bytes one file may hold.
    let maxFileSize: Int

    /// The rules of folder runs, in the help of every command that has them.
    static let help = """
        Folders are read recursively, the entries of each folder in byte-wise order of \
        their names, so the order of the output never depends on the file system or on \
        --jobs. Symbolic links named on the command line are followed; inside folders, \
        symbolic links (to files or folders) are not followed and FIFOs, devices and \
        sockets are not opened: they are skipped, so the walk neither loops nor blocks. \
        Files found in folders that are not keyed archives (not a property list, or a \
        plain one) are skipped too and counted; --all reports them. A file that cannot \
        be read, or vanishes during the run, is reported in its place and the run goes \
        on. A file found in a folder is judged by its first kilobyte before it is read; \
        a file larger than --max-file-size (default 1G) is reported, not read, and a \
        regular file is read to the size it had when it was opened, so a file that keeps \
        growing ends too. --jobs files are worked on at once (default: one per core) and at most \
        twice as many are held in memory. On a terminal, standard error shows a progress \
        line (files done, files per second, time left); at the end a summary counts the \
        files done, failed and skipped. --quiet leaves out both. Exits with status 1 \
        when any file failed, 0 otherwise.
        """

    /// The largest `--jobs`: each thread reserves a 64 MiB stack.
    static let maxJobs = 256

    /// Whether `arguments` ask for a folder run: several inputs, or a folder.
    static func isFolderRun(_ arguments: ParsedArguments) -> Bool {
        arguments.positionals.count > 1 || arguments.positionals.contains(where: FolderWalk.isFolder)
    }

    /// The options of `command`; a wrong `--jobs` or a repeated `-` is a usage error.
    init(_ arguments: ParsedArguments, of command: CommandSpec) throws(UsageError) {
        roots = arguments.positionals
        // One file shows neither a progress line nor a summary, as before folders were read.
        quiet = arguments.has("quiet") || !Self.isFolderRun(arguments)
        includesAll = arguments.has("all")
        if let text = arguments.value("jobs") {
            guard let count = Int(text), (1...Self.maxJobs).contains(count) else {
                throw UsageError(message: "--jobs needs a number from 1 to \(Self.maxJobs), not '\(text)'", command: command)
            }
            jobs = count
        } else {
            jobs = max(1, min(ProcessInfo.processInfo.activeProcessorCount, Self.maxJobs))
        }
        if let text = arguments.value("max-file-size") {
            guard let bytes = MaxFileSize.parse(text) else {
                throw UsageError(message: MaxFileSize.refusal(text), command: command)
            }
            maxFileSize = bytes
        } else {
            maxFileSize = MaxFileSize.default
        }
        if roots.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "standard input ('-') can be read only once", command: command)
        }
    }

    /// Runs `work` on every input and prints the summary; returns the exit status: 1 when
    /// any file failed, 0 otherwise (skipped files are not failures).
    ///
    /// - Parameter done: how the summary names the files that were done ("12 archives", "12 OK").
    func run(command: String, done: (Int) -> String, work: @escaping @Sendable (FoundInput) -> FileReport) -> Int32 {
        let totals = FolderRun.run(roots, jobs: jobs, maxFileSize: maxFileSize, progress: ProgressLine.wanted(quiet: quiet), work: work)
        if !quiet { Terminal.err(Self.summary(command: command, totals, done: done(totals.done), listed: includesAll)) }
        if let note = NestedExpansionNote.text(skipped: totals.unexpandedNested) { Terminal.err(note) }
        return totals.failed > 0 ? ExitStatus.failure : ExitStatus.success
    }

    /// `json: 120 files: 80 archives, 2 failed, 38 skipped (not keyed archives, links and
    /// special files; --all lists them)`.
    static func summary(command: String, _ totals: FolderTotals, done: String, listed: Bool) -> String {
        var text = "\(command): \(totals.files) file\(totals.files == 1 ? "" : "s"): \(done), \(totals.failed) failed"
        text += ", \(totals.skipped) skipped"
        if totals.skipped > 0 { text += listed ? " (not keyed archives, links and special files)" : " (not keyed archives, links and special files; --all lists them)" }
        return text
    }
}

/// Deciding, from its first bytes, whether a file found in a folder is worth opening as an
/// archive: a binary property list, or XML with a `<plist` element in its first kilobyte.
/// Anything else (images, databases, HTML, other XML) is skipped as not a keyed archive,
/// while a file that starts like a property list and fails to read is reported as an error,
/// since it may be a damaged archive.
enum ArchiveCandidate {
    /// `nil` when `data` may be an archive; otherwise why it is not one.
    static func reasonToSkip(_ data: Data) -> String? {
        let kind = InputKind(sniffing: data)
        switch kind {
        case .binaryPropertyList: return nil
        case .xmlPropertyList, .markup:
            let head = data.prefix(1024)
            return head.firstRange(of: Data("<plist".utf8)) == nil ? "not a property list (XML without a <plist> element in its first kilobyte)" : nil
        default: return kind.notAPropertyListReason
        }
    }

    /// Whether the first bytes `head` are plainly not a property list's (an image, text,
    /// zeros): the library's reason comes from them alone, so the rest need not be read.
    /// XML and other markup are read in full (the XML reader decides).
    static func isPlainlyNotAPropertyList(_ head: [UInt8]) -> Bool {
        switch InputKind(sniffing: head) {
        case .binaryPropertyList, .xmlPropertyList, .markup, .empty: return false
        default: return true
        }
    }
}
