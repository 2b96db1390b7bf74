import Foundation

/// Leaf readers for the decoder's fast paths.
///
/// Each reads one kind of leaf object and returns nil for anything else, damaged input
/// included: the caller then reads the object with ``object(_:)``, which reports the
/// damage. So they check what ``object(_:)`` checks, and never throw.
extension BinaryPropertyList {
    /// The text of object `ref` when it is a string of fewer than `limit` characters (bytes
    /// of an ASCII string, UTF-16 units of another).
    ///
    /// Inlined into the decoder's one caller, whose property list lives in a class: called
    /// out of line, each call would copy the property list (retaining what it owns).
    @inline(__always)
    func shortString(_ ref: Int, limit: Int) -> String? {
        guard let start = checkedOffset(of: ref) else { return nil }
        let marker = bytes[start]
        let kind = marker >> 4
        guard kind == 0x5 || kind == 0x6,
              let (count, body) = try? lengthAndBody(start: start, info: Int(marker & 0x0F), ref: ref)
        else { return nil }
        let unit = kind == 0x6 ? 2 : 1
        // count ≤ the bytes left after body, so count × unit cannot overflow.
        guard count <= (offsetTableStart - body) / unit, count < limit else { return nil }
        let range = body..<(body + count * unit)
        return kind == 0x5 ? asciiString(range) : try? utf16String(range, ref: ref)
    }

    /// The value of object `ref` when it is an integer of 1 to 8 bytes.
    func smallInteger(_ ref: Int) -> Int64? {
        guard let start = checkedOffset(of: ref) else { return nil }
        let marker = bytes[start]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { return nil }
        let size = 1 << Int(marker & 0x0F)
        guard start + 1 + size <= offsetTableStart else { return nil }
        let raw = Self.readBigEndian(bytes, at: start + 1, size: size)
        return size == 8 ? Int64(bitPattern: raw) : Int64(raw)
    }

    /// The value of object `ref` when it is an 8-byte real.
    @inline(__always)
    func double(_ ref: Int) -> Double? {
        guard let start = checkedOffset(of: ref), bytes[start] == 0x23, start + 9 <= offsetTableStart else { return nil }
        return Double(bitPattern: Self.readBigEndian(bytes, at: start + 1, size: 8))
    }

    /// The value of object `ref` when it is a boolean.
    func bool(_ ref: Int) -> Bool? {
        guard let start = checkedOffset(of: ref) else { return nil }
        switch bytes[start] {
        case 0x08: return false
        case 0x09: return true
        default: return nil
        }
    }

    /// Where the bytes of object `ref` are when it is data.
    @inline(__always)
    func dataRange(_ ref: Int) -> Range<Int>? {
        guard let start = checkedOffset(of: ref) else { return nil }
        let marker = bytes[start]
        guard marker >> 4 == 0x4,
              let (count, body) = try? lengthAndBody(start: start, info: Int(marker & 0x0F), ref: ref),
              count <= offsetTableStart - body
        else { return nil }
        return body..<(body + count)
    }

    /// ``dataRange(_:)`` of a property list stored in a class, read where it is stored (see
    /// ``object(_:inPlace:)``).
    @inline(__always)
    static func dataRange(_ ref: Int, inPlace plist: inout BinaryPropertyList) -> Range<Int>? {
        plist.dataRange(ref)
    }

    /// Whether object `ref` is the UID `value` (of up to 8 bytes).
    @inline(__always)
    func isUID(_ ref: Int, _ value: UInt64) -> Bool {
        guard let start = checkedOffset(of: ref) else { return false }
        let marker = bytes[start]
        let size = Int(marker & 0x0F) + 1
        return marker >> 4 == 0x8 && size <= 8 && size <= offsetTableStart - start - 1
            && Self.readBigEndian(bytes, at: start + 1, size: size) == value
    }

    /// The reference of the value of key `fieldKey` in object `ref`, when that object is a
    /// dictionary of exactly two entries keyed by the objects `classKey` and `fieldKey` (in
    /// either order) whose `classKey` value is the UID `classUID`: an archived object of a
    /// class with one field (NSDate's `NS.time`, NSUUID's `NS.uuidbytes`), read with a few
    /// integer comparisons.
    ///
    /// The caller knows `classKey` and `fieldKey` as two key strings of different texts that
    /// a dictionary checked by ``lazyKeyCheck`` held (see ``DuplicateKeyLazyCheck``): such a
    /// dictionary holds no key twice, and checking it would record no key the check has not
    /// met, so it is not checked again here.
    ///
    /// Inlined into the decoder, whose property list lives in a class (see ``shortString(_:limit:)``).
    @inline(__always)
    func twoEntryValue(_ ref: Int, classKey: Int, fieldKey: Int, classUID: UInt64) -> Int? {
        guard let start = checkedOffset(of: ref), bytes[start] == 0xD2 else { return nil }
        let body = start + 1
        // `object(_:)`'s check that 2 keys and 2 values fit before the offset table.
        guard 4 * refSize <= offsetTableStart - body else { return nil }
        let first = Self.readBigEndian(bytes, at: body, size: refSize)
        let second = Self.readBigEndian(bytes, at: body + refSize, size: refSize)
        let classIndex: Int
        if first == UInt64(classKey), second == UInt64(fieldKey) {
            classIndex = 0
        } else if first == UInt64(fieldKey), second == UInt64(classKey) {
            classIndex = 1
        } else {
            return nil
        }
        let classValue = Self.readBigEndian(bytes, at: body + (2 + classIndex) * refSize, size: refSize)
        let fieldValue = Self.readBigEndian(bytes, at: body + (3 - classIndex) * refSize, size: refSize)
        guard classValue < UInt64(objectCount), fieldValue < UInt64(objectCount), isUID(Int(classValue), classUID) else { return nil }
        return Int(fieldValue)
    }
}
