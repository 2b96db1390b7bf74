import Foundation
import KeyedArchive

/// `keyedarchive verify FILE...`: structural checks, every problem reported.
///
/// Findings go to standard error, one per line, like a compiler's
/// (`FILE: error: object #5 (NSArray), NS.objects[2]: …`); the verdict for each file goes
/// to standard output (`FILE: OK (12 objects)`, `FILE: FAILED (2 errors)`).
enum VerifyCommand: ToolCommand {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check archives for structural problems.",
        discussion: """
            Checks the envelope ($archiver, $version, $top, $objects), that every object \
            has a class entry with a $classname, that every UID is in range, that \
            Foundation's classes have the fields they need (NS.objects an array of UIDs, \
            NS.keys and NS.objects of equal length, NS.time a number, 16 NS.uuidbytes, \
            and so on), and walks the graph from $top. Cycles are reported as notes: \
            NSCoding archives may contain them.

            Each finding goes to standard error as 'FILE: error|warning|note: object #N \
            (Class), key path: message'; a verdict per file goes to standard output. Exits \
            with status 0 when every file is sound (warnings and notes allowed), 1 otherwise.
            """,
        arguments: [ArgumentSpec("file", repeating: true, help: "The archives to check (binary or XML); '-' reads standard input.")],
        options: [.noColor]
    )

    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        let palette = Palette(enabled: Terminal.wantsColor(noColorFlag: arguments.has("no-color"), fd: 2))
        var allSound = true
        for path in arguments.positionals {
            let (diagnostics, classNames, objectCount) = check(path)
            for diagnostic in diagnostics.sorted(by: { $0.severity < $1.severity }) {
                let label: String
                switch diagnostic.severity {
                case .error: label = palette.paint("error:", .boldRed)
                case .warning: label = palette.paint("warning:", .yellow)
                case .note: label = palette.paint("note:", .cyan)
                }
                let className = diagnostic.object.flatMap { classNames[$0] }
                Terminal.err("\(ArchiveText.escaped(name(path))): \(label) \(ArchiveText.escaped(diagnostic.text(className: className)))")
            }
            let errors = diagnostics.filter { $0.severity == .error }.count
            allSound = allSound && errors == 0
            Terminal.out("\(ArchiveText.escaped(name(path))): " + verdict(diagnostics, objectCount: objectCount))
        }
        return allSound ? ExitStatus.success : ExitStatus.failure
    }

    private static func name(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// The findings for one file, the class name of each object, and the object count.
    static func check(_ path: String) -> ([Diagnostic], [Int: String], Int?) {
        func failure(_ error: ToolError) -> ([Diagnostic], [Int: String], Int?) {
            // The message starts with the file name, which each line already shows.
            let message = String(error.message.dropFirst(name(path).count + 2))
            return ([Diagnostic(severity: .error, object: nil, path: "", message: message)], [:], nil)
        }
        let input: ArchiveInput
        let tree: PropertyListValue
        do {
            input = try ArchiveInput.read(path)
            tree = try input.propertyList()
        } catch {
            return failure(error)
        }
        var checker = ArchiveChecker()
        checker.check(tree)
        var diagnostics = checker.diagnostics
        // The library's own reading must agree: anything it refuses is an error here too.
        if !diagnostics.contains(where: { $0.severity == .error }) {
            do {
                _ = try input.view()
            } catch {
                diagnostics += failure(error).0
            }
        }
        diagnostics += duplicateKeyWarnings(input.data)
        return (diagnostics, checker.classNames, checker.objects.isEmpty ? nil : checker.objects.count)
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

    /// `OK (12 objects, 1 note)` or `FAILED (2 errors, 1 warning)`.
    private static func verdict(_ diagnostics: [Diagnostic], objectCount: Int?) -> String {
        var counts: [String] = []
        for severity in [Diagnostic.Severity.error, .warning, .note] {
            let count = diagnostics.filter { $0.severity == severity }.count
            if count > 0 { counts.append("\(count) \(severity.rawValue)\(count == 1 ? "" : "s")") }
        }
        let failed = diagnostics.contains { $0.severity == .error }
        if !failed, let objectCount { counts.insert("\(objectCount) objects", at: 0) }
        return (failed ? "FAILED" : "OK") + (counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))")
    }
}
