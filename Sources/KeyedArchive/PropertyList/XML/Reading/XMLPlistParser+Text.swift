import Foundation

/// The character data of an element: where it is in the input when it needed no decoding
/// (the usual case, no copy), else its decoded bytes.
enum XMLPlistText {
    case input(Range<Int>)
    case decoded([UInt8])
}

/// Character data of the general XML parser: text up to a closing tag, entities, CDATA.
extension XMLPlistParser {
    // MARK: Text

    /// The bytes of `text`, to `body` (which must not keep them).
    func withBytes<R>(of text: XMLPlistText, _ body: (XMLPlistBytes) throws -> R) rethrows -> R {
        switch text {
        case .input(let range): return try body(b.slice(range))
        case .decoded(let bytes): return try bytes.withUnsafeBytes { try body(XMLPlistBytes($0)) }
        }
    }

    /// Reads character data up to the closing tag of `tag`, decoding entities and CDATA
    /// sections and skipping comments. Returns where the text is in the input when no
    /// decoding was needed.
    mutating func readText(closing tag: XMLPlistTag) throws -> XMLPlistText {
        let start = i
        var buffer: [UInt8] = []
        var buffered = false
        var chunkStart = i
        while i < n {
            let c = b[i]
            if c == XMLByte.lt {
                if i + 1 < n && b[i + 1] == XMLByte.slash {
                    let end = i
                    try parseCloseTag(expecting: tag)
                    if buffered {
                        buffer.append(contentsOf: b.slice(chunkStart..<end).buffer)
                        return .decoded(buffer)
                    }
                    return .input(start..<end)
                }
                if !buffered {
                    buffered = true
                    buffer.reserveCapacity(i - start + 64)
                }
                buffer.append(contentsOf: b.slice(chunkStart..<i).buffer)
                if hasPrefix("<![CDATA[", at: i) {
                    let contentStart = i + 9
                    guard let end = find("]]>", from: contentStart) else {
                        throw fail("unterminated CDATA section", at: i)
                    }
                    buffer.append(contentsOf: b.slice(contentStart..<end).buffer)
                    i = end + 3
                } else if hasPrefix("<!--", at: i) {
                    try skipComment()
                } else {
                    throw fail("unexpected markup inside <\(tag.name)>", at: i)
                }
                chunkStart = i
            } else if c == XMLByte.amp {
                if !buffered {
                    buffered = true
                    buffer.reserveCapacity(i - start + 64)
                }
                buffer.append(contentsOf: b.slice(chunkStart..<i).buffer)
                try decodeEntity(into: &buffer)
                chunkStart = i
            } else {
                i += 1
            }
        }
        throw fail("unexpected end of input, <\(tag.name)> is not closed", at: start)
    }

    /// Decodes the entity reference at `i` (which must be `&`) and appends its UTF-8.
    mutating func decodeEntity(into buffer: inout [UInt8]) throws {
        let offset = i
        var k = i + 1
        // Entity names are short; a missing ';' within a few bytes is an error.
        let limit = min(n, i + 16)
        while k < limit && b[k] != XMLByte.semicolon { k += 1 }
        guard k < limit else { throw fail("malformed entity reference", at: offset) }
        let name = b.slice((i + 1)..<k)
        i = k + 1
        if let first = name.first, first == XMLByte.hash {
            var digits = name.dropFirst()
            var radix: UInt32 = 10
            if let x = digits.first, x == XMLByte.lowerX || x == XMLByte.upperX {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty else { throw fail("malformed character reference", at: offset) }
            var value: UInt32 = 0
            for d in digits {
                let digit: UInt32
                if radix == 16 {
                    guard let h = XMLByte.hexValue(d) else { throw fail("malformed character reference", at: offset) }
                    digit = UInt32(h)
                } else {
                    guard XMLByte.isDigit(d) else { throw fail("malformed character reference", at: offset) }
                    digit = UInt32(d &- XMLByte.zero)
                }
                let (m, o1) = value.multipliedReportingOverflow(by: radix)
                let (s, o2) = m.addingReportingOverflow(digit)
                guard !o1, !o2, s <= 0x10FFFF else {
                    throw fail("character reference out of range", at: offset)
                }
                value = s
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw fail("character reference to an invalid scalar", at: offset)
            }
            UTF8.encode(scalar) { buffer.append($0) }
            return
        }
        switch name.count {
        case 2 where name.elementsEqual("lt".utf8): buffer.append(XMLByte.lt)
        case 2 where name.elementsEqual("gt".utf8): buffer.append(XMLByte.gt)
        case 3 where name.elementsEqual("amp".utf8): buffer.append(XMLByte.amp)
        case 4 where name.elementsEqual("quot".utf8): buffer.append(XMLByte.quote)
        case 4 where name.elementsEqual("apos".utf8): buffer.append(XMLByte.apostrophe)
        default: throw fail("unknown entity '&\(text((offset + 1)..<(i - 1)));'", at: offset)
        }
    }

    mutating func readString(closing tag: XMLPlistTag) throws -> String {
        withBytes(of: try readText(closing: tag)) { $0.string }
    }

    /// Reads scalar content (`<integer>`, `<real>`, `<date>`): see ``scalar(_:_:_:_:)``.
    mutating func readScalarText(_ tag: StartTag, _ kind: XMLPlistTag) throws -> XMLPlistText {
        guard !tag.selfClosing else { throw fail("empty <\(kind.name)>", at: tag.offset) }
        return try readText(closing: kind)
    }

    /// Gives scalar content read by ``readScalarText(_:_:)``, trimmed, to `parse`.
    func scalar<R>(_ text: XMLPlistText, _ tag: StartTag, _ kind: XMLPlistTag, _ parse: (XMLPlistBytes) throws -> R) throws -> R {
        try withBytes(of: text) { content in
            let content = content.trimmingWhitespace()
            guard !content.isEmpty else { throw fail("empty <\(kind.name)>", at: tag.offset) }
            return try parse(content)
        }
    }
}
