import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// The name an open file has in its directory, as the file system spells it.
///
/// On Apple platforms `fcntl(F_GETPATH)` gives the file's path as the file system stores it,
/// so a file opened as `session` on a case-insensitive volume reports `Session` when that is
/// its name. Elsewhere the answer is `nil`: Linux file systems look names up exactly (a
/// case-folding ext4 folder is the exception, and is not detected).
enum OpenFileName {
    /// The last component of the path of the file open as `fd`, or `nil` when the system
    /// cannot tell (or is not an Apple platform).
    static func name(of fd: Int32) -> String? {
        #if canImport(Darwin)
        var path = [CChar](repeating: 0, count: Int(MAXPATHLEN))
        let status = path.withUnsafeMutableBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return fcntl(fd, F_GETPATH, base)
        }
        guard status != -1 else { return nil }
        let bytes = path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
        #else
        return nil
        #endif
    }
}
