import Foundation
import KeyedArchive

/// `json` on folders or several files: JSON Lines, one object per file, in walk order.
///
/// - `{"path": P, "archive": VALUE}` for a keyed archive (VALUE as `json` prints it for one
///   file, on one line);
/// - `{"path": P, "plist": VALUE}` for a plain property list named on the command line, or
///   found in a folder with `--all`;
/// - `{"path": P, "skipped": REASON}` with `--all`, for a file found in a folder that is
///   not a property list, a symbolic link or a special file;
/// - `{"path": P, "error": MESSAGE}` for a file that cannot be read or opened as an archive,
///   or whose output passes the limit: the run goes on, and the exit status is 1.
///
/// The path is the file's path as found (its bytes as UTF-8, invalid sequences as U+FFFD),
/// escaped as a JSON string; when its bytes are not UTF-8, `"pathBytes"` follows it with the
/// exact bytes in base64 (see ``FoundInput/bytesIfNotUTF8``), so two names never print alike.
enum JSONLines {
    struct Options: Sendable {
        var key: String?
        var classes: Bool
        var expandsNested: Bool
        var limits: ArchiveDecoder.Limits
        var includesAll: Bool
    }

    static func report(_ input: FoundInput, _ options: Options) -> FileReport {
        switch OpenedInput(input, limits: options.limits) {
        case .skipped(let reason): return skipped(input, reason, options)
        case .failed(let reason), .refused(let reason, _): return failed(input, reason)
        case .archive(let view, _): return line(input, member: "archive", view: view, key: options.key, options, verdict: .done)
        case .plainPropertyList(let data):
            guard input.isNamed || options.includesAll else { return FileReport(verdict: .skipped) }
            do {
                let view = try KeyedArchiveView(plainPropertyList: data, limits: options.limits)
                // --key names a top-level key of archives; a plain property list is shown whole.
                return line(input, member: "plist", view: view, key: nil, options, verdict: .skipped)
            } catch {
                return failed(input, ArchiveInput.describe(error))
            }
        }
    }

    private static func line(_ input: FoundInput, member: String, view: KeyedArchiveView, key: String?, _ options: Options,
                             verdict: FileReport.Verdict) -> FileReport {
        var out = OutputBuffer.capturing()
        out.append(pathMembers(input) + ",\"\(member)\":")
        var nested = options.expandsNested ? NestedPropertyLists(inputSize: view.inputSize, limits: view.limits) : nil
        do {
            try JsonCommand.write(view, key: key, classes: options.classes, pretty: false, file: input.path,
                                  nested: &nested, terminator: "}\n", to: &out)
        } catch {
            let prefix = input.path + ": "
            return failed(input, error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
        }
        return FileReport(verdict: verdict, output: out.captured, unexpandedNested: nested?.skipped ?? 0)
    }

    private static func skipped(_ input: FoundInput, _ reason: String, _ options: Options) -> FileReport {
        guard options.includesAll else { return FileReport(verdict: .skipped) }
        return FileReport(verdict: .skipped, output: object(input, "skipped", reason))
    }

    private static func failed(_ input: FoundInput, _ message: String) -> FileReport {
        FileReport(verdict: .failed, output: object(input, "error", message))
    }

    private static func object(_ input: FoundInput, _ member: String, _ text: String) -> String {
        pathMembers(input) + ",\"\(member)\":" + JSONEmitter.quoted(text) + "}\n"
    }

    /// `{"path":P` and, for a name that is not UTF-8, `,"pathBytes":"BASE64"`.
    private static func pathMembers(_ input: FoundInput) -> String {
        let path = "{\"path\":" + JSONEmitter.quoted(input.path)
        guard let bytes = input.bytesIfNotUTF8 else { return path }
        return path + ",\"pathBytes\":\"" + Data(bytes).base64EncodedString() + "\""
    }
}
