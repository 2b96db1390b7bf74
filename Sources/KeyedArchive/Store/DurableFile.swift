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
struct SystemCallError: Error, CustomStringConvertible, LocalizedError {
    let call: String
    let code: Int32

    init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    var description: String { "\(call): \(String(cString: strerror(code)))" }

    var errorDescription: String? { description }
}

/// The file operations behind ``ArchiveStore``, on POSIX calls, so that every step that
/// makes a write durable is explicit: write a temporary file in the same directory, flush
/// it, rename it over the old file, flush the directory.
enum DurableFile {
    /// Replaces the file `name` in `directory` with `data`, atomically and durably.
    ///
    /// A process killed at any instant leaves either the old file or the new one: the new
    /// bytes go to a fresh temporary file (see ``ArchiveStoreName/temporaryName()``), which
    /// is flushed to disk before `rename(2)` puts it in place in one step, and the
    /// directory is flushed after, so the rename itself survives a power cut. On failure
    /// the temporary file is removed and the old file is untouched.
    static func replace(_ name: String, in directory: URL, with data: Data) throws {
        let (temporary, fd) = try createTemporary(in: directory)
        do {
            defer { close(fd) }
            try writeAll(data, to: fd)
            try flush(fd)
        } catch {
            unlink(temporary)
            throw error
        }
        let target = directory.appendingPathComponent(name, isDirectory: false).path
        guard rename(temporary, target) == 0 else {
            let failure = SystemCallError("rename")
            unlink(temporary)
            throw failure
        }
        try flushDirectory(directory)
    }

    /// The contents of the file at `url`, or `nil` when there is no such file.
    static func read(_ url: URL) throws -> Data? {
        // O_NONBLOCK: a FIFO in the file's place must not block the open (it has no effect
        // on reading a regular file).
        let fd = retryingOnInterrupt { open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw SystemCallError("open")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemCallError("fstat") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw SystemCallError("read", code: EISDIR)
        default: throw SystemCallError("read (not a regular file)", code: EINVAL)
        }
        var data = Data(count: max(Int(info.st_size), 0))
        var filled = 0
        while filled < data.count {
            let n = data.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemRead(fd, base + filled, buffer.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("read")
            }
            if n == 0 { break }  // the file shrank since fstat
            filled += n
        }
        if filled < data.count { data.count = filled }
        // The file may have grown since fstat: read what follows, if anything.
        try withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 1) { chunk in
            guard let base = chunk.baseAddress else { return }
            while true {
                let n = systemRead(fd, base, chunk.count)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SystemCallError("read")
                }
                if n == 0 { return }
                data.append(base.assumingMemoryBound(to: UInt8.self), count: n)
            }
        }
        return data
    }

    /// Removes the file at `url`; `false` when there was none.
    static func remove(_ url: URL) throws -> Bool {
        if unlink(url.path) == 0 { return true }
        if errno == ENOENT { return false }
        throw SystemCallError("unlink")
    }

    /// Whether `url` is a regular file (not a folder or a symbolic link) whose first bytes are
    /// those of a property list (`bplist`, or `<?xml` / `<plist` after white space), as every
    /// keyed archive's are. Reads at most 64 bytes.
    static func startsLikePropertyList(_ url: URL) -> Bool {
        var info = stat()
        guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 64)
        let n = head.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return systemRead(fd, base, buffer.count)
        }
        guard n > 0 else { return false }
        return InputKind(sniffing: head.prefix(n)).isPropertyList
    }

    /// Flushes `directory` itself to disk, so a rename or unlink in it is durable.
    static func flushDirectory(_ directory: URL) throws {
        let fd = retryingOnInterrupt { open(directory.path, O_RDONLY | O_CLOEXEC | O_DIRECTORY) }
        guard fd >= 0 else { throw SystemCallError("open directory") }
        defer { close(fd) }
        try flush(fd)
    }

    // MARK: - Steps

    /// Creates a new, empty temporary file in `directory` (never an existing one).
    private static func createTemporary(in directory: URL) throws -> (path: String, fd: Int32) {
        for _ in 0..<16 {
            let path = directory.appendingPathComponent(ArchiveStoreName.temporaryName(), isDirectory: false).path
            let fd = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) }
            if fd >= 0 { return (path, fd) }
            if errno != EEXIST { throw SystemCallError("open temporary file") }
        }
        throw SystemCallError("open temporary file", code: EEXIST)
    }

    private static func writeAll(_ data: Data, to fd: Int32) throws {
        try data.withUnsafeBytes { buffer in
            guard var next = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let n = systemWrite(fd, next, remaining)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SystemCallError("write")
                }
                next += n
                remaining -= n
            }
        }
    }

    /// `fsync`, or on Apple platforms `F_FULLFSYNC` (plain `fsync` there does not reach the
    /// disk's platters), falling back to `fsync` where the file system does not support it.
    private static func flush(_ fd: Int32) throws {
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

/// An advisory lock on the store's lock file (`flock(2)`), held for the duration of `body`.
///
/// Saves and removals take it shared, so they run side by side; `init` (which deletes stale
/// temporary files) and `removeAll()` take it exclusive, so they never delete a temporary
/// file another thread or process is still writing. The lock is released when the
/// descriptor is closed — also when a process is killed.
enum DirectoryLock {
    static func withLock<T>(in directory: URL, exclusive: Bool, _ body: () throws -> T) throws -> T {
        let path = directory.appendingPathComponent(ArchiveStoreName.lockFile, isDirectory: false).path
        let fd = DurableFile.retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666) }
        guard fd >= 0 else { throw SystemCallError("open \(ArchiveStoreName.lockFile)") }
        defer { close(fd) }
        while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            if errno != EINTR { throw SystemCallError("flock") }
        }
        return try body()
    }
}

// The C `read` and `write`, which `DurableFile.read` would otherwise shadow.
@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
