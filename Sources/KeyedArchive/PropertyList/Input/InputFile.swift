import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One file opened for reading: the one way ``ArchiveStore``, ``ArchiveDecoder/decode(_:contentsOf:)``
/// and the `keyedarchive` tool open and read files that other programs write.
///
/// - Opening never blocks: the path is opened with `O_NONBLOCK` (a FIFO in a file's place
///   does not wait for a writer), which is then cleared for reading; ``kind`` is what
///   `fstat` says it is, so callers can refuse anything but a regular file with an error
///   naming what it is (``requireRegularFile()``).
/// - A regular file is read to the size `fstat` gave, never further: a file that grows
///   meanwhile is read as it was, one that shrinks throws. A regular file whose size is 0
///   but which has contents (a `/proc` file) is ``FileKind/sizeless``.
/// - What is read is capped (`limit`), and the buffer is allocated with `malloc`, so a
///   size the machine cannot hold is this file's error (`ENOMEM`), never a trap.
/// - ``readHead(_:)`` reads the first bytes alone, so a caller can sniff a file before
///   reading the rest of it.
///
/// Reading copies the bytes, unlike mapping the file: another process truncating the file
/// meanwhile gives at worst an error, never SIGBUS.
package final class InputFile {
    /// The name in errors.
    package let path: String
    package let descriptor: Int32
    package let kind: FileKind
    /// A regular file's size as `fstat` gave it when opened; 0 for anything else.
    package let size: Int
    private let ownsDescriptor: Bool
    /// The bytes ``readHead(_:)`` read, which ``readAll(limit:)`` returns first.
    private var head: [UInt8] = []
    /// Whether a read found the end of the file (a stream's end, or a regular file's size).
    private var reachedEnd = false

    /// Opens the file at `systemPath` (NUL-terminated, any bytes, not only UTF-8); `path`
    /// names it in errors. Without `followingLinks`, a symbolic link throws `ELOOP`. With
    /// `blocking`, opening a FIFO waits for a writer as a plain `open` does (for a path a
    /// user names on a command line: `<(…)`).
    ///
    /// - Throws: ``FileReadError`` for a failed `open` or `fstat`, with `errno`.
    package convenience init(systemPath: [CChar], path: String, followingLinks: Bool = true,
                             blocking: Bool = false) throws(FileReadError) {
        let flags = O_RDONLY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW) | (blocking ? 0 : O_NONBLOCK)
        var fd: Int32
        repeat { fd = open(systemPath, flags) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw FileReadError(path: path, step: "open", code: errno) }
        if !blocking {
            // Reads should wait for a pipe's writer, as for any input; only the open must not.
            let status = fcntl(fd, F_GETFL)
            if status >= 0 { _ = fcntl(fd, F_SETFL, status & ~O_NONBLOCK) }
        }
        try self.init(descriptor: fd, path: path, owned: true)
    }

    /// ``init(systemPath:path:followingLinks:blocking:)`` for the path `path`.
    package convenience init(path: String, followingLinks: Bool = true) throws(FileReadError) {
        try self.init(systemPath: Array(path.utf8CString), path: path, followingLinks: followingLinks)
    }

    /// A file already open as `descriptor` (standard input, or one the caller opened to
    /// check its name); closed with this object when `owned`, otherwise left to the caller.
    ///
    /// - Throws: ``FileReadError`` when `fstat` fails (an owned descriptor is closed).
    package init(descriptor: Int32, path: String, owned: Bool) throws(FileReadError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            if owned { close(descriptor) }
            throw FileReadError(path: path, step: "read", code: code)
        }
        var kind = FileKind(mode: info.st_mode)
        var size = 0
        if kind == .regular {
            size = Int(clamping: info.st_size)
            var byte: UInt8 = 0
            // Empty, or made as it is read (a byte, or a read that fails, as /proc/self/mem's).
            if size == 0, pread(descriptor, &byte, 1, 0) != 0 { kind = .sizeless }
        }
        self.path = path
        self.descriptor = descriptor
        self.kind = kind
        self.size = size
        self.ownsDescriptor = owned
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Throws unless the file is a regular file: a directory with `EISDIR` ("Is a
    /// directory"), anything else with `EINVAL` and what it is ("it is a FIFO (named
    /// pipe), not a regular file").
    package func requireRegularFile() throws(FileReadError) {
        switch kind {
        case .regular: return
        case .directory: throw FileReadError(path: path, step: "read", code: EISDIR)
        default: throw FileReadError(path: path, step: "read", code: EINVAL, detail: "it is \(kind), not a regular file")
        }
    }

    /// The first `count` bytes (fewer when the file is shorter), read once: call it before
    /// ``readAll(limit:)``, which returns them again with the rest.
    package func readHead(_ count: Int) throws(FileReadError) -> [UInt8] {
        guard head.isEmpty, !reachedEnd else { return Array(head.prefix(count)) }
        let wanted = kind == .regular ? min(count, size) : count
        var bytes = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, wanted - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, step: "read", code: errno)
            }
            if n == 0 {
                reachedEnd = true
                break
            }
            filled += n
        }
        bytes.removeSubrange(filled...)
        if kind == .regular, filled < wanted { throw shrank() }
        if kind == .regular, filled == size { reachedEnd = true }
        head = bytes
        return bytes
    }

    /// The whole file, at most `limit` bytes: a regular file to the size `fstat` gave
    /// (what was appended since is not read), anything else to its end.
    ///
    /// - Throws: ``FileReadError``: `EFBIG` when the file holds more than `limit` bytes
    ///   (nothing past the limit is read), `ENOMEM` when its bytes cannot be allocated,
    ///   `EIO` when a regular file shrank while it was read, or the failed `read`'s `errno`.
    package func readAll(limit: Int = .max) throws(FileReadError) -> Data {
        if kind == .regular {
            guard size <= limit else {
                throw FileReadError(path: path, step: "read", code: EFBIG,
                                    detail: "it is \(size) bytes, more than the limit of \(limit)")
            }
            return try readRegular(count: size)
        }
        return try readStream(limit: limit)
    }

    // MARK: - Reading

    /// A regular file: `count` bytes (its `fstat` size), `head` first.
    private func readRegular(count: Int) throws(FileReadError) -> Data {
        guard count > 0 else { return Data() }
        let buffer = try allocate(count)
        var filled = 0
        head.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) }
        }
        filled = head.count
        while filled < count {
            let n: Int
            do { n = try readSome(into: buffer + filled, count: count - filled) } catch { free(buffer); throw error }
            if n == 0 {
                free(buffer)
                throw shrank()
            }
            filled += n
        }
        head = []
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    /// Anything else (a pipe, a device, a `/proc` file): to its end, `head` first, in a
    /// buffer grown by doubling up to `limit` bytes.
    private func readStream(limit: Int) throws(FileReadError) -> Data {
        var capacity = max(head.count, 1 << 16)
        var buffer = try allocate(capacity)
        var filled = head.count
        head.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) }
        }
        head = []
        while !reachedEnd {
            if filled == capacity {
                guard capacity <= limit else {
                    free(buffer)
                    throw overLimit(limit)
                }
                // One byte past the limit is room enough to tell a file of exactly `limit` bytes.
                let grown = capacity > limit / 2 ? limit &+ 1 : capacity &* 2
                guard let larger = realloc(buffer, grown) else {
                    free(buffer)
                    throw FileReadError(path: path, step: "read", code: ENOMEM, detail: "cannot allocate \(grown) bytes to read it")
                }
                buffer = larger
                capacity = grown
            }
            let n: Int
            do { n = try readSome(into: buffer + filled, count: capacity - filled) } catch { free(buffer); throw error }
            if n == 0 { reachedEnd = true }
            filled += n
        }
        guard filled <= limit else {
            free(buffer)
            throw overLimit(limit)
        }
        guard filled > 0 else {
            free(buffer)
            return Data()
        }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
    }

    /// One `read` of at most `count` bytes into `buffer` (retried when a signal interrupts
    /// it): the bytes read, 0 at the end, or the failure's `errno`.
    private func readSome(into buffer: UnsafeMutableRawPointer, count: Int) throws(FileReadError) -> Int {
        while true {
            let n = read(descriptor, buffer, count)
            if n >= 0 { return n }
            guard errno == EINTR else { throw FileReadError(path: path, step: "read", code: errno) }
        }
    }

    private func overLimit(_ limit: Int) -> FileReadError {
        FileReadError(path: path, step: "read", code: EFBIG, detail: "it holds more than the limit of \(limit) bytes")
    }

    /// `count` bytes from `malloc`, or `ENOMEM`.
    private func allocate(_ count: Int) throws(FileReadError) -> UnsafeMutableRawPointer {
        guard let buffer = malloc(max(count, 1)) else {
            throw FileReadError(path: path, step: "read", code: ENOMEM, detail: "cannot allocate \(count) bytes to read it")
        }
        return buffer
    }

    private func shrank() -> FileReadError {
        FileReadError(path: path, step: "read", code: EIO,
                      detail: "the file shrank while it was read (another program is changing it); it was \(size) bytes")
    }
}
