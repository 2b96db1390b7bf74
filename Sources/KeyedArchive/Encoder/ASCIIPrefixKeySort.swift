import Foundation

/// An ASCII string's sort key (see ``stringSortKeys(_:visit:)``): its first 16 bytes as two
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
/// ASCII, `<` itself sorts them (the keys' prefixes are then zero). `visit` sees each
/// string's position and bytes as its key is made (the dictionary encoder hashes them there).
/// This is the one order rule for dictionary keys and set elements that are strings.
@inline(__always)
func stringSortKeys(_ strings: [String], visit: (Int, UnsafeBufferPointer<UInt8>) -> Void = { _, _ in }) -> [ASCIIPrefixKey] {
    var keys: [ASCIIPrefixKey] = []
    keys.reserveCapacity(strings.count)
    var allASCII = true
    for index in strings.indices {
        strings[index].withContiguousUTF8 { bytes in
            visit(index, bytes)
            if allASCII, let prefix = asciiPrefix(of: bytes) {
                keys.append((prefix.high, prefix.low, index))
            } else {
                allASCII = false
            }
        }
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
/// radix sort: each pass deals a range into 256 buckets by one byte, a byte every key of the
/// range shares costs only its count), small ranges and keys that share all 16 bytes by
/// ``introsort(_:_:_:by:)``. Each key is dealt at most 16 times, so the time is linear in the
/// keys plus n log n comparisons at most, whatever the keys.
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

/// Ranges of fewer keys than this are sorted by comparisons (a pass over 256 buckets costs
/// more than comparing so few).
private let radixMinimum = 64

/// Byte `position` (0 to 15) of a key's prefix.
@inline(__always)
private func prefixByte(_ key: ASCIIPrefixKey, _ position: Int) -> Int {
    let word = position < 8 ? key.high : key.low
    return Int(truncatingIfNeeded: word >> UInt64(56 - 8 * (position & 7))) & 0xFF
}

/// The radix sort of ``sortASCIIPrefixKeys(_:strings:)``: ranges still to sort and the
/// byte that splits them are kept on a stack (at most 255 per byte position, 16 positions).
private func radixSort(_ keys: inout [ASCIIPrefixKey], by less: (ASCIIPrefixKey, ASCIIPrefixKey) -> Bool) {
    var spare = keys
    var counts = [Int](repeating: 0, count: 256)
    keys.withUnsafeMutableBufferPointer { buffer in
        spare.withUnsafeMutableBufferPointer { spare in
            counts.withUnsafeMutableBufferPointer { counts in
                var pending: [(first: Int, end: Int, position: Int)] = [(0, buffer.count, 0)]
                while let (first, end, position) = pending.popLast() {
                    if end - first < radixMinimum || position == 16 {
                        // Few keys, or keys whose 16 bytes are all the same: their strings decide.
                        introsort(buffer, first, end - 1, by: less)
                        continue
                    }
                    counts.update(repeating: 0)
                    for index in first..<end { counts[prefixByte(buffer[index], position)] += 1 }
                    if counts[prefixByte(buffer[first], position)] == end - first {
                        // Every key has this byte: the next one splits them.
                        pending.append((first, end, position + 1))
                        continue
                    }
                    // Each bucket's start, then deal the keys into `spare` and copy them back.
                    var start = first
                    for byte in 0..<256 {
                        let count = counts[byte]
                        counts[byte] = start
                        start += count
                    }
                    for index in first..<end {
                        let byte = prefixByte(buffer[index], position)
                        spare[counts[byte]] = buffer[index]
                        counts[byte] += 1
                    }
                    for index in first..<end { buffer[index] = spare[index] }
                    // `counts[byte]` is now where bucket `byte` ends.
                    var lower = first
                    for byte in 0..<256 {
                        let upper = counts[byte]
                        if upper - lower > 1 { pending.append((lower, upper, position + 1)) }
                        lower = upper
                    }
                }
            }
        }
    }
}

/// Sorts `buffer[first...last]` by `less`: an introsort, quicksort with a median-of-three
/// pivot, insertion sort on short ranges, and the standard library's sort for a range that
/// has been split too often, so n log n comparisons whatever the order of the input.
private func introsort(_ buffer: UnsafeMutableBufferPointer<ASCIIPrefixKey>, _ first: Int, _ last: Int,
                       by less: (ASCIIPrefixKey, ASCIIPrefixKey) -> Bool) {
    guard first < last else { return }
    let depthLimit = 2 * (Int.bitWidth - (last - first + 1).leadingZeroBitCount)
    // Inclusive ranges still to sort; the larger half is pushed first, so the stack
    // holds O(log n) ranges.
    var pending: [(first: Int, last: Int, depth: Int)] = [(first, last, depthLimit)]
    while let (first, last, depth) = pending.popLast() {
        if last - first < 16 {
            insertionSort(buffer, first, last, by: less)
            continue
        }
        if depth == 0 {
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
            pending.append((first, j, depth - 1))
            pending.append((j + 1, last, depth - 1))
        } else {
            pending.append((j + 1, last, depth - 1))
            pending.append((first, j, depth - 1))
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
