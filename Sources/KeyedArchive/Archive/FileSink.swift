import Foundation

/// Bytes written at a moving position of the output buffer (see the bounds note in
/// ``ArchiveBinaryWriter/write()``).
struct FileSink: BinaryPlistSink {
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    var position: Int

    init() {
        buffer = UnsafeMutableBufferPointer(start: nil, count: 0)
        position = 0
    }

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>, at position: Int) {
        self.buffer = buffer
        self.position = position
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        buffer[position] = byte
        position += 1
    }

    /// One copy; the bytes at the old position were counted by the first pass (see above).
    @inline(__always)
    mutating func put(bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
        (target + position).update(from: source, count: bytes.count)
        position += bytes.count
    }

    /// As the protocol's, with the position moved once: the `size` bytes at the old
    /// position were counted by the first pass like every other (see above).
    @inline(__always)
    mutating func putBigEndian(_ value: UInt64, size: Int) {
        let at = position
        position += size
        switch size {
        case 1:
            buffer[at] = UInt8(truncatingIfNeeded: value)
        case 2:
            buffer[at] = UInt8(truncatingIfNeeded: value >> 8)
            buffer[at &+ 1] = UInt8(truncatingIfNeeded: value)
        case 4:
            buffer[at] = UInt8(truncatingIfNeeded: value >> 24)
            buffer[at &+ 1] = UInt8(truncatingIfNeeded: value >> 16)
            buffer[at &+ 2] = UInt8(truncatingIfNeeded: value >> 8)
            buffer[at &+ 3] = UInt8(truncatingIfNeeded: value)
        case 8:
            // Reals, dates and wide integers: spelled out, as the widths above (the loop
            // below took about 50 instructions; these stores become one).
            buffer[at] = UInt8(truncatingIfNeeded: value >> 56)
            buffer[at &+ 1] = UInt8(truncatingIfNeeded: value >> 48)
            buffer[at &+ 2] = UInt8(truncatingIfNeeded: value >> 40)
            buffer[at &+ 3] = UInt8(truncatingIfNeeded: value >> 32)
            buffer[at &+ 4] = UInt8(truncatingIfNeeded: value >> 24)
            buffer[at &+ 5] = UInt8(truncatingIfNeeded: value >> 16)
            buffer[at &+ 6] = UInt8(truncatingIfNeeded: value >> 8)
            buffer[at &+ 7] = UInt8(truncatingIfNeeded: value)
        default:
            var index = at
            var shift = size * 8
            while index < position {
                shift -= 8
                buffer[index] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
                index &+= 1
            }
        }
    }
}
