import Foundation
import Testing

/// Runs the built `keyedarchive` executable (through ``BuiltExecutable``) and finds its
/// test material.
enum CLI {
    static var packageRoot: URL { KeyedArchiveTests.packageRoot }
    /// The shared corpus, beside the package.
    static var corpus: URL { corpusRoot }

    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// The `keyedarchive` executable, or `nil` when it has not been built.
    static var binary: URL? { BuiltExecutable.find("keyedarchive") }

    /// The files (not folders) under a corpus folder, as corpus-relative paths, sorted;
    /// empty when the corpus is absent.
    static func corpusFiles(under folder: String) -> [String] {
        let root = corpus.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return enumerator.compactMap { $0 as? String }
            .filter { path in
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                return exists && !isDirectory.boolValue && !path.hasSuffix(".md")
            }
            .map { folder + "/" + $0 }
            .sorted()
    }

    /// A corpus file.
    static func corpusFile(_ path: String) -> String { corpus.appendingPathComponent(path).path }

    typealias Result = BuiltExecutable.Result

    /// Runs `keyedarchive` with `arguments`, feeding `stdin`, with a time limit.
    static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> Result {
        try BuiltExecutable.run("keyedarchive", arguments, stdin: stdin, environment: environment, timeout: timeout)
    }

    /// Writes `data` to a fresh temporary file and returns its path.
    static func temporaryFile(_ data: Data, name: String = "archive.plist") throws -> String {
        let folder = try Scratch.folder("cli")
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// Compares `actual` with `Snapshots/<name>`. Set `CLI_RECORD_SNAPSHOTS=1` to
    /// (re)write the files; review them by eye before committing.
    static func expectSnapshot(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = snapshots.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["CLI_RECORD_SNAPSHOTS"] == "1" {
            try? FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
            try? Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("snapshot \(name) is missing; run with CLI_RECORD_SNAPSHOTS=1 to record it", sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(expectedLines, actualLines).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
            ?? min(expectedLines.count, actualLines.count)
        let want = line < expectedLines.count ? String(expectedLines[line]) : "<end>"
        let got = line < actualLines.count ? String(actualLines[line]) : "<end>"
        Issue.record("output differs from snapshot \(name) at line \(line + 1):\n  expected: \(want)\n  actual:   \(got)", sourceLocation: sourceLocation)
    }
}
