import Foundation

/// Where ``ObjectRecord``'s writers append: an open object's ``RecordScratch``, or a
/// `[UInt8]` (the plain form the tests compare it with).
protocol RecordByteSink {
    var count: Int { get }
    mutating func append(_ byte: UInt8)
    /// Four bytes, little-endian.
    mutating func appendLE32(_ value: UInt32)
    /// Eight bytes, little-endian.
    mutating func appendLE64(_ value: UInt64)
    mutating func appendBytes<C: Collection<UInt8>>(_ bytes: C)
}

extension Array: RecordByteSink where Element == UInt8 {
    @inline(__always)
    mutating func appendLE32(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 24))
    }

    @inline(__always)
    mutating func appendLE64(_ value: UInt64) {
        appendLE32(UInt32(truncatingIfNeeded: value))
        appendLE32(UInt32(truncatingIfNeeded: value >> 32))
    }

    @inline(__always)
    mutating func appendBytes<C: Collection<UInt8>>(_ bytes: C) { append(contentsOf: bytes) }
}

/// The growing bytes of an object being filled in (see ArchiveObjectTable+Records.swift).
///
/// An `[UInt8]` checked its buffer's uniqueness on every byte appended (a field's key and
/// UID were five appends, each with that check); this writes through a pointer it keeps,
/// checking only the room left. The buffer is owned by `storage` (freed with it); a copy
/// of the struct shares it, so only the open object that holds one appends to it.
struct RecordScratch: RecordByteSink {
    /// Owns the buffer.
    private final class Storage {
        let base: UnsafeMutableRawPointer
        init(capacity: Int) {
            base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        }
        deinit { base.deallocate() }
    }

    private var storage: Storage
    /// `storage.base`, kept here so that writing does not touch the storage's reference.
    private var base: UnsafeMutableRawPointer
    private(set) var count = 0
    private(set) var capacity: Int

    /// Room for 64 bytes (a few fields) at first.
    init(capacity: Int = 64) {
        let capacity = Swift.max(capacity, 16)
        storage = Storage(capacity: capacity)
        base = storage.base
        self.capacity = capacity
    }

    /// The bytes `bytes` holds.
    init(copying bytes: [UInt8]) {
        self.init(capacity: bytes.count)
        appendBytes(bytes)
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if extra > capacity &- count { grow(toHold: extra) }
    }

    @inline(never)
    private mutating func grow(toHold extra: Int) {
        let newCapacity = Swift.max(capacity * 2, count + extra)
        let new = Storage(capacity: newCapacity)
        new.base.copyMemory(from: base, byteCount: count)
        storage = new
        base = new.base
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count &+= 1
    }

    @inline(__always)
    mutating func appendLE32(_ value: UInt32) {
        reserve(4)
        base.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt32.self)
        count &+= 4
    }

    @inline(__always)
    mutating func appendLE64(_ value: UInt64) {
        reserve(8)
        base.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt64.self)
        count &+= 8
    }

    @inline(__always)
    mutating func appendBytes<C: Collection<UInt8>>(_ bytes: C) {
        let total = bytes.count
        reserve(total)
        UnsafeMutableRawBufferPointer(start: base + count, count: total).copyBytes(from: bytes)
        count &+= total
    }

    /// Appends `value(0)`, `value(1)`, … (`total` of them) four bytes each, little-endian,
    /// with room made once.
    @inline(__always)
    mutating func appendLE32s(_ total: Int, _ value: (Int) -> UInt32) {
        reserve(4 &* total)
        for index in 0..<total {
            base.storeBytes(of: value(index).littleEndian, toByteOffset: count &+ 4 &* index, as: UInt32.self)
        }
        count &+= 4 &* total
    }

    /// Overwrites the four bytes at `index` (a UID written before) with `value`, little-endian.
    /// They must be inside the bytes written (as an array's subscript, this stops otherwise).
    @inline(__always)
    mutating func setLE32(_ value: UInt32, at index: Int) {
        precondition(index >= 0 && index <= count &- 4, "RecordScratch.setLE32 outside the bytes written")
        base.storeBytes(of: value.littleEndian, toByteOffset: index, as: UInt32.self)
    }

    /// The bytes from `start` to the end (`start` within `0...count`). They point into this
    /// scratch's buffer: read them while the scratch (a stored property, not a temporary)
    /// is alive and unchanged.
    @inline(__always)
    func bytes(from start: Int) -> UnsafeRawBufferPointer {
        precondition(start >= 0 && start <= count, "RecordScratch.bytes(from:) outside the bytes written")
        return UnsafeRawBufferPointer(start: base + start, count: count &- start)
    }

    /// Moves the end `count` bytes on (room written later with ``storeVarint(_:at:)``; its
    /// bytes are unset until then).
    @inline(__always)
    mutating func appendUninitialized(_ count: Int) {
        reserve(count)
        self.count &+= count
    }

    /// Writes `value` in LEB128 at `index` (within the bytes, as ``setLE32(_:at:)``);
    /// returns the index after it.
    @inline(__always)
    mutating func storeVarint(_ value: UInt64, at index: Int) -> Int {
        precondition(index >= 0 && index <= count &- ObjectRecord.varintSize(value), "RecordScratch.storeVarint outside the bytes written")
        var at = index
        ObjectRecord.forEachVarintByte(value) { byte in
            base.storeBytes(of: byte, toByteOffset: at, as: UInt8.self)
            at &+= 1
        }
        return at
    }

    /// Forgets the bytes, keeping the buffer.
    @inline(__always)
    mutating func removeAll() { count = 0 }
}
