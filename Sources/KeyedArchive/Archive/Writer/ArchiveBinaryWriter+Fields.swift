import Foundation

// The `.fields` objects of the file (see ArchiveBinaryWriter.swift): most objects of a
// typical archive. Their loop is a function of its own, out of `object(_:kind:keys:)`, so
// that the record's reading and the values' numbering are inlined into it whole (inside
// the larger function the compiler left some of them as calls), and it is made once per
// reference width: the second pass switches on the width once per object instead of once
// per reference written.

/// How a loop over fields writes a reference: not at all (the first pass), or `size` bytes
/// big-endian, that size fixed by the type where it can be.
protocol ArchiveRefWidth {
    static func put(_ ref: Int, size: Int, into sink: inout FileSink)
}

/// The first pass: references are counted, not written.
enum UnwrittenRefs: ArchiveRefWidth {
    @inline(__always)
    static func put(_ ref: Int, size: Int, into sink: inout FileSink) {}
}

enum OneByteRefs: ArchiveRefWidth {
    @inline(__always)
    static func put(_ ref: Int, size: Int, into sink: inout FileSink) { sink.putBigEndian(UInt64(ref), size: 1) }
}

enum TwoByteRefs: ArchiveRefWidth {
    @inline(__always)
    static func put(_ ref: Int, size: Int, into sink: inout FileSink) { sink.putBigEndian(UInt64(ref), size: 2) }
}

enum FourByteRefs: ArchiveRefWidth {
    @inline(__always)
    static func put(_ ref: Int, size: Int, into sink: inout FileSink) { sink.putBigEndian(UInt64(ref), size: 4) }
}

/// Any other width (8 bytes: over 2^32 objects).
enum SizedRefs: ArchiveRefWidth {
    @inline(__always)
    static func put(_ ref: Int, size: Int, into sink: inout FileSink) { sink.putBigEndian(UInt64(ref), size: size) }
}

extension ArchiveBinaryWriter {
    /// A `.fields` object's dictionary: `$class` (`classKey`, `classRef`) and the `count`
    /// fields `cursor` is at. Its values are scalars (no container comes between), so the
    /// dictionary's references are written in place as each value is numbered.
    mutating func fieldsObject(_ cursor: inout ObjectRecord.Cursor, count: Int, classKey: Int, classRef: Int) -> Int {
        guard writing else { return fields(&cursor, count: count, classKey: classKey, classRef: classRef, UnwrittenRefs.self) }
        switch refSize {
        case 1: return fields(&cursor, count: count, classKey: classKey, classRef: classRef, OneByteRefs.self)
        case 2: return fields(&cursor, count: count, classKey: classKey, classRef: classRef, TwoByteRefs.self)
        case 4: return fields(&cursor, count: count, classKey: classKey, classRef: classRef, FourByteRefs.self)
        default: return fields(&cursor, count: count, classKey: classKey, classRef: classRef, SizedRefs.self)
        }
    }

    @inline(never)
    private mutating func fields<Width: ArchiveRefWidth>(_ cursor: inout ObjectRecord.Cursor, count: Int, classKey: Int, classRef: Int,
                                                         _ width: Width.Type) -> Int {
        var open = openContainer(isDictionary: true, count: count + 1)
        Width.put(classKey, size: refSize, into: &open.keys)
        Width.put(classRef, size: refSize, into: &open.values)
        for _ in 0..<count {
            let (key, stored) = cursor.field()
            let value: Int
            switch stored {
            case .uid(let u): value = uid(u)
            case .integer(let i): value = integer(i)
            case .real(let bits): value = real(bits)
            case .float(let bits): value = float(bits)
            case .bool(let b): value = bool(b)
            case .data(let range): value = data(range, of: cursor)
            }
            Width.put(keyRefs[Int(key)], size: refSize, into: &open.keys)
            Width.put(value, size: refSize, into: &open.values)
        }
        return closeContainer(open)
    }
}
