import Foundation

/// Temporary files for the tests. Every scratch folder lives under one root per test
/// process (`keyedarchive-tests-<pid>-<uuid>` in the temporary directory), and that root is
/// removed when the process exits, so a test run leaves nothing behind even where a test
/// hands a path to a child process and cannot remove it itself.
enum Scratch {
    /// This process's root, made on first use.
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("keyedarchive-tests-\(getpid())-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return url
    }()

    /// A fresh, empty folder named `prefix-<uuid>` under the root.
    static func folder(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path under the root for a file named `prefix-<uuid><suffix>`; nothing is created.
    static func file(_ prefix: String, suffix: String = "") -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
    }

    /// Runs `body` with a fresh folder, removed when `body` returns.
    static func withFolder<T>(_ prefix: String, _ body: (URL) throws -> T) throws -> T {
        let folder = try folder(prefix)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }
}
