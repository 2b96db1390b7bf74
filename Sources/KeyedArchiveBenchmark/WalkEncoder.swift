import Foundation

// The "Codable walk": an Encoder that visits every value through the Codable machinery
// (containers, keys, nested encode(to:) calls) and writes nothing. Its time is the floor
// under any Codable encoder for the same value. It keeps no coding path and no identity
// table, so a shared class instance is walked once per reference (as JSONEncoder does).

final class WalkEncoder: Encoder {
    /// Counts scalars and string bytes, so the walk has an observable result.
    var visited = 0
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func walk<T: Encodable>(_ value: T) throws -> Int {
        visited = 0
        try value.encode(to: self)
        return visited
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed(walker: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(walker: self) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single(walker: self) }

    @inline(__always) func scalar() { visited &+= 1 }
    @inline(__always) func string(_ s: String) { visited &+= s.utf8.count }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let walker: WalkEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: Bool, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: String, forKey key: Key) throws { walker.string(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: Float, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: Int, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: Int8, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: Int16, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: Int32, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: Int64, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: UInt, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { walker.scalar() }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { walker.scalar() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try value.encode(to: walker) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            walker.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { walker.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { walker }
        mutating func superEncoder(forKey key: Key) -> any Encoder { walker }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let walker: WalkEncoder
        var count = 0
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { count += 1; walker.scalar() }
        mutating func encode(_ value: Bool) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: String) throws { count += 1; walker.string(value) }
        mutating func encode(_ value: Double) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: Float) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: Int) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: Int8) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: Int16) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: Int32) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: Int64) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: UInt) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: UInt8) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: UInt16) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: UInt32) throws { count += 1; walker.scalar() }
        mutating func encode(_ value: UInt64) throws { count += 1; walker.scalar() }
        mutating func encode<T: Encodable>(_ value: T) throws { count += 1; try value.encode(to: walker) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            count += 1
            return walker.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { count += 1; return walker.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { count += 1; return walker }
    }

    struct Single: SingleValueEncodingContainer {
        let walker: WalkEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { walker.scalar() }
        mutating func encode(_ value: Bool) throws { walker.scalar() }
        mutating func encode(_ value: String) throws { walker.string(value) }
        mutating func encode(_ value: Double) throws { walker.scalar() }
        mutating func encode(_ value: Float) throws { walker.scalar() }
        mutating func encode(_ value: Int) throws { walker.scalar() }
        mutating func encode(_ value: Int8) throws { walker.scalar() }
        mutating func encode(_ value: Int16) throws { walker.scalar() }
        mutating func encode(_ value: Int32) throws { walker.scalar() }
        mutating func encode(_ value: Int64) throws { walker.scalar() }
        mutating func encode(_ value: UInt) throws { walker.scalar() }
        mutating func encode(_ value: UInt8) throws { walker.scalar() }
        mutating func encode(_ value: UInt16) throws { walker.scalar() }
        mutating func encode(_ value: UInt32) throws { walker.scalar() }
        mutating func encode(_ value: UInt64) throws { walker.scalar() }
        mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: walker) }
    }
}
