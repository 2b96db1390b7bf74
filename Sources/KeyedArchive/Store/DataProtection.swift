import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// Data-protection classes of files on Apple platforms (`fcntl` `F_GETPROTECTIONCLASS` and
/// `F_SETPROTECTIONCLASS`, declared in the SDK's `sys/fcntl.h`); nothing elsewhere.
///
/// A class is a number: 1 to 4 are classes A to D (`complete`, `completeUnlessOpen`,
/// `completeUntilFirstUserAuthentication`, `none`), the values of xnu's
/// `sys/content_protection.h`, which the SDK does not publish.
enum DataProtection {
    /// The class of the file at `path`, or `nil` when there is no file, it is a symbolic link,
    /// or the volume (or platform) has no data protection.
    static func currentClass(ofFileAt path: String) -> Int32? {
        #if canImport(Darwin)
        let fd = DurableFile.retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let protectionClass = fcntl(fd, F_GETPROTECTIONCLASS)
        return protectionClass > 0 ? protectionClass : nil
        #else
        return nil
        #endif
    }

    /// Gives the file open (for writing) as `fd` the class `protectionClass`, when there is
    /// one. A volume without data protection (`ENOTSUP`, `EINVAL`) keeps no class and is not
    /// an error; any other failure throws, so that a file never silently gets a weaker class
    /// than it asked for or had.
    static func setClass(_ protectionClass: Int32?, on fd: Int32) throws(SystemCallError) {
        #if canImport(Darwin)
        guard let protectionClass else { return }
        if fcntl(fd, F_SETPROTECTIONCLASS, protectionClass) == -1 {
            let code = errno
            if code == ENOTSUP || code == EINVAL { return }
            throw SystemCallError("fcntl F_SETPROTECTIONCLASS", code: code)
        }
        #endif
    }
}
