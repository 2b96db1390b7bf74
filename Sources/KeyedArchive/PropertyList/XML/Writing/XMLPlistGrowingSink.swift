import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writing pass of a large document (``XMLPlistDocument/data(_:large:)``), whose exact size
/// the counting pass stopped short of: a `malloc` block that grows (doubling, through
/// `realloc`) as pieces arrive, then is trimmed to the bytes written and handed to `Data`
/// without a copy (``takeData()``).
///
/// It starts at least as large as the bytes already counted, 32 MB or more: glibc serves a
/// block that large from pages of its own (its largest mmap threshold), which `realloc`
/// moves (`mremap`) rather than copies, and whose pages beyond the bytes written never become
/// resident. The block is the last large document's when its `Data` has been freed
/// (``XMLPlistSpareBlock``: pages already resident, no page faults), else a new one; the
/// `Data` gives it back there when it is freed. When `malloc` or `realloc` fails, the sink
/// stops writing and says so (``failed``); the document is then written in two exact passes
/// instead.
struct XMLPlistGrowingSink: XMLPlistByteSink {
    private var start: UnsafeMutablePointer<UInt8>?
    private var capacity: Int
    /// Bytes written so far.
    private(set) var position = 0
    /// Set when memory for a piece could not be had: nothing more is written.
    private(set) var failed = false

    /// Where the block goes back when the document's `Data` is freed.
    private let spares: XMLPlistSpareBlock

    /// A block of `capacity` bytes (at least 1) to start with, or more: the spare block of
    /// `spares` when one is kept (grown to `capacity` if smaller), else a new one.
    init(capacity: Int, spares: XMLPlistSpareBlock = .shared) {
        self.spares = spares
        let size = max(capacity, 1)
        var block: UnsafeMutableRawPointer?
        var blockSize = size
        if let spare = spares.take() {
            if spare.capacity >= size {
                block = spare.block
                blockSize = spare.capacity
            } else if let grown = realloc(spare.block, size) {
                block = grown  // the spare's pages moved, not copied, and still resident
            } else {
                free(spare.block)
            }
        }
        if block == nil { block = malloc(size) }
        start = block?.assumingMemoryBound(to: UInt8.self)
        self.capacity = block == nil ? 0 : blockSize
        failed = block == nil
    }

    @inline(__always)
    mutating func append(count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        // Bounds: `position <= capacity` always holds (it only grows by a `count` that
        // fits, checked here or made to fit by `grow`), so `fill` is given exactly `count`
        // bytes inside the block.
        if count < 0 || count > capacity &- position {
            guard grow(toFit: count) else { return }
        }
        guard let start else { return }
        fill(start + position)
        position &+= count
    }

    /// Makes room for `count` more bytes; false (and ``failed``) when it cannot.
    @inline(never)
    private mutating func grow(toFit count: Int) -> Bool {
        guard !failed, let start else { return false }
        // Doubling, or just enough for a piece larger than that; overflow means no memory.
        let (needed, neededOverflow) = position.addingReportingOverflow(count)
        let (doubled, doubledOverflow) = capacity.multipliedReportingOverflow(by: 2)
        guard count >= 0, !neededOverflow else {
            release()
            return false
        }
        let newCapacity = doubledOverflow ? needed : max(doubled, needed)
        guard let grown = realloc(start, newCapacity) else {
            release()
            return false
        }
        self.start = grown.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
        return true
    }

    /// Frees the block after a failure.
    private mutating func release() {
        free(start)
        start = nil
        capacity = 0
        position = 0
        failed = true
    }

    /// The bytes written, as a `Data` that owns the block and gives it back to the spares
    /// when it is freed (the sink must not be used afterwards), or nil when the sink
    /// ``failed``. The block is not trimmed: its pages past the bytes written are not
    /// resident unless an earlier document wrote them, and the next document may need them.
    mutating func takeData() -> Data? {
        guard !failed, let start else { return nil }
        self.start = nil
        let size = capacity, spares = self.spares
        capacity = 0
        return Data(bytesNoCopy: UnsafeMutableRawPointer(start), count: position,
                    deallocator: .custom { block, _ in spares.giveBack(block, capacity: size) })
    }
}
