import Foundation

/// What a blob of bytes is, judged by its first bytes: the one place the package tells a
/// property list from the other files people hand it by mistake, so that an error can say
/// "not a property list (it looks like a JPEG image)" instead of a parser's complaint.
///
/// The decoder, ``KeyedArchiveView``, ``ArchiveStore`` and the `keyedarchive` tool all
/// read their input through ``PropertyListInput/read(_:maxDepth:)``, which uses it.
package enum InputKind: Sendable, Hashable {
    case binaryPropertyList
    /// Text starting `<?xml`, `<plist` or `<!DOCTYPE plist` (after an optional UTF-8
    /// byte-order mark and white space).
    case xmlPropertyList
    /// Other text starting with `<` (a comment first, HTML…): the XML reader decides.
    case markup
    case json
    case utf16Text
    case jpeg
    case png
    case gif
    case pdf
    case zip
    case gzip
    case sqlite
    case empty
    /// Other UTF-8 text without control characters (a note, a log, a CSV file); its first
    /// characters, for the message.
    case text(start: String)
    /// None of the above; the first bytes, for the message.
    case unknown(firstBytes: [UInt8])

    /// The kind of `bytes`. Looks at no more than the first 64 bytes.
    package init(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(64))
        func starts(_ magic: [UInt8]) -> Bool { head.starts(with: magic) }
        func starts(_ magic: String) -> Bool { head.starts(with: Array(magic.utf8)) }
        if head.isEmpty { self = .empty; return }
        if starts("bplist") { self = .binaryPropertyList; return }
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg; return }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png; return }
        if starts("GIF87a") || starts("GIF89a") { self = .gif; return }
        if starts("%PDF-") { self = .pdf; return }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) { self = .zip; return }
        if starts([0x1F, 0x8B]) { self = .gzip; return }
        if starts("SQLite format 3\0") { self = .sqlite; return }
        if starts([0xFE, 0xFF]) || starts([0xFF, 0xFE]) { self = .utf16Text; return }
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let start = text.drop(while: isSpace)
        if start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<plist".utf8))
            || start.starts(with: Array("<!DOCTYPE plist".utf8)) {
            self = .xmlPropertyList
            return
        }
        switch start.first {
        case UInt8(ascii: "<")?: self = .markup
        case UInt8(ascii: "{")?, UInt8(ascii: "[")?: self = .json
        case nil: self = .markup  // white space only: the XML reader says no value was found
        default:
            if let start = Self.textStart(start, cutOff: bytes.count > head.count) { self = .text(start: start); return }
            self = .unknown(firstBytes: Array(head.prefix(8)))
        }
    }

    /// Characters of a text quoted in the message.
    static let textExcerptLength = 24

    /// The first characters of `head` when it reads as UTF-8 text without control
    /// characters other than tab, line feed and carriage return (when the input goes on
    /// past `head`, a multi-byte character cut off at its end is allowed); nil otherwise.
    private static func textStart(_ head: ArraySlice<UInt8>, cutOff: Bool) -> String? {
        for cut in 0...(cutOff ? min(3, head.count - 1) : 0) where head.suffix(cut).allSatisfy({ $0 >= 0x80 }) {
            guard let text = String(bytes: head.dropLast(cut), encoding: .utf8) else { continue }
            let isControl: (Unicode.Scalar) -> Bool = {
                ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || (0x7F...0x9F).contains($0.value)
            }
            if text.unicodeScalars.contains(where: isControl) { return nil }
            return String(text.prefix(textExcerptLength))
        }
        return nil
    }

    /// Whether it certainly starts as a property list does (binary, or XML with a plist
    /// prolog): what the store lists as its own and what `--expand-nested` opens.
    package var isPropertyList: Bool {
        switch self {
        case .binaryPropertyList, .xmlPropertyList: return true
        default: return false
        }
    }

    /// What it looks like, for "not a property list (it looks like …)".
    package var description: String {
        switch self {
        case .binaryPropertyList: return "a binary property list"
        case .xmlPropertyList: return "an XML property list"
        case .markup: return "XML or HTML markup"
        case .json: return "JSON"
        case .utf16Text: return "UTF-16 text; XML property lists are read in UTF-8 only"
        case .jpeg: return "a JPEG image"
        case .png: return "a PNG image"
        case .gif: return "a GIF image"
        case .pdf: return "a PDF document"
        case .zip: return "a ZIP archive"
        case .gzip: return "gzip-compressed data"
        case .sqlite: return "an SQLite database"
        case .empty: return "empty"
        case .text: return "text"
        case .unknown: return "unknown data"
        }
    }

    /// The reason a reader gives for input that is not a property list.
    package var notAPropertyListReason: String {
        switch self {
        case .empty: return "not a property list (the data is empty)"
        case .text(let start):
            return "not a property list (it looks like text, starting \(ArchiveText.quoted(start)))"
        case .unknown(let bytes):
            let hex = bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
            return "not a property list (it starts with neither 'bplist' nor '<' and is not text, but with \(hex))"
        default: return "not a property list (it looks like \(description))"
        }
    }
}

/// Reading input that should be a property list: sniffed first, then parsed by the
/// reader of its format, in place (the caller's bytes are not copied).
package enum PropertyListInput {
    /// Calls `body` with `data` as a binary property list (XML is converted), or throws a
    /// ``PropertyListError`` that says what the data looks like when it is not a property
    /// list at all. The property list borrows `data`'s bytes: it must not outlive `body`.
    ///
    /// A key repeated in one dictionary counts once: its first occurrence in a binary
    /// property list and its last in an XML one, as CoreFoundation reads them (see
    /// ``BinaryPropertyList/resolvingDuplicateKeys(keepingFirst:_:)``).
    package static func read<R>(_ data: Data, maxDepth: Int, _ body: (BinaryPropertyList) throws -> R) throws -> R {
        try data.withUnsafeBytes { try read($0, maxDepth: maxDepth, body) }
    }

    /// The same over bytes the caller keeps valid during the call
    /// (a memory-mapped file's, say).
    ///
    /// With `checkingKeysAsRead`, a binary property list's dictionaries are checked for
    /// repeated keys as `body` first parses each one (``DuplicateKeyLazyCheck``), instead of
    /// all of them before `body` runs: for a reader that visits what it needs once (the
    /// decoder). When a dictionary may repeat a key, `body` is run again over the property
    /// list with repeated keys resolved, whatever the first run returned or threw; so `body`
    /// sees the same entries either way.
    package static func read<R>(_ bytes: UnsafeRawBufferPointer, maxDepth: Int, checkingKeysAsRead: Bool = false,
                                _ body: (BinaryPropertyList) throws -> R) throws -> R {
        switch InputKind(sniffing: bytes) {
        case .binaryPropertyList:
            if checkingKeysAsRead {
                var plist = try BinaryPropertyList(borrowing: bytes)
                let check = DuplicateKeyLazyCheck(objectCount: plist.objectCount, byteCount: bytes.count)
                plist.lazyKeyCheck = Unmanaged.passUnretained(check)
                do {
                    let result = try withExtendedLifetime(check) { try body(plist) }
                    if !check.suspected { return result }
                } catch where !check.suspected {
                    throw error
                } catch {
                    // A dictionary may repeat a key: what this run threw is not the answer.
                }
            }
            return try BinaryPropertyList(borrowing: bytes).resolvingDuplicateKeys(keepingFirst: true, body)
        // Straight into a binary property list, with no tree in between.
        case .xmlPropertyList, .markup:
            let converted = try XMLPropertyListReader.readBinaryProvingKeys(bytes, maxDepth: maxDepth)
            return try converted.binary.withUnsafeBytes { raw in
                let plist = try BinaryPropertyList(borrowing: raw)
                // Proved as it was read: what the check would find (nothing to resolve).
                if converted.keysDistinct { return try body(plist) }
                return try plist.resolvingDuplicateKeys(keepingFirst: false, body)
            }
        case let kind: throw PropertyListError(notAPropertyList: kind)
        }
    }

}
