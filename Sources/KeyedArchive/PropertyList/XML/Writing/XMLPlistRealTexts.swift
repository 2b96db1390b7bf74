/// The texts of the reals an XML document writes, made once: the counting pass of
/// ``XMLPlistDocument`` formats each real (most of what writing a real costs) and keeps its
/// text here, and the writing pass copies the kept text instead of formatting the real again.
/// A real spelled from its digits (``XMLPlistRealText/quick(_:)``: whole numbers, a few
/// decimals) costs less to spell again than to keep, so it is spelled in both passes and not
/// kept; only the reals that need Swift's shortest-text algorithm are.
///
/// The writing pass asks for the kept reals in the order the counting pass kept them (the
/// document writer writes the same value twice, and whether a real is quick depends on its
/// value alone); each kept text carries the real's bits, and a real that does not match the
/// next kept one is formatted afresh, so the text is always the real's own. Memory: the texts
/// (at most 24 bytes each) and 16 bytes per kept real, about a fifth of what their lines
/// take in the document.
struct XMLPlistRealTexts {
    /// The texts, back to back.
    private var texts: [UInt8] = []
    /// Per real, in document order: its bits and where its text ends in `texts`.
    private var bits: [UInt64] = []
    private var ends: [Int] = []
    /// Whether texts are being kept (counting pass) or given back (writing pass).
    private var replaying = false
    /// The next kept real to give back.
    private var next = 0

    /// Switches from keeping texts to giving them back, from the first.
    mutating func startReplay() {
        replaying = true
        next = 0
    }

    /// Calls `body` with the text of `value` (``XMLPlistRealText``): in the writing pass
    /// straight from the kept texts (no copy before the one into the document).
    /// The writing pass looks for the real among the kept ones first (a kept real is never a
    /// quick one), so a kept real pays no failed quick check there, and a real past the kept
    /// ones pays one, not two.
    @inline(__always)
    mutating func withText<R>(of value: Double, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let pattern = value.bitPattern
        if replaying, next < bits.count, bits[next] == pattern {
            let index = next
            next = index + 1
            let start = index == 0 ? 0 : ends[index - 1]
            let end = ends[index]
            // Bounds: 0 <= start <= end <= texts.count, as they were appended below.
            return texts.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        }
        if let quick = XMLPlistRealText.quick(value) { return quick.withBytes(body) }
        let text = XMLPlistRealText(notQuick: value)
        if replaying { return text.withBytes(body) }  // not kept: formatted afresh
        return text.withBytes { bytes in
            texts.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))  // a typed buffer: one copy
            bits.append(pattern)
            ends.append(texts.count)
            return body(bytes)
        }
    }
}
