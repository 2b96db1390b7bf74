import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading a whole file without copying it: a regular file is memory-mapped read-only, and
/// the `Data` returned owns the mapping (unmapped when the last copy of it goes away). Only
/// ``ArchiveDecoder/decode(_:contentsOf:)`` maps files, because its caller asks for a file
/// to be decoded in place; ``ArchiveStore`` and the `keyedarchive` tool read files other
/// programs write into memory (``InputFile``).
///
/// The file is opened and checked by ``InputFile`` (regular files only), and only the size
/// `fstat` gave is mapped, so a file that grows meanwhile is read as it was. A file that
/// another process *shrinks* while it is mapped is the one hazard of mapping: touching a
/// page past its new end raises SIGBUS, as with `Data(contentsOf:options: .alwaysMapped)`.
/// Files replaced by renaming (how ``ArchiveStore`` and most programs save) are not
/// affected.
package enum MappedFile {
    /// The contents of `file`, which must be a regular file: mapped, or empty when it is
    /// empty, or read into memory on a file system that cannot map; and whether the bytes
    /// are a mapping (whose pages ``releaseResidentPages(address:count:)`` may release).
    ///
    /// - Throws: ``FileReadError`` naming the path and what the file is when it is not a
    ///   regular file ("Is a directory", "it is a FIFO (named pipe), not a regular file").
    package static func mapping(of file: InputFile) throws(FileReadError) -> (data: Data, isMapped: Bool) {
        try file.requireRegularFile()
        guard file.size > 0 else { return (Data(), false) }
        let size = file.size
        let mapped: UnsafeMutableRawPointer? = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.descriptor, 0)
        guard let base = mapped, base != UnsafeMutableRawPointer(bitPattern: -1) else {
            // A file system that cannot map (some network and virtual ones): read it instead.
            return (try file.readAll(), false)
        }
        return (Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in
            munmap(pointer, count)
        }), true)
    }

    /// Drops this process's resident pages of a read-only file mapping (`count` bytes at
    /// `address`, as ``mapping(of:)`` mapped them), so that reading a large file does not
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
}
