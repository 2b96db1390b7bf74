import Foundation

/// Writes the fields of one archived object.
///
/// In a typed object (`.fields`), numbers and booleans are stored inline under their key,
/// as `encode(_:forKey:)` does in `NSCoder`; everything else is a UID. In an NSDictionary
/// (a keyed container with no type of its own), every key and value is an object by UID.
///
/// What changes from object to object (the object, the path) is one class instance, so
/// that `container(keyedBy:)` can hand the same `KeyedEncodingContainer` out again for the
/// next object (see `KeyedEncodingContainerReuse.swift`).
struct ArchiveKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: _ArchiveEncoder
    /// Field-key ids of `Key` (no hashing per field).
    let keyCache: KeyIDCache
    let core: ArchiveKeyedEncodingCore

    /// The object the container writes into.
    var box: ObjectBox { encoder.box(core.object) }
    var path: CodingPathNode { encoder.path(of: core) }

    var codingPath: [any CodingKey] { path.path }

    /// The stored name of `key` (converted when a key strategy asks for it).
    @inline(__always)
    private func name(of key: Key) -> String {
        encoder.options.convertsKeys && Key.self != ArchiveCodingKey.self
            ? encoder.convertedKey(key, at: path) : key.stringValue
    }

    @inline(__always)
    private func put(_ value: ObjectBox.Value, forKey key: Key) {
        let name = name(of: key)
        let object = core.object
        if object.kind == .fields {
            // Through the table, not `box`: making a box retains the table.
            let table = encoder.table
            table.appendField(key: table.keyID(name, cache: keyCache), value, uid: object.uid, hint: object.level)
        } else {
            box.appendEntry(key: encoder.table.string(name), value: encoder.elementUID(encoder.objectUID(value)))
        }
    }

    mutating func encodeNil(forKey key: Key) throws { put(.uid(0), forKey: key) }

    // A nil optional property is written as `$null` (UID 0) under its key, as NSCoding's
    // `encodeObject:nil forKey:` does, so readers that decode the key without checking
    // `containsValue(forKey:)` get nil rather than a missing key (which traps on Linux).
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) } }

    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.uid(encoder.table.string(value)), forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if !value.isFinite, encoder.options.checksFloats { return put(try encoder.nonConformingFloat(value, at: path.appending(key)), forKey: key) }
        put(.real(value), forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        if !value.isFinite, encoder.options.checksFloats { return put(try encoder.nonConformingFloat(value, at: path.appending(key)), forKey: key) }
        put(.float(value), forKey: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.integer(Int64(value)), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(UInt64(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        // Above Int64.max a number needs the 16-byte form, which is an object (as NSNumber writes it).
        if value <= UInt64(Int64.max) {
            put(.integer(Int64(value)), forKey: key)
        } else {
            put(.uid(encoder.table.unsignedInteger(value)), forKey: key)
        }
    }

    /// `Int128` and `UInt128` (see ArchiveEncoder+Int128.swift): inline within `Int64`, an
    /// integer object beyond, as for `UInt64`.
    mutating func encode(wide value: PropertyListWideInteger, forKey key: Key) throws {
        if let small = value.int64Value {
            put(.integer(small), forKey: key)
        } else {
            put(.uid(encoder.table.wideInteger(value)), forKey: key)
        }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        // A nested value of this same Key type (a struct that contains itself) moves the
        // key cache's cursor past its own keys: put it back at this object's next key, so
        // that `key` is found at once rather than by a scan.
        let cursor = keyCache.cursor
        let uid = try encoder.box(value, key: key, in: core)
        keyCache.cursor = cursor
        put(.uid(uid), forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let made = encoder.makeObject(kind: .dictionary)
        put(.uid(made.uid), forKey: key)
        return ArchiveKeyedEncodingContainer<NestedKey>.handOut(encoder: encoder, object: .init(made.box), frame: -1, path: path.appending(key))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let made = encoder.makeObject(kind: .array)
        put(.uid(made.uid), forKey: key)
        return ArchiveUnkeyedEncodingContainer(encoder: encoder, object: .init(made.box), path: path.appending(key))
    }

    /// The superclass's fields go into this same object, like `[super encodeWithCoder:]`.
    mutating func superEncoder() -> any Encoder {
        encoder.subEncoder(path: path.appending(ArchiveCodingKey.super), target: .keyed(core.object), patch: nil)
    }

    /// A nested object under `key`, filled in by whatever the caller encodes next.
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let patch: _ArchiveEncoder.Patch
        if box.kind == .fields {
            patch = .field(box, box.appendPlaceholder(key: encoder.table.keyID(name(of: key), cache: keyCache)))
        } else {
            put(.uid(0), forKey: key)
            patch = .element(box, box.count - 1)
        }
        return encoder.subEncoder(path: path.appending(key), target: .none, patch: patch)
    }
}

/// The state of an ``ArchiveKeyedEncodingContainer`` that changes from object to object,
/// whatever its Key type.
///
/// Its fields change only when a container that nobody holds any more is handed out again
/// for another object of the same encoder (see `KeyedEncodingContainerReuse.swift`). It
/// keeps the object's handle without its table (the encoder's), and its path as a frame of
/// the encoder's (see EncodingPathFrames.swift) when it can, so that pointing it at another
/// object retains nothing.
final class ArchiveKeyedEncodingCore {
    /// The encoder the container was made with (it holds it).
    let encoderID: ObjectIdentifier
    @exclusivity(unchecked) private(set) var object: _ArchiveEncoder.OpenHandle
    /// The path: the encoder's frame `frame`, or `node` when `frame` is -1.
    @exclusivity(unchecked) private(set) var frame: Int
    @exclusivity(unchecked) private(set) var node: CodingPathNode
    /// Where the core is kept as a spare (see `isIdle`), with its level; -1 when it is not.
    private let cache: KeyIDCache
    private let level: Int

    init(encoder: _ArchiveEncoder, object: _ArchiveEncoder.OpenHandle, cache: KeyIDCache, level: Int) {
        encoderID = ObjectIdentifier(encoder)
        self.object = object
        self.cache = cache
        self.level = level
        frame = -1
        node = .root
    }

    /// Points the core at another object, at the encoder's frame `frame`.
    @inline(__always)
    func reset(object: _ArchiveEncoder.OpenHandle, frame: Int) {
        self.object = object
        self.frame = frame
    }

    /// Gives the core its path as a node (its frame is going, or it never had one).
    func pin(_ node: CodingPathNode) {
        self.node = node
        frame = -1
    }

    /// Whether nobody holds the core's container but its cache, which hands it out again
    /// (pointed at another object) before anyone can use it.
    var isIdle: Bool {
        guard level >= 0, level < cache.spares.count else { return false }
        return cache.spares[level].idleCore() === self
    }
}
