import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed system call: which one, and `errno`'s text (also as `localizedDescription`,
/// for code that shows an ``ArchiveStoreError``'s `underlyingError`).
package struct SystemCallError: Error, CustomStringConvertible, LocalizedError {
    package let call: String
    package let code: Int32

    package init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    package var description: String { "\(call): \(String(cString: strerror(code)))" }

    package var errorDescription: String? { description }
}

/// The file operations behind ``ArchiveStore`` and the tool's output files, on POSIX calls,
/// so that every step that makes a write durable, and safe in a folder others can write
/// to, is explicit: create a fresh temporary file beside the target, flush it, rename it
/// over the target, flush the directory.
package enum DurableFile {
    /// Replaces the file at `target` with `bytes`, atomically and durably, never writing
    /// through a symbolic link.
    ///
    /// A process killed at any instant leaves either the old file or the new one: the new
    /// bytes go to a fresh temporary file in `target`'s directory, named by
    /// `temporaryName` (which must give an unpredictable name each call) and created with
    /// `O_CREAT | O_EXCL | O_NOFOLLOW`, so a file or link planted under that name is never
    /// opened. It is flushed to disk before `rename(2)` puts it in place in one step —
    /// replacing a symbolic link at `target` itself, never the file it points to — and the
    /// directory is flushed after, so the rename itself survives a power cut. On failure
    /// the temporary file is removed and the old file is untouched. New files get mode
    /// 0666 less the process's umask.
    ///
    /// On Apple platforms the new file gets the data-protection class `protectionClass`
    /// (see ``DataProtection``) or, when it is `nil`, the class of the file it replaces, so
    /// that replacing a file never drops its protection.
    package static func replace<Bytes: ContiguousBytes>(_ target: URL, with bytes: Bytes, protectionClass: Int32? = nil,
                                                        temporaryName: () -> String) throws(SystemCallError) {
        let prepared = try prepare(bytes, for: target, protectionClass: protectionClass, temporaryName: temporaryName)
        try prepared.rename(to: target)
        try flushDirectory(prepared.directory)
    }

    /// The first half of ``replace(_:with:protectionClass:temporaryName:)``: the bytes in a
    /// fresh temporary file beside `target`, on disk, with `target`'s protection class (or
    /// `protectionClass`). ``Prepared/rename(to:)`` puts it in place (flush the directory
    /// after it); ``Prepared/discard()`` removes it.
    static func prepare<Bytes: ContiguousBytes>(_ bytes: Bytes, for target: URL, protectionClass: Int32?,
                                               temporaryName: () -> String) throws(SystemCallError) -> Prepared {
        let directory = target.deletingLastPathComponent()
        let (temporary, fd) = try createTemporary(in: directory, name: temporaryName)
        do {
            defer { close(fd) }
            try DataProtection.setClass(protectionClass ?? DataProtection.currentClass(ofFileAt: target.path), on: fd)
            try writeAll(bytes, to: fd)
            try flush(fd)
        } catch {
            unlink(temporary)
            throw error
        }
        return Prepared(temporaryPath: temporary, directory: directory)
    }

    /// A temporary file written and flushed by ``prepare(_:for:protectionClass:temporaryName:)``.
    struct Prepared {
        let temporaryPath: String
        let directory: URL

        /// Renames the file over `target` (in the same directory); when that fails, removes
        /// the temporary file. The rename is durable once ``flushDirectory(_:)`` has run.
        func rename(to target: URL) throws(SystemCallError) {
            guard systemRename(temporaryPath, target.path) == 0 else {
                let failure = SystemCallError("rename")
                discard()
                throw failure
            }
        }

        /// Removes the temporary file.
        func discard() {
            unlink(temporaryPath)
        }
    }

    /// A fresh temporary file name: `prefix`, 16 random hex digits, `.tmp`.
    package static func temporaryName(prefix: String) -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return prefix + String(repeating: "0", count: 16 - hex.count) + hex + ".tmp"
    }

    /// Whether `url` names a regular file itself (not a folder, a symbolic link or a device).
    static func isRegularFile(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Removes the file at `url`; `false` when there was none.
    static func remove(_ url: URL) throws -> Bool {
        if unlink(url.path) == 0 { return true }
        if errno == ENOENT { return false }
        throw SystemCallError("unlink")
    }

    /// Flushes `directory` itself to disk, so a rename or unlink in it is durable.
    static func flushDirectory(_ directory: URL) throws(SystemCallError) {
        let fd = retryingOnInterrupt { open(directory.path, O_RDONLY | O_CLOEXEC | O_DIRECTORY) }
        guard fd >= 0 else { throw SystemCallError("open directory") }
        defer { close(fd) }
        try flush(fd)
    }

    // MARK: - Steps

    /// Creates a new, empty temporary file in `directory`: never an existing file, and never
    /// through a symbolic link.
    private static func createTemporary(in directory: URL, name: () -> String) throws(SystemCallError) -> (path: String, fd: Int32) {
        for _ in 0..<16 {
            let path = directory.appendingPathComponent(name(), isDirectory: false).path
            let fd = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666) }
            if fd >= 0 { return (path, fd) }
            if errno != EEXIST { throw SystemCallError("open temporary file") }
        }
        throw SystemCallError("open temporary file", code: EEXIST)
    }

    private static func writeAll<Bytes: ContiguousBytes>(_ data: Bytes, to fd: Int32) throws(SystemCallError) {
        let failure: SystemCallError? = data.withUnsafeBytes { buffer in
            guard var next = buffer.baseAddress else { return nil }
            var remaining = buffer.count
            while remaining > 0 {
                let n = systemWrite(fd, next, remaining)
                if n < 0 {
                    if errno == EINTR { continue }
                    return SystemCallError("write")
                }
                next += n
                remaining -= n
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// `fsync`, or on Apple platforms `F_FULLFSYNC` (plain `fsync` there does not reach the
    /// disk's platters), falling back to `fsync` where the file system does not support it.
    private static func flush(_ fd: Int32) throws(SystemCallError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            // Some file systems cannot flush a directory; that is not a failed write.
            if errno == EINVAL || errno == EROFS { return }
            throw SystemCallError("fsync")
        }
    }

    /// Runs a call returning a descriptor, retrying on `EINTR`; on any other failure returns
    /// -1 with `errno` set, for the caller to decide (a missing file is not always an error).
    static func retryingOnInterrupt(_ body: () -> Int32) -> Int32 {
        while true {
            let fd = body()
            if fd >= 0 || errno != EINTR { return fd }
        }
    }
}

// The C `write` and `rename`, which `DurableFile`'s own would otherwise shadow.
@inline(__always)
private func systemRename(_ old: String, _ new: String) -> Int32 {
    rename(old, new)
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
