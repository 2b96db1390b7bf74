import Foundation

// Shared plumbing for the Foundation value-type layouts in this folder: the class chains
// Foundation writes, a writer for an object's fields, and the reader-side helpers that
// follow a field's UID through the decoder's depth, cycle and work accounting.

extension StandardClass {
    static let timeZone = StandardClass(name: "NSTimeZone", classes: ["NSTimeZone", "NSObject"])
    static let locale = StandardClass(name: "NSLocale", classes: ["NSLocale", "NSObject"])
    static let calendar = StandardClass(name: "NSCalendar", classes: ["NSCalendar", "NSObject"])
    static let dateInterval = StandardClass(name: "NSDateInterval", classes: ["NSDateInterval", "NSObject"])
    static let dateComponents = StandardClass(name: "NSDateComponents", classes: ["NSDateComponents", "NSObject"])
    static let personNameComponents = StandardClass(
        name: "NSPersonNameComponents", classes: ["NSPersonNameComponents", "NSObject"])
    static let personNameComponentsData = StandardClass(
        name: "_NSPersonNameComponentsData", classes: ["_NSPersonNameComponentsData", "NSObject"])
    static let measurement = StandardClass(name: "NSMeasurement", classes: ["NSMeasurement", "NSObject"])
    static let indexSet = StandardClass(name: "NSIndexSet", classes: ["NSIndexSet", "NSObject"])
    static let indexPath = StandardClass(name: "NSIndexPath", classes: ["NSIndexPath", "NSObject"])
    static let value = StandardClass(name: "NSValue", classes: ["NSValue", "NSObject"])
    static let mutableData = StandardClass(name: "NSMutableData", classes: ["NSMutableData", "NSData", "NSObject"])
}

/// Appends the fields of one Foundation object, in the order Foundation's `encodeWithCoder:`
/// writes them: scalars inline (`encodeInteger:forKey:`), objects by UID (`encodeObject:forKey:`).
struct FoundationFieldWriter {
    let encoder: _ArchiveEncoder
    let box: ObjectBox

    func integer(_ key: String, _ value: Int) {
        box.append(key: encoder.table.keyID(key), .integer(Int64(value)))
    }

    func real(_ key: String, _ value: Double) {
        box.append(key: encoder.table.keyID(key), .real(value))
    }

    func bool(_ key: String, _ value: Bool) {
        box.append(key: encoder.table.keyID(key), .bool(value))
    }

    /// `encodeObject:forKey:` of an object already written (UID 0 is nil).
    func object(_ key: String, uid: Int32) {
        box.append(key: encoder.table.keyID(key), .uid(uid))
    }

    /// `encodeObject:forKey:` of a string (a plain string object).
    func string(_ key: String, _ value: String) {
        object(key, uid: encoder.table.string(value))
    }

    /// `encodeObject:forKey:` of an NSMutableData, as Foundation writes the bytes it builds.
    func mutableData(_ key: String, _ bytes: Data) {
        let made = encoder.makeObject(kind: .fields, className: .mutableData)
        made.box.append(key: encoder.table.keyID("NS.data"), .data(bytes))
        object(key, uid: made.uid)
    }

    /// `numbers` packed as unsigned LEB128 (see ``PackedUnsigned``) in an NSMutableData.
    func packedNumbers<S: Sequence>(_ key: String, _ numbers: S, expectedCount: Int) where S.Element == UInt64 {
        var packed = Data()
        packed.reserveCapacity(expectedCount * 2 + 16)
        for number in numbers { PackedUnsigned.append(number, to: &packed) }
        mutableData(key, packed)
    }
}

extension _ArchiveEncoder {
    /// Writes a new object of the Foundation class `className` whose fields `fill` appends,
    /// and returns its UID.
    func foundationObject(_ className: StandardClass, _ fill: (FoundationFieldWriter) throws -> Void) rethrows -> Int32 {
        let made = makeObject(kind: .fields, className: className)
        try fill(FoundationFieldWriter(encoder: self, box: made.box))
        return made.uid
    }

    /// Writes a new object whose class entry is `names` (a Foundation class found at run
    /// time, such as a unit's `NSUnitLength`), filled by `fill`.
    func foundationObject(named names: (name: String, classes: [String]), _ fill: (FoundationFieldWriter) throws -> Void) rethrows -> Int32 {
        try foundationObject(StandardClass(name: names.name, classes: names.classes), fill)
    }
}

/// The fields of an opened Foundation object, with typed readers that turn a missing or
/// ill-typed field into an error naming the object index and key.
struct FoundationFieldReader {
    let decoder: _ArchiveDecoder
    let keys: BinaryPropertyList.RefList
    let values: BinaryPropertyList.RefList
    let slot: ArchiveSlot
    let path: CodingPathNode
    /// The Swift type being decoded, for messages.
    let type: Any.Type

    /// The slot of field `name`, or nil when the object has no such key.
    func field(_ name: String) throws -> ArchiveSlot? {
        try decoder.reading(slot, path) { try decoder.field(name, keys: keys, values: values, owner: slot.objectIndex) }
    }

    /// The slot of a field the layout cannot do without.
    func required(_ name: String) throws -> ArchiveSlot {
        guard let found = try field(name) else {
            throw decoder.corrupted(at: path.appending(ArchiveCodingKey(stringValue: name)), slot: slot,
                                    "\(type) needs the field \(name), which object \(slot.objectIndex) does not have")
        }
        return found
    }

    /// The path of a field, for errors inside it.
    func path(_ name: String) -> CodingPathNode { path.appending(ArchiveCodingKey(stringValue: name)) }

    /// Field `name` read by `read`; nil when the key is missing or holds `$null`.
    private func optional<T>(_ name: String, _ read: (ArchiveSlot, CodingPathNode) throws -> T) throws -> T? {
        guard let found = try field(name), !decoder.isNil(found) else { return nil }
        return try read(found, path(name))
    }

    /// Field `name` read by `read`; `keyNotFound`-style corruption when missing, `valueNotFound` for `$null`.
    private func require<T>(_ type: T.Type, _ name: String, _ read: (ArchiveSlot, CodingPathNode) throws -> T) throws -> T {
        let found = try required(name)
        guard !decoder.isNil(found) else { throw decoder.valueNotFound(T.self, at: path(name)) }
        return try read(found, path(name))
    }

    private func readInteger(_ slot: ArchiveSlot, _ path: CodingPathNode) throws -> Int {
        try decoder.unboxInteger(Int.self, from: slot, at: path)
    }

    private func readNested<T: Decodable & _ArchiveSpecialDecodable>(_ slot: ArchiveSlot, _ path: CodingPathNode) throws -> T {
        try decoder.nestedFoundationValue(T.self, from: slot, at: path)
    }

    func integer(_ name: String) throws -> Int? { try optional(name, readInteger) }
    func requiredInteger(_ name: String) throws -> Int { try require(Int.self, name, readInteger) }
    func double(_ name: String) throws -> Double? { try optional(name) { try decoder.unboxDouble(from: $0, at: $1) } }
    func requiredDouble(_ name: String) throws -> Double { try require(Double.self, name) { try decoder.unboxDouble(from: $0, at: $1) } }
    func bool(_ name: String) throws -> Bool? { try optional(name) { try decoder.unboxBool(from: $0, at: $1) } }
    func data(_ name: String) throws -> Data? { try optional(name, readNested) }
    func requiredData(_ name: String) throws -> Data { try require(Data.self, name, readNested) }

    /// A field holding another object (a string, a date, a time zone…), decoded with the
    /// object open in the decoder's accounting; nil for a missing key or `$null`.
    func value<T: Decodable & _ArchiveSpecialDecodable>(_ type: T.Type, _ name: String) throws -> T? {
        try optional(name, readNested)
    }

    /// A field holding an object the layout cannot do without.
    func requiredValue<T: Decodable & _ArchiveSpecialDecodable>(_ type: T.Type, _ name: String) throws -> T {
        try require(T.self, name, readNested)
    }

    /// A corrupt-layout error at this object.
    func corrupted(_ message: String) -> DecodingError {
        decoder.corrupted(at: path, slot: slot, message)
    }
}

extension _ArchiveDecoder {
    /// Opens the object at `slot` as an instance of one of `classes` (see
    /// ``foundationObject(_:classes:at:path:)``) and returns readers for its fields.
    func foundationFields<T>(_ type: T.Type, classes: [String], at slot: ArchiveSlot, path: CodingPathNode) throws -> FoundationFieldReader {
        let (keys, values) = try foundationObject(T.self, classes: classes, at: slot, path: path)
        return FoundationFieldReader(decoder: self, keys: keys, values: values, slot: slot, path: path, type: T.self)
    }

    /// Decodes a Foundation value held by another object's field, through ``unbox(_:from:at:)``,
    /// which enters an object (depth, cycles and work counted as for any nested value).
    func nestedFoundationValue<T: Decodable & _ArchiveSpecialDecodable>(_ type: T.Type, from slot: ArchiveSlot, at path: CodingPathNode) throws -> T {
        try unbox(T.self, from: slot, at: path)
    }

    /// "Expected X but found an NSUnitLength at object 2": an object of the right Foundation
    /// family whose class does not fit the requested type.
    func classMismatch(_ type: Any.Type, found chain: ArchivedClassChain?, slot: ArchiveSlot, at path: CodingPathNode) -> DecodingError {
        let found = chain.map { "an object of class \($0.name)" } ?? "an object without a class"
        return typeMismatch(type, found: found, slot: slot, at: path)
    }
}

/// Unsigned LEB128, as NSIndexSet's `NSRangeData` and NSIndexPath's `NSIndexPathData` pack
/// their numbers: seven bits a byte, low bits first, the high bit set on all but the last.
enum PackedUnsigned {
    static func append(_ value: UInt64, to bytes: inout Data) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The numbers in `bytes`; nil when the data ends inside a number or a number does
    /// not fit in 64 bits.
    static func decode(_ bytes: Data) -> [UInt64]? {
        var result: [UInt64] = []
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var open = false
        for byte in bytes {
            let bits = UInt64(byte & 0x7F)
            guard shift < 64, shift < 63 || bits <= 1 else { return nil }
            value |= bits << shift
            if byte & 0x80 != 0 {
                shift += 7
                open = true
            } else {
                result.append(value)
                value = 0
                shift = 0
                open = false
            }
        }
        return open ? nil : result
    }
}
