import Foundation

/// An ASCII string's sort key (see ``stringSortKeys(_:)``): its first 16 bytes as two
/// big-endian integers (zero-padded) and its position among the strings.
typealias ASCIIPrefixKey = (high: UInt64, low: UInt64, index: Int)

/// The prefix half of an ASCII string's ``ASCIIPrefixKey``: its first 16 bytes as two
/// big-endian integers, zero-padded (a string that ends first sorts first). Nil when a byte
/// is not ASCII (checked eight bytes at a time).
@inline(__always)
func asciiPrefix(of bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
    guard let base = bytes.baseAddress else { return (0, 0) }  // the empty string
    guard BinaryPlistEncoding.isASCII(bytes) else { return nil }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    if count >= 16 {
        return (UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }
    var padded: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &padded) { $0.baseAddress?.copyMemory(from: raw, byteCount: count) }
    return (UInt64(bigEndian: padded.0), UInt64(bigEndian: padded.1))
}

/// The sort keys of `strings` in the order `String`'s `<` gives (each key's `index` is its
/// string's position): `<` orders strings by Unicode scalar, and an ASCII byte is one scalar
/// of the same value, so the bytes of ASCII strings decide, compared first as prefixes
/// (``asciiPrefix(of:)``, ``sortASCIIPrefixKeys(_:strings:)``). When a string is not all
/// ASCII, `<` itself sorts them (the keys' prefixes are then zero).
/// This is the one order rule for dictionary keys and set elements that are strings.
@inline(__always)
func stringSortKeys(_ strings: [String]) -> [ASCIIPrefixKey] {
    var allASCII = true
    // Written in place (no capacity check per key); kept only when every string is ASCII.
    var keys = [ASCIIPrefixKey](unsafeUninitializedCapacity: strings.count) { keys, initialized in
        for index in strings.indices {
            strings[index].withContiguousUTF8 { bytes in
                if allASCII, let prefix = asciiPrefix(of: bytes) {
                    keys.initializeElement(at: index, to: (prefix.high, prefix.low, index))
                } else {
                    allASCII = false
                }
            }
        }
        initialized = allASCII ? strings.count : 0
    }
    guard allASCII else {
        return strings.indices.sorted { strings[$0] < strings[$1] }.map { (0, 0, $0) }
    }
    sortASCIIPrefixKeys(&keys, strings: strings)
    return keys
}

/// Sorts `keys` by their prefixes, then (equal prefixes) by their strings' `<`: the order
/// `<` gives the strings themselves. The keys are distinct (a dictionary's keys, a set's
/// elements), so the result does not depend on stability.
///
/// Many keys are sorted by their prefixes' bytes from the first (a most-significant-digit
/// radix sort: each pass deals a range into 128 buckets by one byte, or a large range into
/// 128 × 128 by two, bytes every key of the range shares cost only their count), small
/// ranges and keys that share all 16 bytes by ``introsort(_:_:_:by:)``. Each key is dealt at
/// most 16 times, so the time is linear in the keys plus n log n comparisons at most,
/// whatever the keys. The prefixes must be those of ASCII strings (``asciiPrefix(of:)``):
/// every byte below 128.
func sortASCIIPrefixKeys(_ keys: inout [ASCIIPrefixKey], strings: [String]) {
    @inline(__always)
    func less(_ a: ASCIIPrefixKey, _ b: ASCIIPrefixKey) -> Bool {
        if a.high != b.high { return a.high < b.high }
        if a.low != b.low { return a.low < b.low }
        return strings[a.index] < strings[b.index]
    }
    guard keys.count > 1 else { return }
    if keys.count >= radixMinimum {
        radixSort(&keys, by: less)
    } else {
        keys.withUnsafeMutableBufferPointer { introsort($0, 0, $0.count - 1, by: less) }
    }
}

/// Ranges of fewer keys than this are sorted by comparisons (a pass over their buckets costs
/// more than comparing so few).
private let radixMinimum = 64

/// Byte `position` (0 to 15) of a key's prefix.
@inline(__always)
private func prefixByte(_ key: ASCIIPrefixKey, _ position: Int) -> Int {
    let word = position < 8 ? key.high : key.low
    return Int(truncatingIfNeeded: word >> UInt64(56 - 8 * (position & 7))) & 0xFF
}

/// The first byte position (0 to 16, 16 when none) at which the prefixes of
/// `buffer[first..<end]` differ: one pass instead of a counting pass per shared byte.
@inline(__always)
private func firstDifferingByte(_ buffer: UnsafeMutableBufferPointer<ASCIIPrefixKey>, _ first: Int, _ end: Int) -> Int {
    let head = buffer[first]
    var high: UInt64 = 0, low: UInt64 = 0
    for index in first..<end {
        high |= buffer[index].high ^ head.high
        low |= buffer[index].low ^ head.low
    }
    if high != 0 { return high.leadingZeroBitCount / 8 }
    return low != 0 ? 8 + low.leadingZeroBitCount / 8 : 16
}

/// Ranges of at least this many keys are dealt by two bytes at once (128 × 128 buckets):
/// half the passes over them, for a span of buckets that costs little beside so many keys.
private let pairMinimum = 4096

/// A range of keys still to sort, all alike before byte `position`.
private typealias PendingRange = (first: Int, end: Int, position: Int)

/// The radix sort of ``sortASCIIPrefixKeys(_:strings:)``: ranges still to sort and the
/// byte that splits them are kept on a stack. The bytes are ASCII (below 128, the padding
/// 0), so a byte has 128 buckets and a pair of bytes 128 × 128; a range's passes over its
/// buckets cover only the span its keys have (the lowest to the highest) and clear only
/// that span, so a small range does not pay for all of them. Shared leading bytes of all
/// the keys are skipped at once.
private func radixSort(_ keys: inout [ASCIIPrefixKey], by less: (ASCIIPrefixKey, ASCIIPrefixKey) -> Bool) {
    let count = keys.count
    keys.withUnsafeMutableBufferPointer { buffer in
        withUnsafeTemporaryAllocation(of: ASCIIPrefixKey.self, capacity: count) { spare in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: count >= pairMinimum ? 128 * 128 : 128) { counts in
                counts.initialize(repeating: 0)
                var pending: [PendingRange] = [(0, count, firstDifferingByte(buffer, 0, count))]
                while let (first, end, position) = pending.popLast() {
                    if end - first < radixMinimum || position >= 16 {
                        // Few keys, or keys whose 16 bytes are all the same: their strings decide.
                        introsort(buffer, first, end - 1, by: less)
                    } else if end - first >= pairMinimum, position < 15 {
                        deal((first, end, position), width: 2, buffer, spare, counts, &pending)
                    } else {
                        deal((first, end, position), width: 1, buffer, spare, counts, &pending)
                    }
                }
            }
        }
    }
}

/// One pass of ``radixSort(_:by:)`` over `range`: its keys dealt into buckets by their
/// `width` bytes (1 or 2) from `range.position` through `spare` and back, and each bucket
/// of two keys or more pushed on `pending` with the next position. `counts` (at least
/// 128^width, all zero) is left all zero.
@inline(__always)
private func deal(_ range: PendingRange, width: Int, _ buffer: UnsafeMutableBufferPointer<ASCIIPrefixKey>,
                  _ spare: UnsafeMutableBufferPointer<ASCIIPrefixKey>, _ counts: UnsafeMutableBufferPointer<Int>,
                  _ pending: inout [PendingRange]) {
    let (first, end, position) = range
    @inline(__always)
    func digit(_ key: ASCIIPrefixKey) -> Int {
        let byte = prefixByte(key, position) & 127
        return width == 1 ? byte : byte << 7 | prefixByte(key, position + 1) & 127
    }
    // Counts by digit, and the span of digits present.
    var lowest = Int.max, highest = 0
    for index in first..<end {
        let value = digit(buffer[index])
        counts[value] += 1
        lowest = Swift.min(lowest, value)
        highest = Swift.max(highest, value)
    }
    if lowest == highest {
        // Every key has these bytes: the next ones split them.
        counts[lowest] = 0
        pending.append((first, end, position + width))
        return
    }
    // Each bucket's start, then deal the keys into `spare` and copy them back.
    var start = first
    for value in lowest...highest {
        let size = counts[value]
        counts[value] = start
        start += size
    }
    for index in first..<end {
        let value = digit(buffer[index])
        spare[counts[value]] = buffer[index]
        counts[value] += 1
    }
    for index in first..<end { buffer[index] = spare[index] }
    // `counts[value]` is now where bucket `value` ends; cleared for the next range.
    var lower = first
    for value in lowest...highest {
        let upper = counts[value]
        counts[value] = 0
        if upper - lower > 1 { pending.append((lower, upper, position + width)) }
        lower = upper
    }
}

/// Ranges still to sort in ``introsort(_:_:_:by:)``, at most (960 bytes, small enough for
/// the call stack): the larger half is pushed first, so the stack holds about log2(n)
/// ranges; a range that would overflow it is sorted by the standard library's sort.
private let introsortStackLimit = 40

/// Sorts `buffer[first...last]` by `less`: an introsort, quicksort with a median-of-three
/// pivot, insertion sort on short ranges, and the standard library's sort for a range that
/// has been split too often, so n log n comparisons whatever the order of the input. Its
/// stack of ranges is a fixed allocation on the call stack (no array to allocate per call).
private func introsort(_ buffer: UnsafeMutableBufferPointer<ASCIIPrefixKey>, _ first: Int, _ last: Int,
                       by less: (ASCIIPrefixKey, ASCIIPrefixKey) -> Bool) {
    guard first < last else { return }
    if last - first < 16 {
        insertionSort(buffer, first, last, by: less)
        return
    }
    let depthLimit = 2 * (Int.bitWidth - (last - first + 1).leadingZeroBitCount)
    withUnsafeTemporaryAllocation(of: (first: Int, last: Int, depth: Int).self, capacity: introsortStackLimit) { pending in
        // Inclusive ranges still to sort; the larger half is pushed first.
        pending[0] = (first, last, depthLimit)
        var top = 1
        while top > 0 {
            top -= 1
            let (first, last, depth) = pending[top]
            if last - first < 16 {
                insertionSort(buffer, first, last, by: less)
                continue
            }
            if depth == 0 || top + 2 > pending.count {
                var whole = buffer  // the same memory
                whole[first...last].sort(by: less)
                continue
            }
            // Median of three into the middle, then Hoare's partition around its value.
            let middle = first + (last - first) / 2
            if less(buffer[middle], buffer[first]) { buffer.swapAt(middle, first) }
            if less(buffer[last], buffer[middle]) {
                buffer.swapAt(last, middle)
                if less(buffer[middle], buffer[first]) { buffer.swapAt(middle, first) }
            }
            let pivot = buffer[middle]
            var i = first - 1, j = last + 1
            while true {
                repeat { i += 1 } while less(buffer[i], pivot)
                repeat { j -= 1 } while less(pivot, buffer[j])
                if i >= j { break }
                buffer.swapAt(i, j)
            }
            // `first...j` holds no key above the pivot, `j + 1...last` none below it; both
            // are non-empty (`first <= j < last`).
            if j - first > last - j - 1 {
                pending[top] = (first, j, depth - 1)
                pending[top + 1] = (j + 1, last, depth - 1)
            } else {
                pending[top] = (j + 1, last, depth - 1)
                pending[top + 1] = (first, j, depth - 1)
            }
            top += 2
        }
    }
}

@inline(__always)
private func insertionSort(_ buffer: UnsafeMutableBufferPointer<ASCIIPrefixKey>, _ first: Int, _ last: Int,
                           by less: (ASCIIPrefixKey, ASCIIPrefixKey) -> Bool) {
    guard first < last else { return }
    for next in (first + 1)...last {
        let key = buffer[next]
        var at = next
        while at > first, less(key, buffer[at - 1]) {
            buffer[at] = buffer[at - 1]
            at -= 1
        }
        buffer[at] = key
    }
}
