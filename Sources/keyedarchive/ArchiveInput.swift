import Foundation
import KeyedArchive

/// The bytes of one input file (or of standard input, for `-`), with the name to use in
/// messages.
struct ArchiveInput {
    /// The path as given, or `<stdin>`.
    let name: String
    let data: Data

    /// Reads `path` (`-` is standard input), at most `maxFileSize` bytes, as a file named
    /// on the command line is read in folder runs (see ``FoundFileReader``): into memory,
    /// not mapped, so another program truncating the file meanwhile cannot stop the tool
    /// with SIGBUS.
    ///
    /// The message of a file that cannot be read has the plain `errno` reason ("No such
    /// file or directory"); for a folder it says which commands take folders (`command`
    /// is the one that was run).
    static func read(_ path: String, for command: String, maxFileSize: Int) throws(ToolError) -> ArchiveInput {
        let isStandardInput = path == "-"
        var found = FoundInput(bytes: Array(path.utf8), isNamed: true, kind: isStandardInput ? .standardInput : .file)
        found.maxFileSize = maxFileSize
        let name = isStandardInput ? "<stdin>" : path
        switch FoundFileReader.read(found, maxFileSize: maxFileSize) {
        case .bytes(let data):
            return ArchiveInput(name: name, data: data)
        case .failed(_, let code) where code == EISDIR:
            throw ToolError(file: path, "is a folder; '\(command)' reads one archive, while 'json', 'verify' and 'swift --check' take folders")
        case .failed(let message, _), .skipped(let message):
            throw ToolError(file: name, message)
        }
    }

    /// Opens the input as an archive (binary or XML: the library detects which), under
    /// `limits` (which also bound what rendering it writes).
    func view(limits: ArchiveDecoder.Limits = ArchiveDecoder.Limits()) throws(ToolError) -> KeyedArchiveView {
        do {
            return try KeyedArchiveView(data: data, limits: limits)
        } catch {
            throw ToolError(file: name, Self.describe(error))
        }
    }

    /// Opens the input as an archive, or, for `dump` and `json`, a plain property list as
    /// a view holding its tree under `plist`; a note on standard error says which it is.
    func viewOrPropertyList(limits: ArchiveDecoder.Limits = ArchiveDecoder.Limits()) throws(ToolError) -> KeyedArchiveView {
        do {
            return try KeyedArchiveView(data: data, limits: limits)
        } catch let error as KeyedArchiveError where error.isPlainPropertyList {
            do {
                let view = try KeyedArchiveView(plainPropertyList: data, limits: limits)
                let format = InputKind(sniffing: data) == .binaryPropertyList ? "binary" : "XML"
                Terminal.err("note: \(name) is a plain property list (\(format)), not a keyed archive; shown under 'plist'")
                return view
            } catch {
                throw ToolError(file: name, Self.describe(error))
            }
        } catch {
            throw ToolError(file: name, Self.describe(error))
        }
    }

    /// A one-line reason for a library error.
    static func describe(_ error: any Error) -> String {
        KeyedArchiveError.notAnArchiveReason(error)
    }
}
