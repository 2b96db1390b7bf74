import Foundation

/// An archived value kept exactly as it was written, class names and fields included,
/// so that it can be written back: what the AppKit and UIKit value types hold for the
/// parts they do not interpret (an attribute of an unknown class, a paragraph style's
/// text lists, a pattern colour's image).
///
/// Reading follows references and goes through the decoder's depth, cycle and work
/// accounting; an object that refers back to itself cannot be kept and throws. Writing
/// writes each object with its class chain and its fields in their order.
///
/// ## Shared objects
///
/// An archived object that several fields refer to (by UID) is read once: the fields hold
/// copies of one value, and ``ArchiveEncoder`` writes that value once and refers to it by
/// UID wherever it appears, as `NSKeyedArchiver` does. So a graph keeps its size both
/// ways, however many paths lead to an object, and `==` and hashing visit each shared
/// object once. Sharing is a matter of copies: a value you copy is written once however
/// often it appears in one archive; two values built separately are written separately,
/// even when they are equal.
///
/// ```swift
/// if case .other(let raw)? = run.attributes["NSTextAttachment"],
///    case .object(let classes, let fields) = raw {
///     print(classes.first ?? "", fields.map(\.key))
/// }
/// ```
public indirect enum ArchivedRawValue: Sendable, Hashable, Codable {
    /// UID 0: nil.
    case null
    /// An integer written inline in its owner's fields (`encodeInteger:forKey:`).
    case integer(Int64)
    /// A real written inline (`encodeDouble:forKey:`).
    case real(Double)
    /// A boolean written inline (`encodeBool:forKey:`).
    case bool(Bool)
    /// Bytes written inline (`encodeBytes:length:forKey:`).
    case data(Data)
    /// A string object (`$objects` holds the string itself).
    case string(String)
    /// A plain number or data object: `$objects` holds the value itself (an `NSNumber`,
    /// an `NSData`), referred to by UID.
    case plain(ArchivedRawValue)
    /// An inline array in an object's fields: the `NS.objects` and `NS.keys` of a
    /// collection.
    case array([ArchivedRawValue])
    /// An object: its class chain (`$classes`, the class first) and its fields in order.
    case object(classes: [String], fields: [ArchivedRawField])

    /// The object's class name, for an ``object(classes:fields:)``.
    ///
    /// ```swift
    /// print(raw.className ?? "not an object")
    /// ```
    public var className: String? {
        if case .object(let classes, _) = self { return classes.first }
        return nil
    }
}

/// One field of an ``ArchivedRawValue/object(classes:fields:)``.
///
/// ```swift
/// let field = ArchivedRawField(key: "NSSize", value: .real(12))
/// ```
public struct ArchivedRawField: Sendable, Hashable, Codable {
    /// The field's key.
    public var key: String
    /// The field's value.
    public var value: ArchivedRawValue

    /// A field from its key and value.
    ///
    /// ```swift
    /// let field = ArchivedRawField(key: "NSName", value: .string("Helvetica"))
    /// ```
    public init(key: String, value: ArchivedRawValue) {
        self.key = key
        self.value = value
    }
}

extension ArchivedRawValue: _ArchiveSpecialDecodable {
    /// Reads the slot itself: whether a value is inline or referenced is part of what is kept.
    static var _archiveEntersItself: Bool { true }

    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedRawValue {
        switch slot {
        case .uid(0):
            try decoder.reading(slot, path()) { try decoder.charge(1) }
            return .null
        case .uid(let uid):
            // An object read before is shared: one unit for the reference, as for any
            // value already made (see `ArchiveDecodingState.rawValues`).
            if let kept = decoder.state.rawValues[uid] {
                try decoder.reading(slot, path()) { try decoder.charge(1) }
                return kept
            }
            let ref = try decoder.reading(slot, path()) { try decoder.objectRef(uid) }
            let value = try read(ref, from: decoder, slot: slot, at: path())
            decoder.state.rawValues[uid] = value
            return value
        case .inline(let ref, _):
            return try read(ref, from: decoder, slot: slot, at: path())
        }
    }

    /// The value of plist object `ref`, found at `slot`.
    private static func read(_ ref: Int, from decoder: _ArchiveDecoder, slot: ArchiveSlot,
                             at path: @autoclosure () -> CodingPathNode) throws -> ArchivedRawValue {
        let object = try decoder.reading(slot, path()) { try decoder.plist.object(ref) }
        switch object {
        case .dictionary(let keys, let values):
            guard case .uid(let uid) = slot,
                  let chain = try decoder.archivedClass(keys: keys, values: values, slot: slot, at: path()) else {
                throw decoder.corrupted(at: path(), slot: slot, "an inline dictionary or an object without a class cannot be kept as an archived value")
            }
            return try decoder.withContainer(ref: ref, slot: slot, at: path()) {
                .object(classes: chain.classes, fields: try rawFields(keys, values, owner: uid, decoder, slot, path()))
            }
        case .array(let list):
            return .array(try decoder.withContainer(ref: ref, slot: slot, at: path()) {
                try (0..<list.count).map { index in
                    let element = try decoder.reading(slot, path()) { try decoder.slot(forValueAt: try decoder.plist.ref(list, index), owner: slot.objectIndex) }
                    return try decoder.unbox(ArchivedRawValue.self, from: element, at: path().appending(ArchiveCodingKey(intValue: index)))
                }
            })
        case .asciiString, .utf16String:
            return .string(try decoder.unboxString(from: slot, at: path()))
        default:
            let scalar = try scalar(object, slot, decoder, path())
            if case .uid = slot { return .plain(scalar) }
            return scalar
        }
    }

    /// An inline scalar: a number, a boolean or bytes.
    private static func scalar(_ object: BinaryPropertyList.Object, _ slot: ArchiveSlot, _ decoder: _ArchiveDecoder,
                               _ path: @autoclosure () -> CodingPathNode) throws -> ArchivedRawValue {
        try decoder.reading(slot, path()) { try decoder.charge(1) }
        switch object {
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number) where number <= UInt64(Int64.max): return .integer(Int64(number))
        case .real(let number): return .real(number)
        case .float(let number): return .real(Double(number))
        case .data: return .data(try decoder.unboxData(from: slot, at: path()))
        default:
            throw decoder.corrupted(at: path(), slot: slot, "a date, UID or integer wider than 64 bits cannot be kept as an archived value")
        }
    }

    /// The fields of object `owner` but `$class`, in order.
    private static func rawFields(_ keys: BinaryPropertyList.RefList, _ values: BinaryPropertyList.RefList, owner: Int,
                                  _ decoder: _ArchiveDecoder, _ slot: ArchiveSlot, _ path: CodingPathNode) throws -> [ArchivedRawField] {
        var fields: [ArchivedRawField] = []
        fields.reserveCapacity(keys.count)
        for index in 0..<keys.count {
            let (key, value) = try decoder.reading(slot, path) { () throws -> (String?, ArchiveSlot) in
                let key = try decoder.plist.string(try decoder.plist.ref(keys, index))
                return (key, try decoder.slot(forValueAt: try decoder.plist.ref(values, index), owner: owner))
            }
            guard let key else { throw decoder.corrupted(at: path, slot: slot, "key \(index) of object \(owner) is not a string") }
            if key == "$class" { continue }
            fields.append(ArchivedRawField(key: key, value: try decoder.unbox(
                ArchivedRawValue.self, from: value, at: path.appending(ArchiveCodingKey(stringValue: key)))))
        }
        return fields
    }
}

extension ArchivedRawValue: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        try objectUID(encoder, path())
    }

    /// The value as a field of an object: inline scalars inline, everything else by UID.
    func fieldValue(_ encoder: _ArchiveEncoder, _ path: @autoclosure () -> CodingPathNode) throws -> ObjectBox.Value {
        switch self {
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return .data(bytes)
        default: return .uid(try objectUID(encoder, path()))
        }
    }

    /// The value written as an entry of `$objects`; its UID. A string, data, plain value or
    /// object written before in this archive (a copy of it: see ``SharedStorageIdentity``)
    /// is that entry again.
    func objectUID(_ encoder: _ArchiveEncoder, _ path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        switch self {
        case .null: return 0
        case .integer(let number): return encoder.table.integer(number)
        case .real(let number): return encoder.table.real(number)
        case .bool(let flag): return encoder.table.bool(flag)
        case .array:
            throw refusal("an inline array can only be the NS.objects or NS.keys of an object", path())
        case .string, .data, .plain, .object:
            guard let identity = sharingIdentity else { return try writeEntry(encoder, path()) }
            if let written = encoder.table.rawValueUIDs[identity] { return written.uid }
            let uid = try writeEntry(encoder, path())
            // The value is kept with its UID, so its identity stays its own (values cannot
            // contain themselves, so nothing is in progress meanwhile).
            encoder.table.rawValueUIDs[identity] = (self, uid)
            return uid
        }
    }

    /// ``objectUID(_:_:)`` for a value not written yet.
    private func writeEntry(_ encoder: _ArchiveEncoder, _ path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        switch self {
        case .string(let text): return encoder.table.string(text)
        case .data(let bytes): return encoder.table.data(bytes)
        case .plain(let value): return try value.objectUID(encoder, path())
        case .object(let classes, let fields): return try writeObject(classes, fields, encoder, path())
        default: return try objectUID(encoder, path())
        }
    }

    private func writeObject(_ classes: [String], _ fields: [ArchivedRawField], _ encoder: _ArchiveEncoder,
                             _ path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        guard let name = classes.first else { throw refusal("an object needs a class name", path()) }
        let className = StandardClass(name: name, classes: classes)
        // A collection: NS.objects alone, or NS.keys and NS.objects, written as the encoder writes collections.
        let keys = fields.first { $0.key == "NS.keys" }
        if let objects = fields.first(where: { $0.key == "NS.objects" }), case .array(let items) = objects.value,
           fields.count == (keys == nil ? 1 : 2) {
            let itemUIDs = try items.map { try $0.objectUID(encoder, path()) }
            guard let keys else {
                let made = encoder.makeObject(kind: .array, className: className)
                for uid in itemUIDs { made.box.appendElement(uid) }
                return made.uid
            }
            guard case .array(let keyItems) = keys.value, keyItems.count == items.count else {
                throw refusal("a dictionary's NS.keys and NS.objects must be arrays of one length", path())
            }
            let keyUIDs = try keyItems.map { try $0.objectUID(encoder, path()) }
            let made = encoder.makeObject(kind: .dictionary, className: className)
            for (key, value) in zip(keyUIDs, itemUIDs) { made.box.appendEntry(key: key, value: value) }
            return made.uid
        }
        let values = try fields.map { field -> ObjectBox.Value in
            if case .array = field.value { throw refusal("the inline array of field \(field.key) cannot be written", path()) }
            return try field.value.fieldValue(encoder, path().appending(ArchiveCodingKey(stringValue: field.key)))
        }
        let made = encoder.makeObject(kind: .fields, className: className)
        for (field, value) in zip(fields, values) { made.box.append(key: encoder.table.keyID(field.key), value) }
        return made.uid
    }

    private func refusal(_ message: String, _ path: CodingPathNode) -> EncodingError {
        EncodingError.invalidValue(self, EncodingError.Context(codingPath: path.path, debugDescription: "An archived value cannot be written: \(message)"))
    }
}
