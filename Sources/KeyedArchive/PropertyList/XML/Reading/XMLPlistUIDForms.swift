/// The bytes of a keyed-archive UID in XML as writers indent it, for the fast XML reader
/// (``XMLPlistFastReader``) to compare a few words at a time with the input instead of
/// skipping each run of whitespace and matching each tag in turn.
///
/// After `<dict>` indented by a run of whitespace, a writer puts the key and the integer one
/// level deeper (the run and one more of its last byte) and `</dict>` at the run:
///
///     <dict>␤⇥⇥<key>CF$UID</key>␤⇥⇥<integer>7</integer>␤⇥</dict>     (run: ␤⇥)
///
/// The head is everything from after `<dict>` to the digits, the tail everything after
/// them. Both are whitespace and markup only, so input that matches them is read exactly
/// as the reader's general path reads it (which skips any whitespace); on a mismatch the
/// reader takes that path. Forms are kept per run length (1 to 6 bytes, so that the head is
/// at most five words and the tail three), made when a run is first seen.
struct XMLPlistUIDForms {
    /// One UID's bytes for one run.
    private struct UsualForm {
        /// The run and the `<` after it, as ``XMLPlistFastReader`` keeps its last run.
        var run: UInt64 = 0
        var head: XMLPlistBytes.MaskedWords = ((0, 0, 0, 0, 0), (0, 0, 0, 0, 0))
        var tail: XMLPlistBytes.ShortMaskedWords = ((0, 0, 0), (0, 0, 0))
        /// Bytes from the end of `<dict>` to the digits (0: no form made).
        var headCount = 0
        /// Bytes from the end of the digits to the end of `</dict>`.
        var tailCount = 0
    }

    /// By run length (index 0 unused).
    private var forms = [UsualForm](repeating: UsualForm(), count: 7)
    /// The run length of the form in use (an index into `forms`).
    private var selected = 0

    /// Bytes of the selected form's head and tail.
    var headCount: Int { forms[selected].headCount }
    var tailCount: Int { forms[selected].tailCount }

    /// Selects the form for a `<dict>` after `run` (its `length` bytes of whitespace and then
    /// `<`, as ``XMLPlistFastReader`` keeps its last run), made if it is new; false when the
    /// run is not 1 to 6 bytes.
    @inline(__always)
    mutating func select(after run: UInt64, length: Int) -> Bool {
        guard length >= 1, length <= 6 else { return false }
        selected = length
        if forms[length].run != run || forms[length].headCount == 0 {
            forms[length] = Self.make(after: run, length: length)
        }
        return true
    }

    // The two comparisons are `mutating` only so that they read the form in place (a
    // non-mutating call on the reader's property copies the forms first).

    /// Whether the bytes at `k` are the selected form's head (reads checked by ``XMLPlistBytes``).
    @inline(__always)
    mutating func matchesHead(_ input: XMLPlistBytes, at k: Int) -> Bool {
        input.matches(forms[selected].head, at: k)
    }

    /// Whether the bytes at `k` are the selected form's tail.
    @inline(__always)
    mutating func matchesTail(_ input: XMLPlistBytes, at k: Int) -> Bool {
        input.matches(forms[selected].tail, at: k)
    }

    private static func make(after run: UInt64, length: Int) -> UsualForm {
        var whitespace: [UInt8] = (0..<length).map { UInt8(truncatingIfNeeded: run >> UInt64($0 &* 8)) }
        let runBytes = whitespace
        whitespace.append(whitespace[length - 1])  // one level deeper
        let head = whitespace + Array("<key>CF$UID</key>".utf8) + whitespace + Array("<integer>".utf8)
        let tail = Array("</integer>".utf8) + runBytes + Array("</dict>".utf8)
        let tailWords = maskedWords(tail)  // at most 10 + 6 + 7 = 23 bytes: three words
        return UsualForm(run: run, head: maskedWords(head), tail: ((tailWords.words.0, tailWords.words.1, tailWords.words.2),
                                                                   (tailWords.masks.0, tailWords.masks.1, tailWords.masks.2)),
                         headCount: head.count, tailCount: tail.count)
    }

    /// `bytes` (at most 40) as five little-endian words, zeros past the end, each with the
    /// mask of the bytes it holds.
    private static func maskedWords(_ bytes: [UInt8]) -> XMLPlistBytes.MaskedWords {
        var words = [UInt64](repeating: 0, count: 5), masks = [UInt64](repeating: 0, count: 5)
        for (offset, byte) in bytes.enumerated() {
            words[offset / 8] |= UInt64(byte) << UInt64(offset % 8 * 8)
            masks[offset / 8] |= 0xFF << UInt64(offset % 8 * 8)
        }
        return ((words[0], words[1], words[2], words[3], words[4]), (masks[0], masks[1], masks[2], masks[3], masks[4]))
    }
}
