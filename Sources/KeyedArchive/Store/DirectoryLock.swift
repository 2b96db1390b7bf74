import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An advisory lock on one of the store's lock files (`flock(2)`), held for the duration of
/// `body`.
///
/// `.archivestore.lock`: saves and removals take it shared, so they run side by side;
/// `init` (which deletes stale temporary files) and `removeAll()` take it exclusive, so they
/// never delete a temporary file another thread or process is still writing.
///
/// `.archivestore.names.lock`, taken exclusive inside the first: a save holds it only from
/// looking for a conflicting name to renaming its file into place, a removal from finding
/// the file to unlinking it, so that two names that are one file on Apple file systems
/// never both land, even saved at the same instant. Writing and flushing stay outside it.
///
/// A lock is released when its descriptor is closed — also when a process is killed.
///
/// The lock file is opened without following symbolic links and must be a regular file in
/// the directory: a link or anything else planted under its name throws, so the store
/// never creates or opens a file outside its directory through it.
enum DirectoryLock {
    static func withLock<T>(in directory: URL, file name: String = ArchiveStoreName.lockFile, exclusive: Bool,
                            _ body: () throws -> T) throws -> T {
        let path = directory.appendingPathComponent(name, isDirectory: false).path
        // O_NONBLOCK: a FIFO planted under the name must not block the open.
        let fd = DurableFile.retryingOnInterrupt {
            open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o666)
        }
        guard fd >= 0 else {
            if errno == ELOOP {
                throw SystemCallError("open \(name) (a symbolic link, which the store does not follow)", code: ELOOP)
            }
            throw SystemCallError("open \(name)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemCallError("fstat \(name)") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SystemCallError("open \(name) (not a regular file)", code: EINVAL)
        }
        while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            if errno != EINTR { throw SystemCallError("flock") }
        }
        return try body()
    }
}
