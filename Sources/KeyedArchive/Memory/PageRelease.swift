#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Frees an array and gives its pages back to the system at once.
///
/// glibc keeps a freed block below its mmap threshold (128 KB and up) in the heap, resident,
/// for the next `malloc`; an encoder that frees its object table while it fills the file
/// (pages the heap cannot reuse) would then hold both at its peak. So the whole pages inside
/// the block are dropped first (`madvise(MADV_DONTNEED)`: the block's own, as
/// `malloc_trim` would drop them after the `free`, without its walk of the whole heap),
/// then the block is freed. Elsewhere, and for small arrays, the array is only freed.
enum PageRelease {
    /// Arrays whose storage spans fewer bytes are only freed (their whole pages are few).
    static let minimumBytes = 1 << 15

    /// Empties `array` and frees its storage, its whole pages first given back.
    static func free<Element>(_ array: inout [Element]) {
        #if os(Linux)
        let bytes = array.capacity * MemoryLayout<Element>.stride
        if bytes >= minimumBytes {
            array.removeAll(keepingCapacity: true)
            // The storage is this array's alone (the closure is given a unique buffer), its
            // elements are gone, and the range stays inside its capacity.
            array.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                discardPages(UnsafeMutableRawPointer(base), bytes: bytes)
            }
        }
        #endif
        array = []
    }

    #if os(Linux)
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Drops the whole pages in `bytes` bytes from `start`: anonymous memory reads as zeros
    /// afterwards, a file mapping reads the file's bytes again (see
    /// `MappedFile.releaseResidentPages(address:count:)`).
    static func discardPages(_ start: UnsafeMutableRawPointer, bytes: Int) {
        MemoryAdvice.wholeBlocks(start, bytes: bytes, block: pageSize, advice: MADV_DONTNEED)
    }
    #endif
}
