#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Large tables and files on transparent huge pages, where the system offers them.
///
/// A large encode touches every page of its output and of its uniquing tables once, and
/// each first touch of a 4 KB page is a page fault: 2.5 µs each in the benchmark's
/// virtual machine, where a million `Double`s spent a third of their encoding time in the
/// kernel. A 2 MB page takes one fault where 4 KB pages take 512 (0.6 µs per 4 KB there,
/// most of it zeroing). Linux gives huge pages to a range marked `MADV_HUGEPAGE` when its
/// transparent huge pages are `madvise` (the default of many distributions) or `always`;
/// with `never`, and on other systems, marking does nothing.
///
/// Only the whole 2 MB blocks inside a range can be huge, and a huge page is resident as a
/// whole from its first touch: so only ranges that are written in full soon after are
/// marked (a table filled with its empty value at once, a file written from its start).
enum HugePages {
    /// Ranges shorter than this are not marked: few whole blocks fit, and their faults are few.
    static let minimumBytes = 4 << 20

    /// The huge page size this code marks for (x86-64 and arm64 with 4 KB base pages).
    static let blockBytes = 2 << 20

    /// Marks the whole 2 MB blocks of the `bytes` bytes from `start`, when there are at
    /// least `minimum` bytes; before the range is first touched.
    @inline(__always)
    static func advise(_ start: UnsafeMutableRawPointer, bytes: Int, minimum: Int = minimumBytes) {
        #if os(Linux)
        guard bytes >= minimum else { return }
        MemoryAdvice.wholeBlocks(start, bytes: bytes, block: blockBytes, advice: MADV_HUGEPAGE)
        #endif
    }

    /// `count` copies of `element` (a table's empty slots), its storage marked before it
    /// is filled when it is large.
    static func array<Element>(repeating element: Element, count: Int) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress {
                advise(UnsafeMutableRawPointer(base), bytes: count * MemoryLayout<Element>.stride)
                buffer.initialize(repeating: element)
            }
            initialized = count
        }
    }
}
