import Foundation

/// Runs executables this package builds (the example, the command-line tool), from the
/// folder the test runner itself was built into.
enum BuiltExecutable {
    /// The products folder: where SwiftPM put the test runner, and every executable target.
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Whether `name` has been built (`swift build --build-tests` builds every target).
    static func exists(_ name: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: productsDirectory.appendingPathComponent(name).path)
    }

    /// Runs `name` with `arguments` and standard input `input`; returns status, stdout, stderr.
    static func run(_ name: String, _ arguments: [String] = [], input: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent(name)
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(input) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}
