import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The block of the last large XML document (``XMLPlistGrowingSink``), kept when its `Data`
/// is freed so that the next large document is written into pages already resident.
///
/// A document of 32 MB or more is above glibc's largest mmap threshold: `malloc` maps fresh
/// pages for it and `free` unmaps them, so every such document took a page fault (and a page
/// of zeros) per 4 KB it wrote — about a third of the time of encoding the benchmark's 35 MB
/// orders document as XML on the development machine (a virtual machine, where page faults
/// are dear). The document's `Data` now gives its block back here when it is
/// freed; one block is kept (any other is freed), and only up to ``maximumBytes``, glibc's own
/// largest trim threshold (the free memory it keeps at the top of its heap). So a process
/// that writes large XML documents keeps at most one block of at most 64 MB after the last
/// one is freed. This is the policy glibc applies itself to blocks under its mmap threshold
/// (a freed block's memory stays with the process up to the trim threshold), carried to the
/// blocks above it. Elsewhere (Apple's allocator, and the memory footprint apps are judged
/// by) nothing is kept: ``maximumBytes`` is 0 and every block is freed with its `Data`.
final class XMLPlistSpareBlock: @unchecked Sendable {
    /// The one shared by every large document.
    static let shared = XMLPlistSpareBlock()
    /// Blocks larger than this are freed, not kept: 64 MB with glibc, else 0 (none kept).
    #if canImport(Glibc)
    static let maximumBytes = 1 << 26
    #else
    static let maximumBytes = 0
    #endif

    // `@unchecked Sendable`: `block` and `capacity` are read and written under `lock` only.
    private let lock = NSLock()
    private var block: UnsafeMutableRawPointer?
    private var capacity = 0
    private let limit: Int

    /// A spare block of at most `limit` bytes (another than ``shared``: for tests).
    init(limit: Int = maximumBytes) {
        self.limit = limit
    }

    deinit {
        free(block)
    }

    /// The kept block and its size in bytes (the caller owns it now), or nil when none is kept.
    func take() -> (block: UnsafeMutableRawPointer, capacity: Int)? {
        lock.lock()
        defer { lock.unlock() }
        guard let kept = block else { return nil }
        block = nil
        return (kept, capacity)
    }

    /// Keeps `block` (a `malloc` block of `capacity` bytes, given up by the caller) for the
    /// next large document, or frees it when one is already kept or it is too large.
    func giveBack(_ given: UnsafeMutableRawPointer, capacity size: Int) {
        lock.lock()
        let keep = block == nil && size <= limit
        if keep {
            block = given
            capacity = size
        }
        lock.unlock()
        if !keep { free(given) }
    }

    /// Whether a block is kept (for tests).
    var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return block == nil
    }
}
