import Foundation

/// Reads Apple's XML property-list format into a ``PropertyListValue``.
///
/// This is a small purpose-built XML parser, not a general one: it understands exactly
/// the markup that property lists use (prolog, comments, processing instructions,
/// `DOCTYPE`, elements with ignored attributes, text with entities and CDATA) and
/// rejects everything else with a ``PropertyListError`` that names the line.
///
/// Design notes:
/// - It works on the raw bytes with an index. Text is sliced out of the input and
///   decoded once; only text that contains entities or CDATA is copied into a buffer.
/// - Nesting is handled with an explicit stack, so hostile input can never overflow the
///   call stack; `maxDepth` bounds the number of open `<dict>`/`<array>` elements.
/// - The whole input is validated as UTF-8 up front. Because every piece of markup is
///   ASCII, any slice between markup is then valid UTF-8 as well, so strings can be
///   built with `String(decoding:as:)` without a second check.
/// - Line numbers are only computed when an error is thrown (by counting newlines up to
///   the failing offset), which keeps the happy path free of bookkeeping.
/// - Surrounding whitespace is tolerated in `<integer>`, `<real>` and `<date>` (hand
///   edited files often have it); the content itself is checked strictly.
enum XMLPropertyListReader {
    /// Whether the binary property list made by ``readBinary(_:maxDepth:)`` stores equal
    /// numbers once: no, on both of its paths (it is read once, by a decoder, and thrown away).
    static let uniquesNumbers = false

    /// Parses an XML property list.
    ///
    /// - Parameters:
    ///   - bytes: The document, UTF-8 (an optional byte-order mark is skipped).
    ///   - maxDepth: The maximum number of nested `<dict>`/`<array>` elements (empty
    ///     forms included). Parsing itself never recurses, but code that later walks the
    ///     value recursively (including its deallocation) does, so keep this modest.
    /// - Returns: The root value.
    /// - Throws: ``PropertyListError`` describing the first problem and its line.
    static func read(_ bytes: [UInt8], maxDepth: Int = 512) throws -> PropertyListValue {
        try bytes.withUnsafeBytes { bytes in
            var parser = XMLPlistParser(bytes: XMLPlistBytes(bytes), maxDepth: maxDepth, sink: XMLPlistTreeSink())
            return try parser.parseDocument()
        }
    }

    /// Parses an XML property list straight into a binary property list (`bplist00`), as
    /// `BinaryPropertyListWriter.write(read(bytes), uniquingNumbers: uniquesNumbers)` would
    /// write it, byte for byte, but with no tree in between: each value is added to the binary
    /// builder as it is read.
    /// Documents in the usual shape take ``XMLPlistFastReader``; the rest (and every error)
    /// the general parser.
    ///
    /// The document is read in place (the caller's bytes, a mapped file's included), never
    /// copied, and every read is checked against its end (``XMLPlistBytes``).
    static func readBinary(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 512) throws -> [UInt8] {
        try readBinaryProvingKeys(bytes, maxDepth: maxDepth).binary
    }

    /// ``readBinary(_:maxDepth:)-(UnsafeRawBufferPointer,_)``, and whether no dictionary lists
    /// a key twice, proved as it was read (by the fast path only; false means "not proved"):
    /// then the binary property list needs no check for repeated keys.
    static func readBinaryProvingKeys(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 512) throws
        -> (binary: [UInt8], keysDistinct: Bool) {
        let input = XMLPlistBytes(bytes)
        if let read = XMLPlistFastReader.readProvingKeys(input, maxDepth: maxDepth) { return read }
        var parser = XMLPlistParser(bytes: input, maxDepth: maxDepth, sink: XMLPlistBinarySink())
        let top = try parser.parseDocument()
        return (parser.sink.builder.finish(top: top), false)
    }

    /// ``readBinary(_:maxDepth:)-(UnsafeRawBufferPointer,_)`` of an array's bytes.
    static func readBinary(_ bytes: [UInt8], maxDepth: Int = 512) throws -> [UInt8] {
        try bytes.withUnsafeBytes { try readBinary($0, maxDepth: maxDepth) }
    }
}

/// What the parser builds from the values it reads, in document order (a dictionary's
/// key before its value, children before their container).
protocol XMLPlistSink {
    associatedtype Value
    associatedtype Key
    mutating func key(_ text: String) -> Key
    mutating func string(_ text: String) -> Value
    mutating func integer(_ value: XMLPlistInteger) -> Value
    mutating func real(_ value: Double) -> Value
    mutating func bool(_ value: Bool) -> Value
    mutating func date(_ secondsSince2001: Double) -> Value
    mutating func data(_ value: Data) -> Value
    mutating func uid(_ value: UInt64) -> Value
    mutating func array(_ items: [Value]) -> Value
    mutating func dictionary(keys: [Key], values: [Value]) -> Value
}

/// Builds a ``PropertyListValue`` tree.
struct XMLPlistTreeSink: XMLPlistSink {
    func key(_ text: String) -> String { text }
    func string(_ text: String) -> PropertyListValue { .string(text) }
    func integer(_ value: XMLPlistInteger) -> PropertyListValue {
        switch value {
        case .signed(let v): return .integer(v)
        case .unsigned(let v): return .unsignedInteger(v)
        case .wide(let v): return .wideInteger(v)
        }
    }
    func real(_ value: Double) -> PropertyListValue { .real(value) }
    func bool(_ value: Bool) -> PropertyListValue { .bool(value) }
    func date(_ secondsSince2001: Double) -> PropertyListValue { .date(secondsSince2001) }
    func data(_ value: Data) -> PropertyListValue { .data(value) }
    func uid(_ value: UInt64) -> PropertyListValue { .uid(value) }
    func array(_ items: [PropertyListValue]) -> PropertyListValue { .array(items) }
    func dictionary(keys: [String], values: [PropertyListValue]) -> PropertyListValue {
        var entries = [PropertyListEntry]()
        entries.reserveCapacity(keys.count)
        for (key, value) in zip(keys, values) { entries.append(PropertyListEntry(key: key, value: value)) }
        return .dictionary(entries)
    }
}

/// Adds every value to a binary property list as it is read: values are object references.
struct XMLPlistBinarySink: XMLPlistSink {
    var builder = BinaryPropertyListBuilder(uniquingNumbers: XMLPropertyListReader.uniquesNumbers)
    mutating func key(_ text: String) -> Int { builder.string(text) }
    mutating func string(_ text: String) -> Int { builder.string(text) }
    mutating func integer(_ value: XMLPlistInteger) -> Int {
        switch value {
        case .signed(let v): return builder.integer(v)
        case .unsigned(let v): return builder.unsignedInteger(v)
        case .wide(let v): return builder.wideInteger(v)
        }
    }
    mutating func real(_ value: Double) -> Int { builder.real(value) }
    mutating func bool(_ value: Bool) -> Int { builder.bool(value) }
    mutating func date(_ secondsSince2001: Double) -> Int { builder.date(secondsSince2001) }
    mutating func data(_ value: Data) -> Int { builder.data(value) }
    mutating func uid(_ value: UInt64) -> Int { builder.uid(value) }
    mutating func array(_ items: [Int]) -> Int { builder.array(items) }
    mutating func dictionary(keys: [Int], values: [Int]) -> Int { builder.dictionary(keys: keys, values: values) }
}

/// One open container on the explicit parse stack.
struct Frame<Value, Key> {
    var isDictionary: Bool
    /// Array items, or dictionary values.
    var items: [Value] = []
    /// Dictionary keys.
    var keys: [Key] = []
    /// The key read for the next dictionary value, if any.
    var pendingKey: Key?
    /// Offset of the key (for "key without value" errors).
    var pendingKeyOffset: Int = 0
    /// The dictionary's first key is `CF$UID` and has not been given to the sink yet:
    /// if the dictionary turns out to be `{CF$UID: integer}` it is a UID, not a dictionary.
    var heldUIDKey = false
    /// The integer held under that key (given to the sink only if the dictionary goes on).
    var heldUID: XMLPlistInteger?
    /// Offset of the opening tag (for "not closed" errors).
    var offset: Int

    init(isDictionary: Bool, offset: Int) {
        self.isDictionary = isDictionary
        self.offset = offset
    }

    /// Whether a key has been read and waits for its value.
    var hasPendingKey: Bool { pendingKey != nil || (heldUIDKey && heldUID == nil) }
}

// MARK: - Parser

struct XMLPlistParser<Sink: XMLPlistSink> {
    /// The input, read in place; every read is checked (``XMLPlistBytes``).
    let b: XMLPlistBytes
    let n: Int
    var i: Int = 0
    let maxDepth: Int
    var sink: Sink
    /// Set by `nextTagInContainer` when the root container closes.
    var rootValue: Sink.Value?

    init(bytes: XMLPlistBytes, maxDepth: Int, sink: Sink) {
        self.b = bytes
        self.n = bytes.count
        self.maxDepth = maxDepth
        self.sink = sink
    }

    // MARK: Errors

    /// The 1-based line of `offset` (LF, CRLF and lone CR each end a line).
    func line(at offset: Int) -> Int {
        var line = 1
        var k = 0
        let end = min(max(offset, 0), n)
        while k < end {
            let c = b[k]
            if c == XMLByte.lf {
                line &+= 1
            } else if c == XMLByte.cr && (k + 1 >= n || b[k + 1] != XMLByte.lf) {
                line &+= 1
            }
            k += 1
        }
        return line
    }

    func fail(_ message: String, at offset: Int) -> PropertyListError {
        PropertyListError("\(message) at line \(line(at: offset))")
    }

    func text(_ range: Range<Int>) -> String {
        b.slice(range).string
    }

    func hasPrefix(_ prefix: StaticString, at offset: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard offset >= 0, count <= n - offset else { return false }
        return prefix.withUTF8Buffer { p in
            var k = 0
            while k < count {
                if b[offset + k] != p[k] { return false }
                k += 1
            }
            return true
        }
    }

    /// Index of the first occurrence of `terminator` at or after `from`, or `nil`.
    func find(_ terminator: StaticString, from: Int) -> Int? {
        let count = terminator.utf8CodeUnitCount
        guard count > 0 else { return from }
        return terminator.withUTF8Buffer { p -> Int? in
            let first = p[0]
            var k = from
            while k <= n - count {
                if b[k] == first {
                    var m = 1
                    while m < count && b[k + m] == p[m] { m += 1 }
                    if m == count { return k }
                }
                k += 1
            }
            return nil
        }
    }

    // MARK: UTF-8

    /// Checks that the whole input is well-formed UTF-8 (``XMLPlistBytes/utf8Problem(in:)``).
    func validateUTF8() throws {
        if let problem = b.utf8Problem(in: 0..<n) { throw fail(problem.message, at: problem.offset) }
    }

    // MARK: Document

    mutating func parseDocument() throws -> Sink.Value {
        try validateUTF8()
        // Skip a UTF-8 byte-order mark.
        if n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3 }
        try skipMisc(allowDoctype: true)
        guard i < n else { throw fail("no property-list value found", at: i) }
        guard b[i] == XMLByte.lt else { throw fail("unexpected text before the root element", at: i) }
        let first = try parseStartTag()
        let value: Sink.Value
        if first.tag == .plist {
            guard !first.selfClosing else { throw fail("empty <plist> element", at: first.offset) }
            try skipMisc(allowDoctype: false)
            guard i < n else { throw fail("unexpected end of input, <plist> is not closed", at: i) }
            guard b[i] == XMLByte.lt else { throw fail("unexpected text inside <plist>", at: i) }
            if i + 1 < n && b[i + 1] == XMLByte.slash {
                throw fail("empty <plist> element", at: i)
            }
            let inner = try parseStartTag()
            value = try parseValue(startingWith: inner)
            try skipMisc(allowDoctype: false)
            guard i < n else { throw fail("unexpected end of input, <plist> is not closed", at: i) }
            guard b[i] == XMLByte.lt, i + 1 < n, b[i + 1] == XMLByte.slash else {
                throw fail("more than one value inside <plist>", at: i)
            }
            try parseCloseTag(expecting: .plist)
        } else {
            value = try parseValue(startingWith: first)
        }
        try skipMisc(allowDoctype: false)
        guard i >= n else { throw fail("unexpected content after the root value", at: i) }
        return value
    }

    /// Skips whitespace, comments and processing instructions (and a `DOCTYPE` when
    /// allowed). Stops at the first other byte.
    mutating func skipMisc(allowDoctype: Bool) throws {
        while i < n {
            let c = b[i]
            if XMLByte.isWhitespace(c) { i += 1; continue }
            guard c == XMLByte.lt, i + 1 < n else { return }
            let next = b[i + 1]
            if next == XMLByte.question {
                try skipProcessingInstruction()
            } else if next == XMLByte.bang {
                if hasPrefix("<!--", at: i) {
                    try skipComment()
                } else if allowDoctype && hasPrefix("<!DOCTYPE", at: i) {
                    try skipDoctype()
                } else {
                    throw fail("unexpected markup '<!'", at: i)
                }
            } else {
                return
            }
        }
    }

    mutating func skipComment() throws {
        let start = i
        guard let end = find("-->", from: i + 4) else { throw fail("unterminated comment", at: start) }
        i = end + 3
    }

    mutating func skipProcessingInstruction() throws {
        let start = i
        guard let end = find("?>", from: i + 2) else {
            throw fail("unterminated processing instruction", at: start)
        }
        i = end + 2
    }

    /// Skips `<!DOCTYPE ...>`, including quoted strings and an internal subset `[...]`.
    mutating func skipDoctype() throws {
        let start = i
        i += 9
        var bracketDepth = 0
        while i < n {
            let c = b[i]
            if c == XMLByte.quote || c == XMLByte.apostrophe {
                var k = i + 1
                while k < n && b[k] != c { k += 1 }
                guard k < n else { throw fail("unterminated string in DOCTYPE", at: i) }
                i = k + 1
                continue
            }
            if c == XMLByte.openBracket {
                bracketDepth += 1
            } else if c == XMLByte.closeBracket {
                bracketDepth -= 1
            } else if c == XMLByte.gt && bracketDepth <= 0 {
                i += 1
                return
            }
            i += 1
        }
        throw fail("unterminated DOCTYPE", at: start)
    }

    // MARK: Tags

    /// Parses `<name attr="v" ...>` or `<name .../>` at `i` (which must be `<`).
    mutating func parseStartTag() throws -> StartTag {
        let offset = i
        i += 1
        let nameStart = i
        while i < n && XMLByte.isNameByte(b[i]) { i += 1 }
        let nameRange = nameStart..<i
        guard !nameRange.isEmpty else { throw fail("malformed tag", at: offset) }
        // Attributes are accepted and ignored (`<plist version="1.0">`).
        while true {
            let beforeSpace = i
            while i < n && XMLByte.isWhitespace(b[i]) { i += 1 }
            guard i < n else { throw fail("unterminated tag <\(text(nameRange))>", at: offset) }
            let c = b[i]
            if c == XMLByte.gt {
                i += 1
                return StartTag(tag: Self.tag(for: nameRange, in: b), nameRange: nameRange, selfClosing: false, offset: offset)
            }
            if c == XMLByte.slash {
                guard i + 1 < n, b[i + 1] == XMLByte.gt else {
                    throw fail("malformed tag <\(text(nameRange))>", at: offset)
                }
                i += 2
                return StartTag(tag: Self.tag(for: nameRange, in: b), nameRange: nameRange, selfClosing: true, offset: offset)
            }
            // An attribute must be separated from what precedes it by whitespace.
            guard i > beforeSpace, XMLByte.isNameByte(c) else {
                throw fail("malformed tag <\(text(nameRange))>", at: offset)
            }
            while i < n && XMLByte.isNameByte(b[i]) { i += 1 }
            while i < n && XMLByte.isWhitespace(b[i]) { i += 1 }
            guard i < n, b[i] == XMLByte.equals else { throw fail("malformed attribute in <\(text(nameRange))>", at: offset) }
            i += 1
            while i < n && XMLByte.isWhitespace(b[i]) { i += 1 }
            guard i < n, b[i] == XMLByte.quote || b[i] == XMLByte.apostrophe else {
                throw fail("malformed attribute in <\(text(nameRange))>", at: offset)
            }
            let q = b[i]
            i += 1
            while i < n && b[i] != q {
                if b[i] == XMLByte.lt { throw fail("'<' in attribute value of <\(text(nameRange))>", at: offset) }
                i += 1
            }
            guard i < n else { throw fail("unterminated attribute in <\(text(nameRange))>", at: offset) }
            i += 1
        }
    }

    /// Parses `</name>` at `i` (which must be `</`) and checks it closes `expected`.
    mutating func parseCloseTag(expecting expected: XMLPlistTag) throws {
        let offset = i
        i += 2
        let nameStart = i
        while i < n && XMLByte.isNameByte(b[i]) { i += 1 }
        let nameRange = nameStart..<i
        guard !nameRange.isEmpty else { throw fail("malformed closing tag", at: offset) }
        while i < n && XMLByte.isWhitespace(b[i]) { i += 1 }
        guard i < n, b[i] == XMLByte.gt else { throw fail("malformed closing tag </\(text(nameRange))>", at: offset) }
        i += 1
        guard Self.tag(for: nameRange, in: b) == expected else {
            throw fail("mismatched closing tag </\(text(nameRange))>, expected </\(expected.name)>", at: offset)
        }
    }

    static func tag(for range: Range<Int>, in b: XMLPlistBytes) -> XMLPlistTag? {
        // The candidate by length and a distinguishing byte, then compared in place.
        guard let first = range.first else { return nil }
        let candidate: XMLPlistTag
        switch range.count {
        case 3: candidate = .key
        case 4:
            switch b[first] {
            case UInt8(ascii: "d"):
                // dict, date, data: the second and last bytes tell them apart.
                if b[first + 1] == UInt8(ascii: "i") {
                    candidate = .dict
                } else {
                    candidate = b[first + 3] == UInt8(ascii: "e") ? .date : .data
                }
            case UInt8(ascii: "r"): candidate = .real
            case UInt8(ascii: "t"): candidate = .true
            default: return nil
            }
        case 5:
            switch b[first] {
            case UInt8(ascii: "a"): candidate = .array
            case UInt8(ascii: "p"): candidate = .plist
            case UInt8(ascii: "f"): candidate = .false
            default: return nil
            }
        case 6: candidate = .string
        case 7: candidate = .integer
        default: return nil
        }
        let name = XMLPlistTag.nameBytes[candidate.rawIndex]
        // `name.count == range.count` by construction of the cases above.
        guard name.count == range.count else { return nil }
        var k = 0
        while k < name.count {
            if b[first + k] != name[k] { return nil }
            k += 1
        }
        return candidate
    }

    // MARK: Values

    /// Parses one value whose start tag has been read, iteratively.
    mutating func parseValue(startingWith first: StartTag) throws -> Sink.Value {
        var stack: [Frame<Sink.Value, Sink.Key>] = []
        var tag = first
        while true {
            // 1. Handle the start tag `tag`: either a dictionary key, a new container, or a
            //    complete scalar value.
            var value: Sink.Value?
            // Frames are read in place (`stack[k].field`), never copied out: a copy would
            // retain its arrays.
            if !stack.isEmpty, stack[stack.count - 1].isDictionary, !stack[stack.count - 1].hasPendingKey {
                guard tag.tag == .key else {
                    throw fail("expected <key> in dictionary, found <\(text(tag.nameRange))>", at: tag.offset)
                }
                let key = try tag.selfClosing ? "" : readString(closing: .key)
                let last = stack.count - 1
                flushHeldUID(&stack[last])
                if stack[last].keys.isEmpty && key == "CF$UID" {
                    // Maybe a UID: the key goes to the sink only if the dictionary is more.
                    stack[last].heldUIDKey = true
                } else {
                    stack[last].pendingKey = sink.key(key)
                }
                stack[last].pendingKeyOffset = tag.offset
            } else {
                guard let kind = tag.tag else {
                    throw fail("unknown tag <\(text(tag.nameRange))>", at: tag.offset)
                }
                // Two keys in a row: the first one is missing its value. Foundation would
                // take the second key as the value; we reject it as a likely mistake.
                // Elsewhere (root, arrays) a `<key>` is read as a string, like Foundation.
                if kind == .key, !stack.isEmpty, stack[stack.count - 1].isDictionary {
                    throw fail("dictionary key without a value", at: stack[stack.count - 1].pendingKeyOffset)
                }
                let last = stack.count - 1
                var held = false
                if last >= 0, stack[last].heldUIDKey, stack[last].heldUID == nil {
                    // The value of a first `CF$UID` key: an integer is held back (the
                    // dictionary may be a UID); anything else releases the key first.
                    if kind == .integer, !tag.selfClosing {
                        let integer = try readInteger(tag)
                        if case .signed(let n) = integer, n >= 0, n <= Int64(UInt32.max) {
                            stack[last].heldUID = integer
                            held = true
                        } else {
                            stack[last].heldUIDKey = false
                            stack[last].pendingKey = sink.key("CF$UID")
                            value = sink.integer(integer)
                        }
                    } else {
                        stack[last].heldUIDKey = false
                        stack[last].pendingKey = sink.key("CF$UID")
                    }
                }
                if value == nil && !held {
                    switch kind {
                    case .dict, .array:
                        // Empty forms count too, so the limit means the same for `<array/>`
                        // and `<array></array>`.
                        guard stack.count < maxDepth else {
                            throw fail("nesting deeper than \(maxDepth) levels", at: tag.offset)
                        }
                        if tag.selfClosing {
                            value = kind == .dict ? sink.dictionary(keys: [], values: []) : sink.array([])
                        } else {
                            stack.append(Frame(isDictionary: kind == .dict, offset: tag.offset))
                        }
                    case .string, .key:
                        value = sink.string(try tag.selfClosing ? "" : readString(closing: kind))
                    case .integer:
                        value = sink.integer(try readInteger(tag))
                    case .real:
                        value = sink.real(try readReal(tag))
                    case .date:
                        value = sink.date(try readDate(tag))
                    case .data:
                        value = sink.data(try tag.selfClosing ? Data() : readData())
                    case .true, .false:
                        if !tag.selfClosing {
                            let content = try readText(closing: kind)
                            guard withBytes(of: content, { $0.allSatisfy(XMLByte.isWhitespace) }) else {
                                throw fail("<\(kind.name)> must be empty", at: tag.offset)
                            }
                        }
                        value = sink.bool(kind == .true)
                    case .plist:
                        throw fail("unexpected nested <plist>", at: tag.offset)
                    }
                }
            }

            // 2. Attach a finished value to its parent, closing containers as their end
            //    tags come, until the next start tag (or the root is complete).
            if let finished = value {
                guard !stack.isEmpty else { return finished }
                try attach(finished, to: &stack)
            }
            tag = try nextTagInContainer(&stack)
            if stack.isEmpty, let root = rootValue {
                return root
            }
        }
    }

    /// Adds a finished value to the innermost open container.
    @inline(__always)
    mutating func attach(_ finished: Sink.Value, to stack: inout [Frame<Sink.Value, Sink.Key>]) throws {
        let last = stack.count - 1
        if stack[last].isDictionary {
            // The key position check guarantees a pending key here.
            guard let key = stack[last].pendingKey else {
                throw fail("internal error: dictionary value without a key", at: i)
            }
            stack[last].keys.append(key)
            stack[last].items.append(finished)
            stack[last].pendingKey = nil
        } else {
            stack[last].items.append(finished)
        }
    }

    /// Gives a held `CF$UID` entry to the sink, once its dictionary turns out to have more.
    @inline(__always)
    mutating func flushHeldUID(_ frame: inout Frame<Sink.Value, Sink.Key>) {
        guard frame.heldUIDKey, let held = frame.heldUID else { return }
        frame.keys.append(sink.key("CF$UID"))
        frame.items.append(sink.integer(held))
        frame.heldUIDKey = false
        frame.heldUID = nil
    }

    /// Skips to the next start tag inside the open containers, closing those whose end
    /// tags come first (their values attached to their parents). When the outermost one
    /// closes, its value is left in `rootValue` and the returned tag is a placeholder.
    mutating func nextTagInContainer(_ stack: inout [Frame<Sink.Value, Sink.Key>]) throws -> StartTag {
        while true {
            let top = stack.count - 1
            guard top >= 0 else {
                throw fail("internal error: empty parse stack", at: i)
            }
            try skipMisc(allowDoctype: false)
            let isDictionary = stack[top].isDictionary
            let containerName = isDictionary ? "dict" : "array"
            guard i < n else {
                throw fail("unexpected end of input, <\(containerName)> opened here is not closed", at: stack[top].offset)
            }
            guard b[i] == XMLByte.lt else {
                throw fail("unexpected text inside <\(containerName)>", at: i)
            }
            guard i + 1 < n && b[i + 1] == XMLByte.slash else {
                return try parseStartTag()
            }
            if isDictionary && stack[top].hasPendingKey {
                throw fail("dictionary key without a value", at: stack[top].pendingKeyOffset)
            }
            try parseCloseTag(expecting: isDictionary ? .dict : .array)
            guard var frame = stack.popLast() else {
                throw fail("internal error: empty parse stack", at: i)
            }
            let closed: Sink.Value
            if frame.isDictionary, frame.keys.isEmpty, frame.heldUIDKey, case .signed(let n)? = frame.heldUID {
                // `{CF$UID: n}` with n in 0...UInt32.max is how XML spells a keyed-archive UID.
                closed = sink.uid(UInt64(n))
            } else {
                flushHeldUID(&frame)
                closed = frame.isDictionary ? sink.dictionary(keys: frame.keys, values: frame.items) : sink.array(frame.items)
            }
            if stack.isEmpty {
                rootValue = closed
                return StartTag(tag: nil, nameRange: i..<i, selfClosing: true, offset: i)
            }
            try attach(closed, to: &stack)
        }
    }
}
