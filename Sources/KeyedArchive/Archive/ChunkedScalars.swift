/// ``ChunkedArray`` for elements without references (kinds, payloads): the chunks are
/// allocated memory owned by one final class, so an append or a store writes through a
/// pointer, with no uniqueness check of an array of chunks or of a chunk (the table's
/// hottest appends: two per entry, and the payload of each object stored again when it
/// closes).
///
/// A copy shares the elements (the class is not copied on write): each table keeps its
/// own and hands out only reads.
struct ChunkedScalars<Element: BitwiseCopyable> {
    private let storage = Storage()

    var count: Int { storage.count }
    var indices: Range<Int> { 0..<storage.count }

    @inline(__always)
    func append(_ element: Element) {
        let storage = storage
        let count = storage.count
        if count == storage.limit { storage.grow() }
        storage.tail[count & Storage.mask] = element
        storage.count = count &+ 1
    }

    /// Appends `element` `count` times.
    func append(repeating element: Element, count total: Int) {
        var left = total
        while left > 0 {
            if storage.count == storage.limit { storage.grow() }
            let run = min(left, storage.limit - storage.count)
            (storage.tail + (storage.count & Storage.mask)).initialize(repeating: element, count: run)
            storage.count += run
            left -= run
        }
    }

    /// Appends `elements` in order, a chunk at a time.
    func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        var from = 0
        while from < elements.count {
            if storage.count == storage.limit { storage.grow() }
            let run = min(elements.count - from, storage.limit - storage.count)
            if let source = elements.baseAddress {
                (storage.tail + (storage.count & Storage.mask)).initialize(from: source + from, count: run)
            }
            storage.count += run
            from += run
        }
    }

    /// The element at `index` (`0..<count`, not released).
    @inline(__always)
    subscript(index: Int) -> Element {
        get { storage.chunks[index >> Storage.shift][index & Storage.mask] }
        nonmutating set { storage.chunks[index >> Storage.shift][index & Storage.mask] = newValue }
    }

    /// Frees every chunk whose elements are all below `index`: none of them is read again.
    func release(below index: Int) {
        storage.release(below: index)
    }

    /// The elements from `start` to the end of its chunk, at most `end` (for a scan that
    /// goes chunk by chunk; `start < end <= count`); indexed as in the chunk.
    func run(from start: Int, to end: Int) -> Slice<UnsafeBufferPointer<Element>> {
        let chunk = start >> Storage.shift
        let upper = min(end - (chunk << Storage.shift), Storage.chunkSize)
        return UnsafeBufferPointer(start: storage.chunks[chunk], count: upper)[(start & Storage.mask)..<upper]
    }

    final class Storage {
        static var shift: Int { 13 }
        static var chunkSize: Int { 1 << shift }
        static var mask: Int { chunkSize - 1 }
        /// Capacity of the first chunk at first (it grows to a whole chunk, so small tables
        /// stay small).
        private static var firstCapacity: Int { 64 }

        /// Every chunk (chunk `i` holds the elements from `i << shift`), the last is `tail`;
        /// those below `released` are freed.
        @exclusivity(unchecked) var chunks: [UnsafeMutablePointer<Element>]
        @exclusivity(unchecked) var tail: UnsafeMutablePointer<Element>
        @exclusivity(unchecked) var count = 0
        /// `count` once `tail` is full.
        @exclusivity(unchecked) var limit: Int
        @exclusivity(unchecked) private var released = 0

        init() {
            tail = .allocate(capacity: Self.firstCapacity)
            chunks = [tail]
            limit = Self.firstCapacity
        }

        deinit {
            for index in released..<chunks.count { chunks[index].deallocate() }
        }

        /// Room for the next element: the first chunk twice the size (at most a whole
        /// chunk), or a new whole chunk.
        @inline(never)
        func grow() {
            if chunks.count == 1, limit < Self.chunkSize {
                let larger = UnsafeMutablePointer<Element>.allocate(capacity: min(limit * 2, Self.chunkSize))
                larger.initialize(from: tail, count: count)
                tail.deallocate()
                tail = larger
                chunks[0] = larger
                limit = min(limit * 2, Self.chunkSize)
            } else {
                tail = .allocate(capacity: Self.chunkSize)
                chunks.append(tail)
                limit = count + Self.chunkSize
            }
        }

        /// Frees the chunks all below `index` (a freed full tail is replaced by the next
        /// append, which finds it full).
        func release(below index: Int) {
            let end = min(index >> Self.shift, chunks.count)
            while released < end {
                PageRelease.free(chunks[released], count: Self.chunkSize)
                released += 1
            }
        }
    }
}
