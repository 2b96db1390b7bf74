import Foundation

// `[Int]` and `[Double]`, stored as `Array.encode(to:)` stores them through an unkeyed
// container (an NSArray of one number object per element, equal numbers shared), a batch
// of elements at a time: the batch's numbers are uniqued with one probe each, their home
// slots asked for first (a prefetch) so that the cache misses of a large table overlap,
// and their entries and elements appended together (see
// `ArchiveObjectTable.appendNumberElements`). The output is the same, byte for byte, as
// storing each element in turn.
extension _ArchiveEncoder {
    /// Elements per batch: enough to overlap the cache misses of a large number table. With
    /// a batch's slots prefetched rather than read (see ``ScalarRefTable/prefetchHome(_:)``),
    /// 64 pays one wait on memory per 64 elements where 16 paid one per 16, and the batch's
    /// own costs a quarter as often: 10–11% fewer instructions for a million numbers.
    private static var numberBatch: Int { 64 }

    /// A `[Double]`. A value the non-conforming float strategy must see (not finite, with
    /// a strategy set) is stored on its own, through ``realUID(_:at:)``, at its place.
    func boxDoubles(_ values: [Double], at base: CodingPathNode) throws -> Int32 {
        let checksFloats = options.checksFloats
        return try boxNumbers(values, in: .reals, key: { checksFloats && !$0.isFinite ? nil : $0.bitPattern }) { value, index in
            try realUID(value, at: base.appending(index: index))
        }
    }

    /// An `[Int]`.
    func boxIntegers(_ values: [Int]) -> Int32 {
        boxNumbers(values, in: .integers, key: { UInt64(bitPattern: Int64($0)) }) { value, _ in
            table.integer(Int64(value))
        }
    }

    /// An array of numbers: `key` gives the bit pattern stored in `which`, or nil for a value
    /// `single` stores (given its index). When the first elements are mostly new numbers,
    /// `which` makes room for the rest at once (``ArchiveObjectTable/reserveNumbers(remaining:ifMostlyNewSince:in:)``).
    @inline(__always)
    private func boxNumbers<N>(_ values: [N], in which: ArchiveObjectTable.NumberTable, key: (N) -> UInt64?,
                               single: (N, Int) throws -> Int32) rethrows -> Int32 {
        let made = makeObject(kind: .array)
        let table = table
        let uid = made.uid, level = made.box.level
        let batch = Self.numberBatch
        let storedBefore = table.numberCount(in: which)
        var reserved = false
        try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: batch) { keys in
            var index = 0
            while index < values.count {
                if !reserved, index >= ArchiveObjectTable.numbersBeforeReserving {
                    reserved = true
                    table.reserveNumbers(remaining: values.count - index, ifMostlyNewSince: storedBefore, in: which)
                }
                var filled = 0
                while filled < batch, index < values.count, let bits = key(values[index]) {
                    keys[filled] = bits
                    filled += 1
                    index += 1
                }
                if filled > 0 {
                    table.appendNumberElements(UnsafeBufferPointer(rebasing: keys[0..<filled]), in: which, uid: uid, hint: level)
                }
                if filled < batch, index < values.count {
                    // A value without a key (the batch stopped before it).
                    table.appendElement(try single(values[index], index), uid: uid, hint: level)
                    index += 1
                }
            }
        }
        return uid
    }
}
