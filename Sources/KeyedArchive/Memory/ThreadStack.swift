internal import StackBounds

/// How much of the current thread's stack is left, so that a deeply nested archive is
/// refused with an error before it overflows a small stack.
///
/// Typed decoding recurses once per level of the archive (each `init(from:)` calls the
/// next), about 2–3 KB of stack a level in a release build and several times that in a
/// debug build. Apple's secondary threads (Dispatch, Swift concurrency, `Thread`) have
/// 512 KB, where ``ArchiveDecoder/Limits/maxDepth``'s default of 512 levels would not fit:
/// so past ``checkedFromDepth`` levels the decoder also checks, at each level, that at
/// least ``reserve`` bytes of the stack are left (a comparison with the address of a
/// local), and throws otherwise. The thread's stack bounds are asked for once per decode,
/// and only by a decode that gets that deep.
enum ThreadStack {
    /// Below this depth no stack check is made (a decode this shallow fits any stack).
    static let checkedFromDepth = 32

    /// Bytes kept free for the level being decoded, `init(from:)` code of the caller's
    /// and the error's own construction: 1/8 of the stack, at least 64 KB.
    static func reserve(stackSize: Int) -> Int { max(64 << 10, stackSize / 8) }

    /// The lowest stack address a decode at this depth may reach on the current thread
    /// (stacks grow down on every platform Swift runs on), or 0 when the bounds are unknown.
    static func floor() -> UInt {
        guard let (low, size) = bounds() else { return 0 }
        return low &+ UInt(reserve(stackSize: size))
    }

    /// An address in the caller's frame: where the stack is now.
    @inline(__always)
    static func position() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// The current thread's stack: its lowest address and its size (C: StackBounds).
    private static func bounds() -> (low: UInt, size: Int)? {
        var low: UInt = 0
        var size = 0
        guard stack_bounds_current(&low, &size) == 1 else { return nil }
        return (low, size)
    }
}
