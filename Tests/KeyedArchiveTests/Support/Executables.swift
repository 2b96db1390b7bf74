import Foundation
import Testing

/// Runs executables this package builds (the example, the command-line tool).
///
/// A binary is looked for in the products directory the tests themselves run from (the
/// folder holding the test bundle or executable), the way swift-argument-parser's example
/// tests find theirs, then in the package's `.build*/debug` folders.
enum BuiltExecutable {
    /// The executable `name`, or `nil` when it has not been built.
    static func find(_ name: String) -> URL? {
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
        return folders.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The executable `name`; fails the test when it has not been built.
    private static func require(_ name: String) throws -> URL {
        try #require(find(name), "\(name) was not found next to the tests; build it with `swift build --build-tests`")
    }

    /// Starts `name` with `arguments` and returns at once, for tests that stop it themselves
    /// (the crash tests send SIGKILL). Standard input and output are discarded; its
    /// standard error stays the test's.
    static func start(_ name: String, _ arguments: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = try require(name)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// What one run did.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
        var timedOut: Bool
    }

    /// Runs `name` with `arguments`, feeding `stdin`, with a time limit. Output goes
    /// through temporary files, so a large output cannot fill a pipe and stall.
    static func run(
        _ name: String, _ arguments: [String] = [], stdin: Data? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> Result {
        let binary = try require(name)
        return try run(path: binary, arguments, stdin: stdin, environment: environment, timeout: timeout)
    }

    /// Runs the program at `binary` (a built executable, or a helper such as `script`
    /// that runs one), as ``run(_:_:stdin:environment:timeout:)`` does.
    static func run(
        path binary: URL, _ arguments: [String] = [], stdin: Data? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> Result {
        let folder = try Scratch.folder("run")
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
                // SIGKILL, not terminate()'s SIGTERM: a child started from the test runner
                // can inherit SIGTERM blocked, and then a hung tool would hang the suite.
                kill(process.processIdentifier, SIGKILL)
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
}
