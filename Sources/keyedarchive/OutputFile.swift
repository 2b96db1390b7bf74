import Foundation

/// Writing a whole output file, atomically: to a temporary file beside it, then renamed
/// over it, so that a failed run never leaves a half-written archive behind.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws(ToolError) {
        let temporary = path + ".keyedarchive-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw failure(path) }
        if Terminal.writeFully(bytes, to: fd) != nil {
            let error = failure(path)
            close(fd)
            unlink(temporary)
            throw error
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
    }

    /// The current `errno` as a message about `path`.
    private static func failure(_ path: String) -> ToolError {
        ToolError(file: path, "cannot write: \(String(cString: strerror(errno)))")
    }
}
