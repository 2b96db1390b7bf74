#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `madvise` on the whole aligned blocks of a range: the one rounding that
/// ``PageRelease`` (pages given back) and ``HugePages`` (2 MB blocks marked) share.
enum MemoryAdvice {
    /// Calls `madvise(advice)` on the `block`-aligned blocks (`block` a power of two) that
    /// lie wholly inside the `bytes` bytes from `start`; does nothing when none does.
    static func wholeBlocks(_ start: UnsafeMutableRawPointer, bytes: Int, block: Int, advice: Int32) {
        let mask = block - 1
        let first = (Int(bitPattern: start) &+ mask) & ~mask
        let end = (Int(bitPattern: start) &+ bytes) & ~mask
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, end - first, advice)
    }
}
#endif
