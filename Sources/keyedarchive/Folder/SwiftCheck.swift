import Foundation
import KeyedArchive

/// `swift --check`: generates the Swift file for every archive given or found in folders,
/// prints `FILE: OK (N types, M lines)` or `FILE: FAILED` with the reason on standard
/// error, as `verify` does, and keeps none of the code.
enum SwiftCheck {
    static func run(_ arguments: ParsedArguments, settings: SwiftCommand.Settings) throws(ToolError) -> Int32 {
        let folder: FolderOptions
        do {
            folder = try FolderOptions(arguments, of: SwiftCommand.spec)
        } catch {
            return Tool.usageError(error)
        }
        let includesAll = folder.includesAll
        return folder.run(command: "swift --check", done: { "\($0) OK" }) { report($0, settings: settings, includesAll: includesAll) }
    }

    static func report(_ found: FoundInput, settings: SwiftCommand.Settings, includesAll: Bool) -> FileReport {
        let name = found.kind == .standardInput ? "<stdin>" : found.path
        let shown = TerminalText.escaped(name)
        func skipped(_ reason: String) -> FileReport {
            FileReport(verdict: .skipped, output: includesAll ? "\(shown): skipped: \(TerminalText.escaped(reason))\n" : "")
        }
        func failed(_ message: String) -> FileReport {
            FileReport(verdict: .failed, output: "\(shown): FAILED\n", messages: "\(shown): error: \(TerminalText.escaped(message))\n")
        }
        switch found.kind {
        case .skipped(let reason): return skipped(reason)
        case .failed(let reason): return failed(reason)
        case .file, .standardInput: break
        }
        let data: Data
        switch FoundFileReader.read(found) {
        case .failure(let error): return failed(error.message)
        case .success(let bytes): data = bytes
        }
        if !found.isNamed, let reason = ArchiveCandidate.reasonToSkip(data) { return skipped(reason) }
        let view: KeyedArchiveView
        do {
            view = try KeyedArchiveView(data: data)
        } catch let error as KeyedArchiveError where error.isPlainPropertyList && !found.isNamed {
            return skipped(error.description)
        } catch {
            return failed(ArchiveInput.describe(error))
        }
        do {
            let (code, types) = try SwiftCommand.generate(view, name: name, inputSize: data.count, settings: settings)
            let lines = code.text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            return FileReport(verdict: .done, output: "\(shown): OK (\(types) type\(types == 1 ? "" : "s"), \(lines) lines)\n")
        } catch {
            let prefix = name + ": "
            return failed(error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
        }
    }
}
