/// An append-only array kept in chunks of fixed size: growing it never copies what is
/// already stored, so a table of many entries costs its size, not the 1.5–2× (copy plus
/// the freed buffers left behind) of an array that doubles.
struct ChunkedArray<Element> {
    private static var shift: Int { 13 }
    private static var chunkSize: Int { 1 << shift }
    private static var mask: Int { chunkSize - 1 }

    /// The full chunks (chunk `i` holds the elements from `i << shift`).
    private var chunks: [[Element]] = []
    /// The chunk being filled, the one after `chunks` (full, at most, until the next append
    /// retires it): an append goes to it alone, with one uniqueness check and one capacity
    /// check rather than those of the array of chunks too.
    private var tail: [Element] = []
    private(set) var count = 0
    /// Chunks freed by ``release(below:)``, from the first.
    private var released = 0

    var indices: Range<Int> { 0..<count }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count & Self.mask == 0, count > 0 { retireTail() }
        tail.append(element)
        count += 1
    }

    /// Moves the full tail to `chunks`; the next tail has room for a whole chunk (the first
    /// chunk grows as usual, so small tables stay small).
    @inline(never)
    private mutating func retireTail() {
        var full: [Element] = []
        full.reserveCapacity(Self.chunkSize)
        swap(&full, &tail)
        chunks.append(full)
    }

    /// Appends `element` `count` times: as many ``append(_:)`` calls, copied from a buffer
    /// (an append of a `repeatElement` goes element by element).
    mutating func append(repeating element: Element, count total: Int) {
        withUnsafeTemporaryAllocation(of: Element.self, capacity: total) { buffer in
            buffer.initialize(repeating: element)
            append(contentsOf: UnsafeBufferPointer(buffer))
        }
    }

    /// Appends `elements` in order: as many ``append(_:)`` calls, a chunk at a time.
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        var from = 0
        while from < elements.count {
            if count & Self.mask == 0, count > 0 { retireTail() }
            let run = min(elements.count - from, Self.chunkSize - count & Self.mask)
            tail.append(contentsOf: UnsafeBufferPointer(rebasing: elements[from..<(from + run)]))
            count += run
            from += run
        }
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            let chunk = index >> Self.shift
            return chunk < chunks.count ? chunks[chunk][index & Self.mask] : tail[index & Self.mask]
        }
        set {
            let chunk = index >> Self.shift
            if chunk < chunks.count { chunks[chunk][index & Self.mask] = newValue } else { tail[index & Self.mask] = newValue }
        }
    }

    /// Frees every chunk whose elements are all below `index`: none of them is read again.
    mutating func release(below index: Int) {
        let end = min(index >> Self.shift, chunks.count)
        while released < end {
            PageRelease.free(&chunks[released])
            released += 1
        }
        // The tail too once it is full and all below `index` (it stays the chunk after
        // `chunks`: an append retires it, freed, as any full tail).
        if index >> Self.shift > chunks.count, count & Self.mask == 0 { PageRelease.free(&tail) }
    }

    /// Empties the array, each chunk freed with its pages given back at once.
    mutating func releaseAll() {
        for index in chunks.indices { PageRelease.free(&chunks[index]) }
        PageRelease.free(&tail)
        self = ChunkedArray()
    }

    /// The elements from `start` to the end of its chunk, at most `end` (for a scan that
    /// goes chunk by chunk; `start < end <= count`).
    func run(from start: Int, to end: Int) -> ArraySlice<Element> {
        let chunk = start >> Self.shift
        let upper = min(end - (chunk << Self.shift), Self.chunkSize)
        return (chunk < chunks.count ? chunks[chunk] : tail)[(start & Self.mask)..<upper]
    }
}

/// Byte records kept in chunks (see ``ChunkedArray``); a record never straddles two, so
/// it is read from one `[UInt8]`. An address is the chunk's index in the high 24 bits
/// and the offset in the low 40 (a chunk is at most one record's size or 64 KB, and
/// there are fewer than 2^24 chunks while the archive fits in memory).
///
/// A chunk is made at its full size, and a record is copied into its place there (one
/// copy, no `append` of a collection, which cost about 100 instructions a record): the
/// bytes of the last chunk past ``filled`` are not written yet, and nothing reads them
/// (a cursor reads only the records it is pointed at).
struct ChunkedBytes {
    private static let chunkLimit = 1 << 16
    private static let offsetBits: UInt64 = 40

    private(set) var chunks: [[UInt8]] = []
    /// Bytes of the last chunk that hold records (0 when there is none).
    private var filled = 0
    /// The size of the last chunk (0 when there is none).
    private var lastSize = 0
    /// Per chunk but the last, the last entry (UID) whose record or data it holds: the
    /// last to read it. The last chunk's is `lastReader` (one scalar to update per record).
    private var lastReaders: [Int] = []
    private var lastReader = 0
    /// Chunks by `lastReaders`, and how many of them ``release(readBy:)`` freed.
    private var releaseOrder: [Int] = []
    private var released = 0

    /// Appends a record of exactly `size` bytes for entry `reader`, which `write` writes
    /// into the buffer it is given (its place, `size` bytes); returns its address.
    @inline(__always)
    mutating func append(size: Int, reader: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) -> UInt64 {
        if size > lastSize &- filled { startChunk(holding: size) }
        if reader > lastReader { lastReader = reader }
        let index = chunks.count - 1
        let offset = filled
        chunks[index].withUnsafeMutableBytes { chunk in
            write(UnsafeMutableRawBufferPointer(rebasing: chunk[offset..<(offset + size)]))
        }
        filled = offset + size
        return UInt64(index) << Self.offsetBits | UInt64(offset)
    }

    /// A new last chunk with room for `size` bytes. Chunks grow with the table (1 KB,
    /// 2 KB, … 64 KB), or fit one large record.
    @inline(never)
    private mutating func startChunk(holding size: Int) {
        if !chunks.isEmpty { lastReaders.append(lastReader) }
        let stored = chunks.count
        let chunkSize = max(size, min(Self.chunkLimit, 1_024 << min(stored, 6)))
        // Left unset (UInt8 has no invalid value): each byte is written by the record
        // that takes it before anything reads it, and the bytes no record takes are never read.
        chunks.append([UInt8](unsafeUninitializedCapacity: chunkSize) { _, count in count = chunkSize })
        filled = 0
        lastSize = chunkSize
        lastReader = 0
    }

    /// Frees every chunk read by no entry after `entry` (a writer that goes through the
    /// entries in order has written them all). No record is appended afterwards.
    mutating func release(readBy entry: Int) {
        if releaseOrder.isEmpty, released == 0 {
            if lastReaders.count < chunks.count { lastReaders.append(lastReader) }
            releaseOrder = lastReaders.indices.sorted { (lastReaders[$0], $0) < (lastReaders[$1], $1) }
        }
        while released < releaseOrder.count, lastReaders[releaseOrder[released]] <= entry {
            PageRelease.free(&chunks[releaseOrder[released]])
            released += 1
        }
    }

    /// A cursor at `address`.
    @inline(__always)
    func cursor(at address: UInt64) -> ObjectRecord.Cursor {
        let (chunk, offset) = Self.split(address)
        return ObjectRecord.Cursor(chunks[chunk], at: offset, chunk: chunk)
    }

    /// Moves `cursor` to `address`: in place when that is in the chunk `cursor` reads (no
    /// new reference to the chunk, so no retain and release), else onto its chunk.
    @inline(__always)
    func move(_ cursor: inout ObjectRecord.Cursor, to address: UInt64) {
        let (chunk, offset) = Self.split(address)
        if chunk == cursor.chunk {
            cursor.position = offset
        } else {
            cursor = ObjectRecord.Cursor(chunks[chunk], at: offset, chunk: chunk)
        }
    }

    @inline(__always)
    private static func split(_ address: UInt64) -> (chunk: Int, offset: Int) {
        (Int(address >> offsetBits), Int(address & (1 << offsetBits - 1)))
    }
}
