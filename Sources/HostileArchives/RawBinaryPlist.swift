import Foundation

/// A binary property list (`bplist00`) written object by object, whose references may point
/// anywhere: forwards, backwards, at the container holding them, at themselves.
///
/// `BinaryPropertyListBuilder` in the library refuses cycles, as a writer of real files
/// should; hostile files need them, so the generator has this small writer of its own.
/// Containers hold object numbers (indices into ``objects``), not values.
public struct RawBinaryPlist: Sendable {
    /// One object of the table.
    public enum Object: Sendable, Hashable {
        case integer(Int64)
        case real(Double)
        case bool(Bool)
        case date(Double)
        case data([UInt8])
        case string(String)
        case uid(UInt64)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// The object table; a reference is an index into it.
    public private(set) var objects: [Object] = []
    private var interned: [Object: Int] = [:]
    /// The narrowest reference and offset width written (1, 2, 4 or 8 bytes). With 4, file
    /// size grows smoothly with the graph instead of jumping where 65,536 objects or a
    /// 64 KB offset widen every reference.
    public var minimumWidth = 1

    public init() {}

    /// Appends `object` and returns its reference.
    @discardableResult
    public mutating func add(_ object: Object) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    /// A reference to an object equal to `object`, added once and shared afterwards
    /// (for scalars: keys, UIDs, class names).
    public mutating func shared(_ object: Object) -> Int {
        if let ref = interned[object] { return ref }
        let ref = add(object)
        interned[object] = ref
        return ref
    }

    /// Reserves a reference to fill later with ``set(_:_:)``, so containers can hold
    /// references to themselves or to containers not written yet.
    public mutating func reserve() -> Int { add(.array([])) }

    /// Replaces the object at `ref`.
    public mutating func set(_ ref: Int, _ object: Object) { objects[ref] = object }

    /// The number of objects in the table.
    public var count: Int { objects.count }

    /// The encoded file, with `top` as its top object.
    public func data(top: Int) -> Data {
        let refSize = max(minimumWidth, Self.byteWidth(for: UInt64(max(objects.count - 1, 0))))
        var out: [UInt8] = Array("bplist00".utf8)
        out.reserveCapacity(objects.count * 12 + 64)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            write(object, refSize: refSize, into: &out)
        }
        let tableOffset = out.count
        let offsetSize = max(minimumWidth, Self.byteWidth(for: UInt64(tableOffset)))
        for offset in offsets { Self.appendBigEndian(UInt64(offset), width: offsetSize, to: &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        Self.appendBigEndian(UInt64(objects.count), width: 8, to: &out)
        Self.appendBigEndian(UInt64(top), width: 8, to: &out)
        Self.appendBigEndian(UInt64(tableOffset), width: 8, to: &out)
        return Data(out)
    }

    private func write(_ object: Object, refSize: Int, into out: inout [UInt8]) {
        switch object {
        case .integer(let value):
            if value >= 0 && value <= Int64(UInt32.max) {
                let width = Self.byteWidth(for: UInt64(value))
                out.append(0x10 | UInt8(width.trailingZeroBitCount))
                Self.appendBigEndian(UInt64(value), width: width, to: &out)
            } else {
                out.append(0x13)
                Self.appendBigEndian(UInt64(bitPattern: value), width: 8, to: &out)
            }
        case .real(let value):
            out.append(0x23)
            Self.appendBigEndian(value.bitPattern, width: 8, to: &out)
        case .bool(let value):
            out.append(value ? 0x09 : 0x08)
        case .date(let seconds):
            out.append(0x33)
            Self.appendBigEndian(seconds.bitPattern, width: 8, to: &out)
        case .data(let bytes):
            Self.appendMarker(0x40, count: bytes.count, to: &out)
            out += bytes
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                Self.appendMarker(0x50, count: text.utf8.count, to: &out)
                out += text.utf8
            } else {
                let units = Array(text.utf16)
                Self.appendMarker(0x60, count: units.count, to: &out)
                for unit in units { Self.appendBigEndian(UInt64(unit), width: 2, to: &out) }
            }
        case .uid(let value):
            let width = Self.byteWidth(for: value)
            out.append(0x80 | UInt8(width - 1))
            Self.appendBigEndian(value, width: width, to: &out)
        case .array(let refs):
            Self.appendMarker(0xA0, count: refs.count, to: &out)
            for ref in refs { Self.appendBigEndian(UInt64(ref), width: refSize, to: &out) }
        case .dictionary(let keys, let values):
            Self.appendMarker(0xD0, count: keys.count, to: &out)
            for ref in keys { Self.appendBigEndian(UInt64(ref), width: refSize, to: &out) }
            for ref in values { Self.appendBigEndian(UInt64(ref), width: refSize, to: &out) }
        }
    }

    /// The smallest of 1, 2, 4 and 8 bytes that holds `value`.
    static func byteWidth(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    static func appendBigEndian(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    static func appendMarker(_ kind: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(kind | UInt8(count))
        } else {
            out.append(kind | 0x0F)
            let width = byteWidth(for: UInt64(count))
            out.append(0x10 | UInt8(width.trailingZeroBitCount))
            appendBigEndian(UInt64(count), width: width, to: &out)
        }
    }
}
