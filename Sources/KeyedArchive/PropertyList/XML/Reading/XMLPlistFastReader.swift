import Foundation

/// Reads the common shape of an XML property list straight into a binary property list, at
/// a few nanoseconds per byte; ``XMLPropertyListReader/readBinary(_:maxDepth:)`` falls back
/// to the general parser (``XMLPlistParser``) for everything else.
///
/// The common shape is what Foundation and ``XMLPropertyListWriter`` write: tags with no
/// attributes and no space inside them, whitespace between them, no comments, entities or
/// CDATA inside the values, `<dict>` `<key>CF$UID</key>` `<integer>n</integer>` `</dict>`
/// for a UID. The prolog, `<plist>` and what follows the root are read by the general
/// parser's own functions. On anything else (including every error) ``read(_:maxDepth:)``
/// returns nil before writing any output, and the general parser reads the input from the
/// start: it then throws the error, with its message and line, or reads the unusual form.
/// So the fast path only has to be right when it succeeds: it must add the same objects to
/// the same ``BinaryPropertyListBuilder`` in the same order as the general parser with its
/// binary sink, which the tests check on the corpus and on archives.
///
/// Costs: one pass over the input, read in place (UTF-8 is checked only in the prolog, in
/// text that has a byte of 0x80 or above and after the root: the markup matched is ASCII),
/// no allocation per element (keys and values of the open containers are on two reused
/// stacks), tags recognised by comparing eight bytes at once, text scanned eight bytes at a
/// time, strings uniqued by their bytes (``XMLPlistStringRefs``). Limits: the
/// same `maxDepth` (a deeper input falls back, and the general parser throws); time linear
/// in the input, as each byte is looked at a bounded number of times, and a fallback reads
/// the input once more.
struct XMLPlistFastReader {
    /// The fast path does not apply (or the input is malformed): read with the general parser.
    struct Bail: Error {}

    private typealias Tag = XMLPlistTagWords

    /// The input, read in place; every read is checked against its end (``XMLPlistBytes``),
    /// besides the reader's own tests.
    private let input: XMLPlistBytes
    private let n: Int
    private var i: Int
    private let maxDepth: Int
    private(set) var builder: BinaryPropertyListBuilder
    private var strings = XMLPlistStringRefs()
    /// Keys of the open dictionaries, innermost last.
    private let keyRefs = XMLPlistRefStack()
    /// Values of the open dictionaries and items of the open arrays, innermost last.
    private let valueRefs = XMLPlistRefStack()
    /// Whether any dictionary lists a key twice (checked as each one closes).
    private var keyRepeats = XMLPlistKeyRepeatCheck()
    /// A UID's bytes as writers indent it, by the run before its `<dict>`.
    private var uidForms = XMLPlistUIDForms()
    /// The innermost open container (nil before the root's), kept apart from the outer
    /// ones in `outerFrames` so that the check made before every value reads it directly.
    private var top: Frame?
    private var outerFrames: [Frame] = []
    /// The last run of whitespace `nextTag()` skipped with its loop (siblings are indented
    /// alike), below eight bytes, and the `<` after it, as a word; `lastRunLength` is -1 when
    /// there is none.
    private var lastRun: UInt64 = 0
    private var lastRunLength = -1
    /// The bytes of the `<data>` being read (one buffer for all of them, no `Data` each).
    private var dataBytes: [UInt8] = []

    private struct Frame {
        var isDictionary: Bool
        /// Where this container's keys and values start in `keyRefs` and `valueRefs`.
        var keyStart: Int
        var valueStart: Int
    }

    private init(input: XMLPlistBytes, start: Int, maxDepth: Int) {
        self.input = input
        self.n = input.count
        self.i = start
        self.maxDepth = maxDepth
        // Room for the objects of a typical document (an object takes 20 to 70 bytes of XML),
        // so the builder's arrays rarely grow; a larger document just grows them.
        builder = BinaryPropertyListBuilder(expectedObjects: input.count / 64, expectedChildRefs: input.count / 64,
                                            uniquingNumbers: XMLPropertyListReader.uniquesNumbers)
    }

    /// The binary property list of `bytes`, or nil when the general parser must read it.
    static func read(_ bytes: XMLPlistBytes, maxDepth: Int) -> [UInt8]? {
        readProvingKeys(bytes, maxDepth: maxDepth)?.binary
    }

    /// ``read(_:maxDepth:)``, and whether every dictionary was seen to list each key once
    /// (``XMLPlistKeyRepeatCheck``): then the binary property list needs no check for them.
    static func readProvingKeys(_ bytes: XMLPlistBytes, maxDepth: Int) -> (binary: [UInt8], keysDistinct: Bool)? {
        // The document's frame, with the general parser's functions (so it means the same).
        var outer = XMLPlistParser(bytes: bytes, maxDepth: maxDepth, sink: XMLPlistTreeSink())
        let n = bytes.count
        do {
            if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { outer.i = 3 }
            try outer.skipMisc(allowDoctype: true)
            guard outer.i < n, bytes[outer.i] == XMLByte.lt else { return nil }
            let rootStart = outer.i
            let first = try outer.parseStartTag()
            let wrapped = first.tag == .plist
            if wrapped {
                guard !first.selfClosing else { return nil }
                try outer.skipMisc(allowDoctype: false)
            } else {
                outer.i = rootStart
            }
            let valueStart = outer.i
            // UTF-8: the prolog is checked here, the text inside the value as it is read
            // (`text()`), and the rest of the value is markup matched byte for byte (ASCII).
            guard bytes.utf8Problem(in: 0..<valueStart) == nil else { return nil }
            var reader = XMLPlistFastReader(input: bytes, start: valueStart, maxDepth: maxDepth)
            let top: Int
            do throws(Bail) {
                top = try reader.value()
            } catch {
                return nil
            }
            guard bytes.utf8Problem(in: reader.i..<n) == nil else { return nil }
            outer.i = reader.i
            if wrapped {
                try outer.skipMisc(allowDoctype: false)
                guard outer.i + 1 < n, bytes[outer.i] == XMLByte.lt, bytes[outer.i + 1] == XMLByte.slash else { return nil }
                try outer.parseCloseTag(expecting: .plist)
            }
            try outer.skipMisc(allowDoctype: false)
            guard outer.i >= n else { return nil }
            return (reader.builder.finish(top: top), reader.keyRepeats.provedDistinct)
        } catch {
            return nil
        }
    }

    // MARK: Bytes

    /// The byte at `k` (the caller has checked `k < n`; the input checks again).
    @inline(__always) private func byte(_ k: Int) -> UInt8 {
        input[k]
    }

    /// The eight bytes at `k` as a little-endian word, zeros standing in for bytes past the end
    /// (no tag or literal below contains a zero byte, so a comparison never matches them).
    @inline(__always) private func word(_ k: Int) -> UInt64 {
        input.word(k)
    }

    /// Whether the `count` (1...8) bytes at `k` are those of `literal` (little-endian word).
    @inline(__always) private func matches(_ literal: UInt64, count: Int, at k: Int) -> Bool {
        let mask: UInt64 = count >= 8 ? ~0 : (1 << UInt64(count * 8)) &- 1
        return word(k) & mask == literal
    }

    @inline(__always) private func isWhitespace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
    }

    /// Skips whitespace from `k`; returns the index of the next byte (or `n`). (Mutating,
    /// as `text()`: when not inlined, a non-mutating call copies the whole reader.)
    @inline(__always) private mutating func skipWhitespace(from k: Int) -> Int {
        var k = k
        while k < n && isWhitespace(byte(k)) { k += 1 }  // k < n
        return k
    }

    /// Moves `i` over whitespace to the next `<`.
    @inline(__always) private mutating func nextTag() throws(Bail) {
        // The usual case: the last run again and `<` (whitespace, then a byte that is not).
        if lastRunLength >= 0, matches(lastRun, count: lastRunLength &+ 1, at: i) {
            i += lastRunLength
            return
        }
        let start = i
        i = skipWhitespace(from: i)
        guard i < n, byte(i) == XMLByte.lt else { throw Bail() }
        let length = i - start
        if length < 8 {
            lastRun = word(start) & ((1 << UInt64((length &+ 1) &* 8)) &- 1)
            lastRunLength = length
        }
    }

    /// Scans character data from `i` to the next `<` and returns where it ends, having
    /// checked that the text is UTF-8. An `&` (an entity) or the end of the input bails.
    /// (Mutating, as the callers are: a non-mutating call would copy the whole reader.)
    @inline(__always) private mutating func text() throws(Bail) -> Int {
        let start = i
        var k = start
        // Any byte of 0x80 or above seen (maybe a few past the text too): the text then
        // needs a UTF-8 check, which ASCII text does not.
        var high: UInt64 = 0
        // Eight bytes at a time while `k + 8 <= n` (the load stays inside the input): a byte
        // equal to '<' or '&' is found by the zero-byte test on the word xor each of them.
        while k + 8 <= n {
            let w = word(k)
            high |= w
            let x = w ^ 0x3C3C_3C3C_3C3C_3C3C  // '<'
            let y = w ^ 0x2626_2626_2626_2626  // '&'
            let found = ((x &- 0x0101_0101_0101_0101) & ~x | (y &- 0x0101_0101_0101_0101) & ~y) & 0x8080_8080_8080_8080
            if found != 0 {
                // The lowest flagged byte is exact (flags above it may be false).
                k += found.trailingZeroBitCount >> 3
                guard byte(k) == XMLByte.lt else { throw Bail() }  // k < k_old + 8 <= n
                return try checkedText(start, k, high: high)
            }
            k += 8
        }
        while k < n {
            let c = byte(k)  // k < n
            if c == XMLByte.lt { return try checkedText(start, k, high: high) }
            if c == XMLByte.amp { throw Bail() }
            high |= UInt64(c)
            k += 1
        }
        throw Bail()
    }

    /// `end`, once `input[start..<end]` is known to be UTF-8 (`high` has no byte of 0x80 or
    /// above, or the check passes).
    @inline(__always) private mutating func checkedText(_ start: Int, _ end: Int, high: UInt64) throws(Bail) -> Int {
        guard high & 0x8080_8080_8080_8080 == 0 || input.utf8Problem(in: start..<end) == nil else { throw Bail() }
        return end
    }

    // MARK: Tags

    /// Checks the closing tag `literal` (`count` bytes, at most 8) at `i` and moves past it.
    @inline(__always) private mutating func close(_ literal: UInt64, count: Int) throws(Bail) {
        guard matches(literal, count: count, at: i) else { throw Bail() }
        i += count
    }

    // MARK: Values

    /// Reads the value whose start tag is at `i`, and everything inside it; returns its
    /// reference, with `i` just past its end tag.
    private mutating func value() throws(Bail) -> Int {
        while true {
            var ref: Int
            if let top, top.isDictionary, keyRefs.count - top.keyStart == valueRefs.count - top.valueStart {
                // A dictionary wants a key.
                guard matches(Tag.keyOpen, count: 5, at: i) else { throw Bail() }
                i += 5
                let start = i
                let end = try text()
                i = end
                try close(Tag.keyClose, count: 6)
                if keyRefs.count == top.keyStart, end - start == 6, matches(Tag.uidKey, count: 6, at: start) {
                    // A UID indented otherwise than `<dict>`'s run predicted: the rest of it, or
                    // (a dictionary that only starts like one) the general parser.
                    let uid = try uidValueAfterKey()
                    self.top = outerFrames.popLast()
                    if let root = try afterValue(builder.uid(uid)) { return root }
                    continue
                }
                keyRefs.push(strings.ref(input, start, end, builder: &builder))
                try nextTag()
                continue
            }
            let w = word(i)
            switch UInt8(truncatingIfNeeded: w >> 8) {
            case UInt8(ascii: "d"):
                if w & 0xFFFF_FFFF_FFFF == Tag.dictOpen {
                    try checkDepth()
                    i += 6
                    if let uid = uidValueInUsualForm() {
                        ref = builder.uid(uid)
                    } else {
                        open(Frame(isDictionary: true, keyStart: keyRefs.count, valueStart: valueRefs.count))
                        if let root = try afterValue(nil) { return root }
                        continue
                    }
                } else if w & 0xFF_FFFF_FFFF_FFFF == Tag.dictEmpty {
                    try checkDepth()
                    i += 7
                    ref = builder.dictionary(keys: EmptyCollection<Int>(), values: EmptyCollection<Int>())
                } else if w & 0xFFFF_FFFF_FFFF == Tag.dateOpen {
                    i += 6
                    ref = try date()
                } else if w & 0xFFFF_FFFF_FFFF == Tag.dataOpen {
                    i += 6
                    ref = try data()
                } else {
                    throw Bail()
                }
            case UInt8(ascii: "a"):
                if w & 0xFF_FFFF_FFFF_FFFF == Tag.arrayOpen {
                    try checkDepth()
                    i += 7
                    open(Frame(isDictionary: false, keyStart: keyRefs.count, valueStart: valueRefs.count))
                    if let root = try afterValue(nil) { return root }
                    continue
                } else if w == Tag.arrayEmpty {
                    try checkDepth()
                    i += 8
                    ref = builder.array(EmptyCollection<Int>())
                } else {
                    throw Bail()
                }
            case UInt8(ascii: "s"):
                guard w == Tag.stringOpen else { throw Bail() }
                i += 8
                let start = i
                let end = try text()
                i = end
                try close(Tag.stringClose, count: 8)
                try close(0x3E, count: 1)
                ref = strings.ref(input, start, end, builder: &builder)
            case UInt8(ascii: "i"):
                guard w == Tag.integerOpen, matches(0x3E, count: 1, at: i + 8) else { throw Bail() }
                i += 9
                ref = try integer()
            case UInt8(ascii: "r"):
                guard w & 0xFFFF_FFFF_FFFF == Tag.realOpen else { throw Bail() }
                i += 6
                ref = try real()
            case UInt8(ascii: "t"):
                guard w & 0xFF_FFFF_FFFF_FFFF == Tag.trueEmpty else { throw Bail() }
                i += 7
                ref = builder.bool(true)
            case UInt8(ascii: "f"):
                guard w == Tag.falseEmpty else { throw Bail() }
                i += 8
                ref = builder.bool(false)
            default:
                throw Bail()
            }
            if let root = try afterValue(ref) { return root }
        }
    }

    /// Nesting as the general parser counts it: open containers, before opening one more
    /// (empty forms and UID dictionaries included).
    @inline(__always) private func checkDepth() throws(Bail) {
        guard outerFrames.count + (top == nil ? 0 : 1) < maxDepth else { throw Bail() }
    }

    /// Makes `frame` the innermost open container.
    @inline(__always) private mutating func open(_ frame: Frame) {
        if let top { outerFrames.append(top) }
        top = frame
    }

    /// Attaches a finished value (if any) to the innermost container, then closes every
    /// container whose end tag comes next. Returns the root's reference when the outermost
    /// value is complete, else nil with `i` at the next start tag.
    @inline(__always) private mutating func afterValue(_ finished: Int?) throws(Bail) -> Int? {
        var ref = finished
        while true {
            guard let top else {
                // `finished` is non-nil whenever no container is open (a container is opened
                // with `nil` only after it is pushed).
                guard let ref else { throw Bail() }
                return ref
            }
            if let value = ref { valueRefs.push(value) }
            try nextTag()
            let keys = keyRefs.count - top.keyStart
            let values = valueRefs.count - top.valueStart
            if top.isDictionary {
                // The end tag, with no key waiting for its value.
                guard keys == values, matches(Tag.dictClose, count: 7, at: i) else { return nil }
                i += 7
                let keys = keyRefs.top(from: top.keyStart)
                keyRepeats.check(keys, objectCount: builder.objectCount)
                ref = builder.dictionary(keys: keys, values: valueRefs.top(from: top.valueStart))
                keyRefs.pop(from: top.keyStart)
            } else {
                guard matches(Tag.arrayClose, count: 8, at: i) else { return nil }
                i += 8
                ref = builder.array(valueRefs.top(from: top.valueStart))
            }
            valueRefs.pop(from: top.valueStart)
            self.top = outerFrames.popLast()
        }
    }

    /// After a dictionary's first key `CF$UID` (the dictionary open, with no key or value
    /// yet): a plain decimal `<integer>` in `0...UInt32.max` and the dictionary's end, with
    /// any whitespace between them (how XML spells a keyed-archive UID), returning the
    /// number with `i` past `</dict>`. Anything else bails: the general parser holds such a
    /// key back until the dictionary turns out to be more than a UID.
    private mutating func uidValueAfterKey() throws(Bail) -> UInt64 {
        var k = skipWhitespace(from: i)
        guard matches(Tag.integerOpen, count: 8, at: k), matches(0x3E, count: 1, at: k + 8) else { throw Bail() }
        k += 9
        let digitsStart = k
        let value: UInt64
        (value, k) = input.decimalDigits(from: k, limit: 10)
        guard k > digitsStart, value <= UInt64(UInt32.max) else { throw Bail() }
        guard matches(Tag.integerClose, count: 8, at: k), matches(0x3E72, count: 2, at: k + 8) else { throw Bail() }
        k = skipWhitespace(from: k + 10)
        guard matches(Tag.dictClose, count: 7, at: k) else { throw Bail() }
        i = k + 7
        return value
    }

    /// After `<dict>`: the UID when the dictionary is one, indented as writers do after the
    /// last run skipped (``XMLPlistUIDForms``): a few word comparisons and the digits. Nil
    /// (with `i` unchanged) when the bytes are anything else: the dictionary is then read
    /// as any other, and a first key `CF$UID` finishes the UID (``uidValueAfterKey()``).
    @inline(__always) private mutating func uidValueInUsualForm() -> UInt64? {
        guard uidForms.select(after: lastRun, length: lastRunLength), uidForms.matchesHead(input, at: i) else { return nil }
        let digitsStart = i &+ uidForms.headCount
        let (value, end) = input.decimalDigits(from: digitsStart, limit: 10)
        guard end > digitsStart, value <= UInt64(UInt32.max), uidForms.matchesTail(input, at: end) else { return nil }
        i = end &+ uidForms.tailCount
        return value
    }

    // MARK: Scalars

    /// A plain decimal `<integer>` (optional `-`, up to 20 digits, within 64 bits) after its
    /// start tag; anything else (spaces, `+`, hexadecimal, wider values) bails.
    private mutating func integer() throws(Bail) -> Int {
        var k = i
        var negative = false
        if k < n && byte(k) == XMLByte.dash {  // k < n
            negative = true
            k += 1
        }
        let digitsStart = k
        var magnitude: UInt64
        (magnitude, k) = input.decimalDigits(from: k, limit: 19)
        if k < n, XMLByte.isDigit(byte(k)) {  // k < n
            // A 20th digit, checked.
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(byte(k) &- XMLByte.zero))
            guard !o1, !o2 else { throw Bail() }
            magnitude = sum
            k += 1
        }
        guard k > digitsStart else { throw Bail() }
        i = k
        try close(Tag.integerClose, count: 8)  // also fails on a 21st digit or any other byte
        try close(0x3E72, count: 2)
        if negative {
            guard magnitude <= 1 << 63 else { throw Bail() }
            return builder.integer(Int64(bitPattern: 0 &- magnitude))
        }
        return magnitude <= UInt64(Int64.max) ? builder.integer(Int64(magnitude)) : builder.unsignedInteger(magnitude)
    }

    /// The text of a scalar element up to its end tag (which the caller checks).
    @inline(__always) private mutating func scalarText() throws(Bail) -> XMLPlistBytes {
        let start = i
        let end = try text()
        i = end
        return input.slice(start..<end)
    }

    private mutating func real() throws(Bail) -> Int {
        let content = try scalarText()
        guard let value = XMLPlistDecimal.real(content) else { throw Bail() }
        try close(Tag.realClose, count: 7)
        return builder.real(value)
    }

    private mutating func date() throws(Bail) -> Int {
        let content = try scalarText()
        guard case .success(let seconds) = XMLPlistDateText.secondsSince2001(content) else { throw Bail() }
        try close(Tag.dateClose, count: 7)
        return builder.date(seconds)
    }

    private mutating func data() throws(Bail) -> Int {
        let content = try scalarText()
        do throws(XMLPlistBase64.DecodeError) {
            try XMLPlistBase64.decode(content, into: &dataBytes)
        } catch {
            throw Bail()
        }
        try close(Tag.dataClose, count: 7)
        return dataBytes.withUnsafeBufferPointer { builder.data(bytes: $0) }
    }
}
