import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading a whole file without copying it: a regular file is memory-mapped read-only, and
/// the `Data` returned owns the mapping (unmapped when the last copy of it goes away). The
/// decoder, ``ArchiveStore`` and the `keyedarchive` tool read files through it.
///
/// The size is taken with `fstat` before mapping and only that much is mapped, so a file
/// that grows meanwhile is read as it was. A file that another process *shrinks* while it
/// is mapped is the one hazard of mapping: touching a page past its new end raises SIGBUS,
/// as with `Data(contentsOf:options: .alwaysMapped)`. Files replaced by renaming (how
/// ``ArchiveStore`` and most programs save) are not affected; for a file that may be
/// truncated in place, read it into `Data` and decode that.
package enum MappedFile {
    /// What to do with a path that is not a regular file (a pipe, a device).
    package enum OtherFiles: Sendable {
        /// Read it to its end into memory (`keyedarchive dump <(…)`).
        case read
        /// Refuse it (`EINVAL`), without blocking on opening a pipe (the store).
        case refuse
    }

    /// The contents of the file at `path`: mapped when it is a regular file, empty when it
    /// is empty, read to its end when it is something else and `others` is `.read`.
    ///
    /// - Throws: ``FileReadError`` naming the path, the step and `errno`'s reason
    ///   ("No such file or directory", "Is a directory").
    package static func contents(ofFile path: String, others: OtherFiles = .read) throws(FileReadError) -> Data {
        try mapping(ofFile: path, others: others).data
    }

    /// ``contents(ofFile:others:)``, and whether the bytes are a mapping of the file (whose
    /// pages ``releaseResidentPages(address:count:)`` may release) rather than memory.
    package static func mapping(ofFile path: String, others: OtherFiles = .read) throws(FileReadError) -> (data: Data, isMapped: Bool) {
        let flags = O_RDONLY | O_CLOEXEC | (others == .refuse ? O_NONBLOCK : 0)
        var fd: Int32
        repeat { fd = open(path, flags) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw FileReadError(path: path, step: "open", code: errno) }
        defer { close(fd) }
        return try mapping(ofOpenFile: fd, path: path, others: others)
    }

    /// ``mapping(ofFile:others:)`` for a file the caller opened (read-only) as `fd`, which
    /// stays the caller's to close; `path` names the file in errors.
    package static func mapping(ofOpenFile fd: Int32, path: String, others: OtherFiles = .read) throws(FileReadError) -> (data: Data, isMapped: Bool) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileReadError(path: path, step: "read", code: errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            throw FileReadError(path: path, step: "read", code: EISDIR)
        default:
            guard others == .read else { throw FileReadError(path: path, step: "read (not a regular file)", code: EINVAL) }
            return (try readToEnd(fd, path: path), false)
        }
        guard info.st_size > 0, let size = Int(exactly: info.st_size) else { return (Data(), false) }
        let mapped: UnsafeMutableRawPointer? = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let base = mapped, base != UnsafeMutableRawPointer(bitPattern: -1) else {
            // A file system that cannot map (some network and virtual ones): read it instead.
            return (try readToEnd(fd, path: path), false)
        }
        return (Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in
            munmap(pointer, count)
        }), true)
    }

    /// Drops this process's resident pages of a read-only file mapping (`count` bytes at
    /// `address`, as ``mapping(ofFile:others:)`` mapped them), so that reading a large file does not
    /// keep all of it resident at once. The mapping stays valid: a page read again is
    /// mapped again from the page cache, with the same bytes.
    ///
    /// Linux counts a mapping's touched pages in the process's resident size until it is
    /// unmapped; Apple platforms do not count clean file pages in a process's footprint,
    /// so there it does nothing. Never call it on memory that is not such a mapping
    /// (`MADV_DONTNEED` zeroes anonymous memory).
    package static func releaseResidentPages(address: UInt, count: Int) {
        #if os(Linux)
        guard let base = UnsafeMutableRawPointer(bitPattern: address), count > 0 else { return }
        PageRelease.discardPages(base, bytes: count)
        #endif
    }

    /// Everything `fd` holds, read to its end into memory (a pipe, standard input, a file
    /// that cannot be mapped, or one the caller will not map): one buffer, grown by
    /// doubling from `sizeHint` (the size `fstat` gave, when known). A file that grows while
    /// it is read is read to its new end.
    ///
    /// - Throws: ``FileReadError`` naming `path` (the name to show, `<stdin>` say).
    package static func readToEnd(_ fd: Int32, path: String, sizeHint: Int = 0) throws(FileReadError) -> Data {
        var data = Data(count: max(sizeHint, 0) + 1)
        var length = 0
        while true {
            if length == data.count { data.count = max(data.count * 2, 1 << 16) }
            let count = data.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fd, base + length, raw.count - length)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, step: "read", code: errno)
            }
            length += count
        }
        data.count = length
        return data
    }
}

/// A file that could not be read: its path, the step that failed (`open`, `read`) and
/// `errno`.
package struct FileReadError: Error, CustomStringConvertible {
    package let path: String
    package let step: String
    package let code: Int32

    /// `errno`'s text: "No such file or directory".
    package var reason: String { String(cString: strerror(code)) }

    /// "cannot open '/tmp/x.archive': No such file or directory".
    package var description: String { "cannot \(step) '\(path)': \(reason)" }

    /// The error `Data(contentsOf:)` would throw: a `CocoaError` with the file's path and
    /// URL, the `POSIXError` beneath, and ``description`` as its localized description.
    package var cocoaError: CocoaError {
        let kind: CocoaError.Code
        switch code {
        case ENOENT: kind = .fileReadNoSuchFile
        case EACCES, EPERM: kind = .fileReadNoPermission
        default: kind = .fileReadUnknown
        }
        var info: [String: AnyHashable] = [NSFilePathErrorKey: path, NSURLErrorKey: URL(fileURLWithPath: path),
                                           NSLocalizedDescriptionKey: description]
        if let posix = POSIXErrorCode(rawValue: code) { info[NSUnderlyingErrorKey] = POSIXError(posix) as NSError }
        return CocoaError(kind, userInfo: info)
    }
}
