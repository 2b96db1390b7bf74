import Testing
@testable import KeyedArchive

@Suite("Chunked scalars: the table's kinds and payloads in allocated chunks")
struct ChunkedScalarsTests {
    /// Elements read and written back across chunk boundaries (the first chunk grown,
    /// the tail full and partly filled), by subscript and by runs.
    @Test func readsAndWritesAcrossChunks() {
        for count in [0, 1, 63, 64, 65, 8_191, 8_192, 8_193, 16_384, 20_001] {
            let array = ChunkedScalars<Int>()
            for value in 0..<count { array.append(value * 3) }
            #expect(array.count == count)
            #expect(array.indices.allSatisfy { array[$0] == $0 * 3 }, "\(count)")
            for index in stride(from: 0, to: count, by: 997) { array[index] = -index }
            if count > 0 { array[count - 1] = -1 }
            #expect(array.indices.allSatisfy { array[$0] == ($0 == count - 1 ? -1 : $0 % 997 == 0 ? -$0 : $0 * 3) }, "\(count)")
            var start = 0
            var read: [Int] = []
            while start < count {
                let run = array.run(from: start, to: count)
                #expect(run.startIndex == start & 8_191)
                read += run
                start += run.count
            }
            #expect(read == array.indices.map { array[$0] }, "\(count)")
        }
    }

    /// Appends of many elements at once (a buffer, a repeated value) equal as many single
    /// appends, across chunk boundaries and the first chunk's growth.
    @Test func bulkAppendsEqualOneByOne() {
        let bulk = ChunkedScalars<UInt64>(), single = ChunkedScalars<UInt64>()
        let kindsBulk = ChunkedScalars<UInt8>(), kindsSingle = ChunkedScalars<UInt8>()
        var value: UInt64 = 0
        for run in [1, 5, 100, 8_190, 1, 3, 8_192, 20_000, 7] {
            let values = (0..<run).map { UInt64($0) &+ value }
            value &+= UInt64(run) * 3
            values.withUnsafeBufferPointer { bulk.append(contentsOf: $0) }
            for v in values { single.append(v) }
            kindsBulk.append(repeating: UInt8(run % 256), count: run)
            for _ in 0..<run { kindsSingle.append(UInt8(run % 256)) }
        }
        #expect(bulk.count == single.count && bulk.count == 36_499)
        #expect(bulk.indices.allSatisfy { bulk[$0] == single[$0] })
        #expect(kindsBulk.count == kindsSingle.count)
        #expect(kindsBulk.indices.allSatisfy { kindsBulk[$0] == kindsSingle[$0] })
    }

    /// Releasing chunks below an index keeps every element above it readable, and appends
    /// after a release (of the full tail too) go on from the count.
    @Test func releaseKeepsTheRestAndAppendsGoOn() {
        let array = ChunkedScalars<UInt64>()
        for value in 0..<16_384 { array.append(UInt64(value)) }
        array.release(below: 8_192)
        #expect((8_192..<16_384).allSatisfy { array[$0] == UInt64($0) })
        array.release(below: 16_384)  // the full tail too
        array.append(7)
        array.append(8)
        #expect(array.count == 16_386)
        #expect(array[16_384] == 7 && array[16_385] == 8)
        let first = ChunkedScalars<UInt64>()
        for value in 0..<8_192 { first.append(UInt64(value)) }
        first.release(below: 8_192)  // the first chunk, full, is the tail
        first.append(9)
        #expect(first.count == 8_193 && first[8_192] == 9)
        let bulk = ChunkedScalars<UInt64>()
        [UInt64](repeating: 5, count: 9_000).withUnsafeBufferPointer { bulk.append(contentsOf: $0) }
        bulk.release(below: 8_192)
        bulk.append(6)
        #expect(bulk.count == 9_001 && bulk[8_999] == 5 && bulk[9_000] == 6)
    }
}
