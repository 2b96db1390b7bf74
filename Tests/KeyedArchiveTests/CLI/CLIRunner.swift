import Foundation
import Testing

/// Runs the built `keyedarchive` executable and captures what it does.
///
/// The binary is looked for in the products directory the tests themselves run from
/// (the folder holding the test bundle or executable), the way swift-argument-parser's
/// example tests find theirs, then in the package's `.build*/debug` folders.
enum CLI {
    /// The package root, derived from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The shared corpus, beside the package.
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static let corpusExists = FileManager.default.fileExists(atPath: corpus.appendingPathComponent("apple").path)

    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// The `keyedarchive` executable, or `nil` when it has not been built.
    static let binary: URL? = {
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for scratch in [".build", ".build-cli", ".build-tests"] {
            folders.append(packageRoot.appendingPathComponent("\(scratch)/debug"))
        }
        return folders.map { $0.appendingPathComponent("keyedarchive") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

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

    /// What one run did.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
        var timedOut: Bool
    }

    /// Runs `keyedarchive` with `arguments`, feeding `stdin`, with a time limit. Output
    /// goes through temporary files, so a large output cannot fill a pipe and stall.
    static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> Result {
        let binary = try #require(binary, "the keyedarchive executable was not found next to the tests; build it with `swift build --build-tests`")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyedarchive-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err"), inURL = folder.appendingPathComponent("in")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        try (stdin ?? Data()).write(to: inURL)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL), input = try FileHandle(forReadingFrom: inURL)
        defer { try? out.close(); try? err.close(); try? input.close() }

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                timedOut = true
                break
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        process.waitUntilExit()
        let stdoutData = try Data(contentsOf: outURL)
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
            stdoutData: stdoutData,
            timedOut: timedOut
        )
    }

    /// Writes `data` to a fresh temporary file and returns its path.
    static func temporaryFile(_ data: Data, name: String = "archive.plist") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyedarchive-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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
