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
        let shown = found.shownName
        func skipped(_ reason: String) -> FileReport {
            FileReport(verdict: .skipped, output: includesAll ? "\(shown): skipped: \(ArchiveText.escaped(reason))\n" : "")
        }
        func failed(_ message: String) -> FileReport {
            FileReport(verdict: .failed, output: "\(shown): FAILED\n", messages: "\(shown): error: \(ArchiveText.escaped(message))\n")
        }
        let view: KeyedArchiveView, size: Int
        switch OpenedInput(found) {
        case .skipped(let reason): return skipped(reason)
        case .failed(let reason), .refused(let reason, _): return failed(reason)
        case .plainPropertyList: return found.isNamed ? failed(OpenedInput.plainReason) : skipped(OpenedInput.plainReason)
        case .archive(let opened, let bytes): (view, size) = (opened, bytes.count)
        }
        do {
            let (code, types) = try SwiftCommand.generate(view, name: name, inputSize: size, settings: settings)
            let lines = code.text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            return FileReport(verdict: .done, output: "\(shown): OK (\(types) type\(types == 1 ? "" : "s"), \(lines) lines)\n")
        } catch {
            let prefix = name + ": "
            return failed(error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
        }
    }
}
