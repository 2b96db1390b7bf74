import Foundation

#if os(Linux)
import Glibc
#endif

/// The buffer a writer fills with a whole file whose exact size it counted first.
///
/// `Data(count:)` zero-fills a heap block a quarter larger than asked (room to grow) and,
/// when glibc serves it from the heap (its mmap threshold moves up after a large block is
/// freed), makes every page resident before a byte is written. On Linux a large file gets
/// pages of its own instead (`mmap`, exactly its size, handed to `Data` without a copy and
/// unmapped when the `Data` goes): a page becomes resident only when the writer reaches it,
/// so the object table that the writer is releasing meanwhile and the file share the peak
/// rather than adding up (see ``ArchiveBinaryWriter``).
///
/// A fresh page costs a fault and its zeroing when the writer first reaches it: in a
/// virtual machine the fault is the larger part, about 1 ms per MB written. A file of
/// ``hugePageThreshold`` or more is laid out on 2 MB boundaries and asks for huge pages
/// (`MADV_HUGEPAGE`; a no-op where transparent huge pages are off), one fault per 2 MB:
/// writing 35 MB of fresh pages took 33-39 ms with small pages and 4 ms with huge ones. At
/// most one huge page more than the writer has reached is resident, so below the threshold
/// (which the encoder's memory goal is measured at) files keep small pages.
enum OutputBuffer {
    /// Files at least this large get pages of their own.
    static let mappedThreshold = 1 << 18
    /// Files at least this large get huge pages: one 2 MB page ahead of the writer is then
    /// at most a sixteenth of the file.
    static let hugePageThreshold = 1 << 25

    /// A `Data` of `count` bytes, all of which `fill` writes (it is given zeros). From
    /// `ownPagesFrom` bytes on (the binary writer's ``mappedThreshold``; writers that free
    /// nothing as they go pass ``hugePageThreshold``, as the heap's warm pages are then
    /// cheaper to fill), the bytes are pages of their own.
    static func data(count: Int, ownPagesFrom: Int = mappedThreshold, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> Data {
        #if os(Linux)
        if count >= max(ownPagesFrom, mappedThreshold), let mapped = mapped(count: count) {
            fill(UnsafeMutableBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: count))
            return Data(bytesNoCopy: mapped, count: count, deallocator: .custom { pointer, size in
                _ = munmap(pointer, size)
            })
        }
        #endif
        var data = Data(count: count)
        data.withUnsafeMutableBytes { raw in fill(raw.bindMemory(to: UInt8.self)) }
        return data
    }

    #if os(Linux)
    /// `count` zeroed bytes of fresh anonymous pages, or nil when the system has none;
    /// on huge pages from ``hugePageThreshold`` bytes on.
    private static func mapped(count: Int) -> UnsafeMutableRawPointer? {
        if count >= hugePageThreshold, let huge = mappedOnHugePages(count: count) { return huge }
        return anonymousPages(count)
    }

    private static let hugePageSize = 1 << 21

    /// `count` bytes starting on a huge-page boundary, huge pages asked for. The mapping is
    /// made a huge page larger, then trimmed to start at the boundary and end at the page
    /// after `count` bytes, so unmapping `count` bytes from the start frees all of it.
    private static func mappedOnHugePages(count: Int) -> UnsafeMutableRawPointer? {
        let pageMask = Int(sysconf(Int32(_SC_PAGESIZE))) - 1
        let (padded, overflow) = count.addingReportingOverflow(hugePageSize)
        guard !overflow, pageMask > 0, let raw = anonymousPages(padded) else { return nil }
        let start = Int(bitPattern: raw)
        let aligned = (start + hugePageSize - 1) & ~(hugePageSize - 1)
        let end = (aligned + count + pageMask) & ~pageMask
        if aligned > start { _ = munmap(raw, aligned - start) }
        if start + padded > end, let tail = UnsafeMutableRawPointer(bitPattern: end) { _ = munmap(tail, start + padded - end) }
        guard let pointer = UnsafeMutableRawPointer(bitPattern: aligned) else { return nil }
        _ = madvise(pointer, count, MADV_HUGEPAGE)
        return pointer
    }

    private static func anonymousPages(_ count: Int) -> UnsafeMutableRawPointer? {
        let pointer = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let pointer, pointer != MAP_FAILED else { return nil }
        return pointer
    }
    #endif
}
