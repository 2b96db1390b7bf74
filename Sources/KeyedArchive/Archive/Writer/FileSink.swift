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
        // One store each (big-endian, at any alignment) for the widths of references,
        // offsets, numbers and dates: the bytes one at a time took a store and a shift each.
        // Bounds are checked as `buffer[at]` checks them (in debug builds; see above).
        switch size {
        case 1:
            buffer[at] = UInt8(truncatingIfNeeded: value)
        case 2:
            UnsafeMutableRawBufferPointer(buffer).storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, toByteOffset: at, as: UInt16.self)
        case 4:
            UnsafeMutableRawBufferPointer(buffer).storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, toByteOffset: at, as: UInt32.self)
        case 8:
            UnsafeMutableRawBufferPointer(buffer).storeBytes(of: value.bigEndian, toByteOffset: at, as: UInt64.self)
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
