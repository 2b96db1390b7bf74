import Foundation
import KeyedArchive

/// How a found input's path is printed. A path's bytes come from the file system and need
/// not be UTF-8, and two names that differ only there must not print alike:
/// - in text (`verify`, `swift --check`), through ``ArchiveText/escapedPath(_:)``: control
///   characters escaped as in archive text, a backslash as `\\`, a byte that is not UTF-8
///   as `\xNN`;
/// - in JSON Lines, `path` is the name with such bytes read as U+FFFD, and then (only
///   then) `pathBytes` holds the exact bytes, base64-encoded.
extension FoundInput {
    /// The path's bytes, as the file system has them.
    var pathBytes: [UInt8] { systemPath.dropLast().map { UInt8(bitPattern: $0) } }

    /// The name for text output: `<stdin>`, or the path escaped for a terminal.
    var shownName: String { kind == .standardInput ? "<stdin>" : ArchiveText.escapedPath(pathBytes) }

    /// The path's bytes when they are not UTF-8 (``path`` then shows U+FFFD in their place).
    var bytesIfNotUTF8: [UInt8]? {
        let bytes = pathBytes
        return path.utf8.elementsEqual(bytes) ? nil : bytes
    }
}
