import Foundation

/// Writes the elements of an NSArray: every element is an object referenced by UID.
struct ArchiveUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: _ArchiveEncoder
    // The array's ObjectBox without its table (the encoder's): the container then fits in
    // an existential's inline buffer, so `unkeyedContainer()` allocates nothing.
    private let uid: Int32
    /// The open level hint (see ``ObjectBox/level``); a wrong hint is only slower.
    private let level: Int32
    let path: CodingPathNode

    init(encoder: _ArchiveEncoder, object: _ArchiveEncoder.OpenHandle, path: CodingPathNode) {
        self.encoder = encoder
        uid = object.uid
        level = Int32(truncatingIfNeeded: object.level)
        self.path = path
    }

    private var box: ObjectBox { ObjectBox(table: encoder.table, uid: uid, kind: .array, level: Int(level)) }

    var codingPath: [any CodingKey] { path.path }
    var count: Int { encoder.table.openCount(uid: uid, hint: Int(level)) }

    /// Through the table, not `box`: making a box retains the table.
    @inline(__always)
    private func append(_ element: Int32) { encoder.table.appendElement(element, uid: uid, hint: Int(level)) }

    mutating func encodeNil() throws { append(encoder.nullObject()) }
    mutating func encode(_ value: Bool) throws { append(encoder.table.bool(value)) }
    mutating func encode(_ value: String) throws { append(encoder.table.string(value)) }
    mutating func encode(_ value: Double) throws { let box = box, path = path; append(try encoder.realUID(value, at: path.appending(index: box.count))) }
    mutating func encode(_ value: Float) throws { let box = box, path = path; append(try encoder.realUID(value, at: path.appending(index: box.count))) }
    mutating func encode(_ value: Int) throws { append(encoder.table.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { append(encoder.table.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { append(encoder.table.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { append(encoder.table.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { append(encoder.table.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(encoder.table.unsignedInteger(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { append(encoder.table.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { append(encoder.table.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { append(encoder.table.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { append(encoder.table.unsignedInteger(value)) }
    /// `Int128` and `UInt128` (see ArchiveEncoder+Int128.swift).
    mutating func encode(wide value: PropertyListWideInteger) throws { append(encoder.table.wideInteger(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // No box (which would retain the table).
        let index = encoder.table.openCount(uid: uid, hint: Int(level))
        append(encoder.elementUID(try encoder.box(value, index: index, under: path)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nestedPath = path.appending(index: count)
        let made = encoder.makeObject(kind: .dictionary)
        append(made.uid)
        return ArchiveKeyedEncodingContainer<NestedKey>.handOut(encoder: encoder, object: .init(made.box), frame: -1, path: nestedPath)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nestedPath = path.appending(index: count)
        let made = encoder.makeObject(kind: .array)
        append(made.uid)
        return ArchiveUnkeyedEncodingContainer(encoder: encoder, object: .init(made.box), path: nestedPath)
    }

    mutating func superEncoder() -> any Encoder {
        let index = count
        append(0)
        return encoder.subEncoder(path: path.appending(index: index), target: .none, patch: .element(box, index))
    }
}
