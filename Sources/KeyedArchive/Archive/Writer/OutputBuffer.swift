import Foundation

/// The buffer a writer fills with a whole file whose exact size it counted first.
///
/// `Data(count:)` zero-fills a heap block a quarter larger than asked (room to grow) and,
/// when glibc serves it from the heap (its mmap threshold moves up after a large block is
/// freed), makes every page resident before a byte is written. On Linux a large file gets
/// pages of its own instead (`mmap`, exactly its size, handed to `Data` without a copy and
/// unmapped when the `Data` goes): a page becomes resident only when the writer reaches it,
/// so the object table that the writer is releasing meanwhile and the file share the peak
/// rather than adding up (see ``ArchiveBinaryWriter``).
enum OutputBuffer {
    /// Files at least this large get pages of their own.
    static let mappedThreshold = 1 << 18
    /// Files at least this large get transparent huge pages where they are on offer.
    static let hugePageThreshold = 16 << 20

    /// A `Data` of `count` bytes, all of which `fill` writes (it is given zeros).
    static func data(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> Data {
        #if os(Linux)
        if count >= mappedThreshold, let mapped = mapped(count: count) {
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
    /// `count` zeroed bytes of fresh anonymous pages, or nil when the system has none.
    private static func mapped(count: Int) -> UnsafeMutableRawPointer? {
        let pointer = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let pointer, pointer != MAP_FAILED else { return nil }
        // The writer fills the file from its start while it frees the object table: a huge
        // page is resident from its first byte, up to 2 MB ahead of the writer, which the
        // peak then holds beside the table not yet freed. From 16 MB on that is at most
        // 1/8 of the file (smaller files keep the pages' faults; see `HugePages`).
        HugePages.advise(pointer, bytes: count, minimum: hugePageThreshold)
        return pointer
    }
    #endif
}
