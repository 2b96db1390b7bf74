import Foundation
import KeyedArchive

/// Writing a whole output file, atomically and never through a symbolic link: to a fresh
/// temporary file beside it (`.keyedarchive-<16 random hex digits>.tmp`, created
/// exclusively), then renamed over it, so that a failed run never leaves a half-written
/// archive behind and a link planted at the destination is replaced, not followed. The
/// library's store writes its files the same way, through the same helper.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws(ToolError) {
        do {
            try DurableFile.replace(URL(fileURLWithPath: path), with: bytes) {
                DurableFile.temporaryName(prefix: ".keyedarchive-")
            }
        } catch {
            throw ToolError(file: path, "cannot write: \(String(cString: strerror(error.code)))")
        }
    }
}
