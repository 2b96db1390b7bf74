import Foundation
import KeyedArchive

/// `keyedarchive verify FILE...`: structural checks, every problem reported.
///
/// Findings go to standard error, one per line, like a compiler's
/// (`FILE: error: object #5 (NSArray), NS.objects[2]: …`); the verdict for each file goes
/// to standard output (`FILE: OK (12 objects, 3 cycles)`, `FILE: FAILED (2 errors)`).
/// Cycles, normal in NSCoding archives, are only counted unless `--verbose` lists them;
/// `--quiet` leaves out the verdicts of sound files.
enum VerifyCommand: ToolCommand {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check archives for structural problems.",
        discussion: """
            Checks the envelope ($archiver, $version, $top, $objects), that every object \
            has a class entry with a $classname, that every UID is in range, that \
            Foundation's classes have the fields they need (NS.objects an array of UIDs, \
            NS.keys and NS.objects of equal length, NS.time a number, 16 NS.uuidbytes, \
            and so on), and walks the graph from $top. Cycles are legal (NSCoding archives \
            often contain them, a nib hundreds): the verdict counts them, and --verbose \
            lists each as a note.

            Each finding goes to standard error as 'FILE: error|warning|note: object #N \
            (Class), key path: message'; a verdict per file goes to standard output \
            ('FILE: OK (12 objects, 3 cycles)', 'FILE: FAILED (2 errors)', and with --all \
            'FILE: skipped: REASON'). With --quiet a sound file prints nothing, on its own \
            as in folders. Exits with status 0 when every file is sound (warnings and notes \
            allowed), 1 otherwise.

            \(FolderOptions.help)
            """,
        arguments: [.files],
        options: [.noColor, .maxFileSize, .all, .jobs, .verifyQuiet, .verbose]
    )

    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        let folder: FolderOptions
        do {
            folder = try FolderOptions(arguments, of: spec)
        } catch {
            return Tool.usageError(error)
        }
        let palette = Palette(enabled: Terminal.wantsColor(noColorFlag: arguments.has("no-color"), fd: 2))
        let style = Style(palette: palette, includesAll: folder.includesAll, verbose: arguments.has("verbose"),
                          quiet: arguments.has("quiet"))
        return folder.run(command: "verify", done: { "\($0) OK" }) { report($0, style) }
    }

    /// How one file's report is written.
    struct Style: Sendable {
        let palette: Palette
        /// `--all`: a line for each skipped file.
        let includesAll: Bool
        /// `--verbose`: every cycle listed as a note.
        var verbose = false
        /// `--quiet`: no verdict for a sound file.
        var quiet = false
    }

    /// The findings (for standard error) and the verdict (for standard output) of one input.
    static func report(_ found: FoundInput, _ style: Style) -> FileReport {
        let includesAll = style.includesAll
        let name = found.shownName
        func skipped(_ reason: String) -> FileReport {
            FileReport(verdict: .skipped, output: includesAll ? "\(name): skipped: \(ArchiveText.escaped(reason))\n" : "")
        }
        func failed(_ message: String) -> FileReport {
            lines(name, (diagnostics: [Diagnostic(severity: .error, object: nil, path: "", message: message)],
                         classNames: [:], objectCount: nil, cycles: 0), style: style)
        }
        // The library's own reading must agree: anything it refuses is an error here too.
        let data: Data, refusal: String?
        switch OpenedInput(found) {
        case .skipped(let reason): return skipped(reason)
        case .failed(let reason): return failed(reason)
        case .archive(_, let bytes): (data, refusal) = (bytes, nil)
        case .refused(let reason, let bytes): (data, refusal) = (bytes, reason)
        case .plainPropertyList(let bytes):
            guard found.isNamed else { return skipped(OpenedInput.plainReason) }
            (data, refusal) = (bytes, OpenedInput.plainReason)
        }
        return lines(name, check(data, refusal: refusal), style: style)
    }

    /// The lines for one file (`name` as printed, see ``FoundInput/shownName``): each finding
    /// for standard error (cycles only with `--verbose`), the verdict for standard output (not
    /// for a sound file with `--quiet`); failed when any finding is an error.
    private static func lines(_ name: String,
                              _ found: (diagnostics: [Diagnostic], classNames: [Int: String], objectCount: Int?, cycles: Int),
                              style: Style) -> FileReport {
        let (diagnostics, classNames, palette) = (found.diagnostics, found.classNames, style.palette)
        var messages = ""
        for diagnostic in diagnostics.sorted(by: { $0.severity < $1.severity }) where style.verbose || !diagnostic.isCycle {
            let label: String
            switch diagnostic.severity {
            case .error: label = palette.paint("error:", .boldRed)
            case .warning: label = palette.paint("warning:", .yellow)
            case .note: label = palette.paint("note:", .cyan)
            }
            let className = diagnostic.object.flatMap { classNames[$0] }
            messages += "\(name): \(label) \(ArchiveText.escaped(diagnostic.text(className: className)))\n"
        }
        let failed = diagnostics.contains { $0.severity == .error }
        let output = failed || !style.quiet
            ? "\(name): " + verdict(diagnostics, objectCount: found.objectCount, cycles: found.cycles) + "\n" : ""
        return FileReport(verdict: failed ? .failed : .done, output: output, messages: messages)
    }

    /// The findings for one file's bytes, the class name of each object, the object count
    /// and the number of cycles; `refusal` is why the library would not open it as an archive, if it would not.
    static func check(_ data: Data, refusal: String?)
        -> (diagnostics: [Diagnostic], classNames: [Int: String], objectCount: Int?, cycles: Int) {
        let tree: PropertyListValue
        do {
            tree = try PropertyListValue(propertyList: data, limits: ArchiveDecoder.Limits())
        } catch {
            return ([Diagnostic(severity: .error, object: nil, path: "", message: ArchiveInput.describe(error))], [:], nil, 0)
        }
        var checker = ArchiveChecker()
        checker.check(tree)
        var diagnostics = checker.diagnostics
        if let refusal, !diagnostics.contains(where: { $0.severity == .error }) {
            diagnostics.append(Diagnostic(severity: .error, object: nil, path: "", message: refusal))
        }
        diagnostics += duplicateKeyWarnings(data)
        return (diagnostics, checker.classNames, checker.objects.isEmpty ? nil : checker.objects.count, checker.cycleCount)
    }

    /// A warning for each key a dictionary holds more than once: readers disagree on such
    /// files (Python and `PropertyListDecoder` take the last), so it is worth knowing which
    /// one Foundation, and this package, use.
    private static func duplicateKeyWarnings(_ data: Data) -> [Diagnostic] {
        let duplicates = (try? KeyedArchiveView.duplicateKeys(in: data)) ?? []
        return duplicates.map { duplicate in
            let place = duplicate.objectIndex == nil ? "property-list object \(duplicate.dictionary): " : ""
            let used = duplicate.keepsFirst ? "the first is used, as Foundation reads binary property lists"
                : "the last is used, as Foundation reads XML property lists"
            return Diagnostic(severity: .warning, object: duplicate.objectIndex, path: "",
                              message: "\(place)key '\(duplicate.key)' appears \(duplicate.occurrences) times in one dictionary; \(used)")
        }
    }

    /// `OK (12 objects, 1 note, 3 cycles)` or `FAILED (2 errors, 1 warning)`: cycles
    /// (listed or not) are counted as cycles, the other notes as notes.
    private static func verdict(_ diagnostics: [Diagnostic], objectCount: Int?, cycles: Int) -> String {
        var counts: [String] = []
        for severity in [Diagnostic.Severity.error, .warning, .note] {
            let count = diagnostics.filter { $0.severity == severity && !$0.isCycle }.count
            if count > 0 { counts.append("\(count) \(severity.rawValue)\(count == 1 ? "" : "s")") }
        }
        if cycles > 0 { counts.append("\(cycles) cycle\(cycles == 1 ? "" : "s")") }
        let failed = diagnostics.contains { $0.severity == .error }
        if !failed, let objectCount { counts.insert("\(objectCount) objects", at: 0) }
        return (failed ? "FAILED" : "OK") + (counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))")
    }
}
