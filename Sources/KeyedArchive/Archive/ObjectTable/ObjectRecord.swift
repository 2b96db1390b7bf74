import Foundation

/// The byte form of an archived object's fields, elements or entries, as the object table
/// stores it (see `ArchiveObjectTable+Records.swift`): a few bytes per field instead of an
/// enum of inline values, so the table stays smaller than the file it becomes.
///
/// A record is `[class UID: LEB128][count: LEB128][body]`:
/// - `.fields`: `count` fields, each `[key id << 3 | tag: LEB128][payload]`;
/// - `.array`: `count` UIDs, 4 bytes LE each;
/// - `.dictionary`: `count` key UIDs, then `count` value UIDs, 4 bytes LE each.
///
/// UIDs take a fixed 4 bytes so that a placeholder (`superEncoder(forKey:)`) can be filled
/// in place.
enum ObjectRecord {
    /// Field tags (low 3 bits of a field's first LEB128).
    enum Tag: UInt8 {
        /// A UID, 4 bytes LE.
        case uid = 0
        /// A non-negative integer, LEB128.
        case integer = 1
        /// A negative integer `v`, stored as `~v` in LEB128.
        case negative = 2
        /// A `Double`'s bits, 8 bytes LE.
        case real = 3
        /// A `Float`'s bits, 4 bytes LE.
        case float = 4
        case `false` = 5
        case `true` = 6
        /// `[length: LEB128][bytes]`.
        case data = 7
    }

    // MARK: Writing

    @inline(__always)
    static func appendVarint<Bytes: RecordByteSink>(_ value: UInt64, to bytes: inout Bytes) {
        forEachVarintByte(value) { bytes.append($0) }
    }

    /// The bytes of `value` in LEB128 (``varintSize(_:)`` of them), in order.
    @inline(__always)
    static func forEachVarintByte(_ value: UInt64, _ body: (UInt8) -> Void) {
        var rest = value
        while rest >= 0x80 {
            body(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        body(UInt8(rest))
    }

    /// Bytes of `value` in LEB128.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 6) / 7)
    }

    /// Appends one field; returns the offset of its UID payload (for a later fill-in).
    @inline(__always)
    @discardableResult
    static func appendField<Bytes: RecordByteSink>(key: Int32, _ value: ObjectBox.Value, to bytes: inout Bytes) -> Int {
        let head = Self.head(key)
        switch value {
        case .uid(let u):
            appendVarint(head | UInt64(Tag.uid.rawValue), to: &bytes)
            let offset = bytes.count
            bytes.appendLE32(UInt32(bitPattern: u))
            return offset
        case .integer(let i):
            if i >= 0 {
                appendVarint(head | UInt64(Tag.integer.rawValue), to: &bytes)
                appendVarint(UInt64(i), to: &bytes)
            } else {
                appendVarint(head | UInt64(Tag.negative.rawValue), to: &bytes)
                appendVarint(UInt64(~i), to: &bytes)
            }
        case .real(let d):
            appendVarint(head | UInt64(Tag.real.rawValue), to: &bytes)
            bytes.appendLE64(d.bitPattern)
        case .float(let f):
            appendVarint(head | UInt64(Tag.float.rawValue), to: &bytes)
            bytes.appendLE32(f.bitPattern)
        case .bool(let b):
            appendVarint(head | UInt64((b ? Tag.true : Tag.false).rawValue), to: &bytes)
        case .data(let d):
            appendDataField(key: key, d, to: &bytes)
        }
        return -1
    }

    /// A field's key id, shifted past its tag.
    @inline(__always)
    private static func head(_ key: Int32) -> UInt64 { UInt64(UInt32(bitPattern: key)) << 3 }

    /// Appends a data field.
    @inline(__always)
    static func appendDataField<C: Collection<UInt8>, Bytes: RecordByteSink>(key: Int32, _ data: C, to bytes: inout Bytes) {
        appendVarint(head(key) | UInt64(Tag.data.rawValue), to: &bytes)
        appendVarint(UInt64(data.count), to: &bytes)
        bytes.appendBytes(data)
    }

    // MARK: Reading

    /// A field as stored: scalars decoded, data as a range of the record's bytes.
    enum StoredValue {
        case uid(Int32)
        case integer(Int64)
        case real(UInt64)
        case float(UInt32)
        case bool(Bool)
        case data(Range<Int>)
    }

    /// Reads a record's bytes front to back. The bytes are the table's own (never input):
    /// every read stays inside what the matching `append…` wrote, and the array's bounds
    /// checks stand behind that.
    struct Cursor {
        let bytes: [UInt8]
        var position: Int
        /// Which chunk of the table's records `bytes` is (see ``ChunkedBytes``).
        let chunk: Int

        init(_ bytes: [UInt8], at position: Int, chunk: Int = 0) {
            self.bytes = bytes
            self.position = position
            self.chunk = chunk
        }

        @inline(__always)
        mutating func byte() -> UInt8 {
            let b = bytes[position]
            position += 1
            return b
        }

        @inline(__always)
        mutating func varint() -> UInt64 {
            // Most are one byte (field heads, small counts and integers).
            let first = byte()
            if first < 0x80 { return UInt64(first) }
            var value = UInt64(first & 0x7F)
            var shift: UInt64 = 7
            while true {
                let b = byte()
                // At most 10 bytes, as `appendVarint` wrote them: `shift` stays below 64.
                value |= UInt64(b & 0x7F) &<< shift
                if b < 0x80 { return value }
                shift &+= 7
            }
        }

        /// One range check for the four bytes, then one load.
        @inline(__always)
        mutating func le32() -> UInt32 {
            guard position >= 0, position &+ 4 <= bytes.count else { return le32ByBytes() }
            let at = position
            position = at &+ 4
            return UInt32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) })
        }

        /// ``le32()`` a byte at a time (the array's checks then stop a read past the record).
        @inline(never)
        mutating func le32ByBytes() -> UInt32 {
            let value = UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8
                | UInt32(bytes[position + 2]) << 16 | UInt32(bytes[position + 3]) << 24
            position += 4
            return value
        }

        /// As ``le32()``.
        @inline(__always)
        mutating func le64() -> UInt64 {
            guard position >= 0, position &+ 8 <= bytes.count else {
                let low = UInt64(le32ByBytes())
                return low | UInt64(le32ByBytes()) << 32
            }
            let at = position
            position = at &+ 8
            return UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt64.self) })
        }

        /// The class UID at the start of a record.
        @inline(__always)
        mutating func classUID() -> Int32 { Int32(truncatingIfNeeded: varint()) }

        /// A UID of an array or dictionary body.
        @inline(__always)
        mutating func uid() -> Int32 { Int32(bitPattern: le32()) }

        /// `[length][bytes]` (data objects and data fields): the bytes' range.
        @inline(__always)
        mutating func dataRange() -> Range<Int> {
            let count = Int(varint())
            let start = position
            position += count
            return start..<position
        }

        /// The next field of a `.fields` record.
        @inline(__always)
        mutating func field() -> (key: Int32, value: StoredValue) {
            let head = varint()
            let key = Int32(truncatingIfNeeded: head >> 3)
            // On the tag's raw value: through `Tag(rawValue:)` the compiler sometimes left
            // a call to that initializer in the binary writer's loop over fields.
            switch UInt8(truncatingIfNeeded: head & 7) {
            case Tag.integer.rawValue: return (key, .integer(Int64(bitPattern: varint())))
            case Tag.negative.rawValue: return (key, .integer(~Int64(bitPattern: varint())))
            case Tag.real.rawValue: return (key, .real(le64()))
            case Tag.float.rawValue: return (key, .float(le32()))
            case Tag.false.rawValue: return (key, .bool(false))
            case Tag.true.rawValue: return (key, .bool(true))
            case Tag.data.rawValue: return (key, .data(dataRange()))
            default: return (key, .uid(uid()))  // Tag.uid (the 3 bits hold no other value)
            }
        }

        /// Skips `count` fields.
        mutating func skipFields(_ count: Int) {
            for _ in 0..<count { _ = field() }
        }
    }
}
