import Foundation

/// An ASCII string's sort key in `asciiSortedOrder` (SpecialEncodable.swift): its first 16
/// bytes as two big-endian integers (zero-padded) and its position among the strings.
typealias ASCIIPrefixKey = (high: UInt64, low: UInt64, index: Int)

/// Sorts `keys` by their prefixes, then (equal prefixes) by their strings' `<`: the order
/// `<` gives the strings themselves. An introsort over the buffer: quicksort with a
/// median-of-three pivot, insertion sort on short ranges, and the standard library's sort
/// for a range that has been split too often, so n log n comparisons whatever the order
/// of the input. The keys are distinct (a dictionary's keys, a set's elements), so the
/// result does not depend on stability.
func sortASCIIPrefixKeys(_ keys: inout [ASCIIPrefixKey], strings: [String]) {
    @inline(__always)
    func less(_ a: ASCIIPrefixKey, _ b: ASCIIPrefixKey) -> Bool {
        if a.high != b.high { return a.high < b.high }
        if a.low != b.low { return a.low < b.low }
        return strings[a.index] < strings[b.index]
    }
    keys.withUnsafeMutableBufferPointer { buffer in
        guard buffer.count > 1 else { return }
        let depthLimit = 2 * (Int.bitWidth - buffer.count.leadingZeroBitCount)
        // Inclusive ranges still to sort; the larger half is pushed first, so the stack
        // holds O(log n) ranges.
        var pending: [(first: Int, last: Int, depth: Int)] = [(0, buffer.count - 1, depthLimit)]
        while let (first, last, depth) = pending.popLast() {
            if last - first < 16 {
                insertionSort(buffer, first, last, by: less)
                continue
            }
            if depth == 0 {
                buffer[first...last].sort(by: less)
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
