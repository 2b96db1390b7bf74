/// Where ``XMLPlistOutput`` puts its bytes. The XML writers run twice over what they
/// write: into an ``XMLPlistByteCounter`` to learn the document's exact size, then into an
/// ``XMLPlistBufferSink`` over a buffer of that size, so the text is written once, in
/// place, with no growing buffer and no copy.
protocol XMLPlistByteSink {
    /// Appends `count` bytes, all of which `fill` writes from the pointer it is given. A
    /// sink that only counts never calls `fill`.
    mutating func append(count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void)
}

/// The first pass: counts the bytes and writes none.
struct XMLPlistByteCounter: XMLPlistByteSink {
    private(set) var count = 0

    @inline(__always)
    mutating func append(count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        self.count += count
    }
}

/// The second pass: writes into a buffer the first pass sized.
struct XMLPlistBufferSink: XMLPlistByteSink {
    private let start: UnsafeMutablePointer<UInt8>?
    private let capacity: Int
    /// Bytes written so far.
    private(set) var position = 0
    /// Set when a piece did not fit (the two passes disagreed): it was left out.
    private(set) var overflowed = false

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        start = buffer.baseAddress
        capacity = buffer.count
    }

    /// Whether the buffer was filled exactly: every piece written, and no byte left over.
    var isComplete: Bool { !overflowed && position == capacity }

    @inline(__always)
    mutating func append(count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        // Bounds: `position <= capacity` always holds (it only grows by a `count` checked
        // here), so `capacity &- position` is the room left, and `fill` is given exactly
        // `count` bytes inside the buffer. A piece that does not fit is left out rather
        // than written past the end (the first pass counted every piece, so none is).
        guard let start, count >= 0, count <= capacity &- position else {
            overflowed = true
            return
        }
        fill(start + position)
        position &+= count
    }
}

/// A `Double`'s shortest round-trip text, captured from `Double.write(to:)` (the text
/// `description` gives) without making a `String`.
struct XMLPlistRealText: TextOutputStream {
    /// The longest text is 24 bytes (`-2.2250738585072014e-308`).
    static let capacity = 32
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private(set) var count = 0
    /// Set if the text did not fit (never, for a `Double`): use `description` instead.
    private(set) var overflowed = false

    init(_ value: Double) {
        value.write(to: &self)
    }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        append(buffer)
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= Self.capacity - count else {
            overflowed = true
            return
        }
        let start = count
        withUnsafeMutableBytes(of: &storage) { raw in
            // Bounds: start + bytes.count <= capacity, the storage's 32 bytes (checked above).
            for (offset, byte) in bytes.enumerated() { raw[start + offset] = byte }
        }
        count += bytes.count
    }

    /// The text's bytes.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in
            // Bounds: count <= capacity, the storage's size.
            body(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }
}
