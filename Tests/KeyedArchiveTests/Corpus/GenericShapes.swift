import Foundation

// Issue 52: two generic value types in the shapes real code uses, to read whole archives
// with. Each tries an unkeyed container (or an array) before a dictionary, as they do with
// JSONDecoder, where an object refuses an unkeyed container.

/// The key of ``QuicktypeJSONAny``'s keyed containers, as quicktype generates it.
struct JSONCodingKey: CodingKey {
    let key: String
    init?(intValue: Int) { nil }
    init?(stringValue: String) { key = stringValue }
    var intValue: Int? { nil }
    var stringValue: String { key }
}

/// quicktype's generated `JSONAny`, in its shape: an unkeyed container first, then a keyed
/// one, then a single value; inside containers the scalar probes first, then nil, then a
/// nested unkeyed container, then a nested keyed one. (Data and dates, which property lists
/// hold and JSON does not, are probed last.)
final class QuicktypeJSONAny: Decodable {
    let value: Any

    struct Null: Hashable {}

    init(from decoder: any Decoder) throws {
        if var arrayContainer = try? decoder.unkeyedContainer() {
            value = try Self.decodeArray(from: &arrayContainer)
        } else if var container = try? decoder.container(keyedBy: JSONCodingKey.self) {
            value = try Self.decodeDictionary(from: &container)
        } else {
            value = try Self.decode(from: try decoder.singleValueContainer())
        }
    }

    static func decode(from container: any SingleValueDecodingContainer) throws -> Any {
        if let value = try? container.decode(Bool.self) { return value }
        if let value = try? container.decode(Int64.self) { return value }
        if let value = try? container.decode(UInt64.self) { return value }
        if let value = try? container.decode(Double.self) { return value }
        if let value = try? container.decode(String.self) { return value }
        if container.decodeNil() { return Null() }
        if let value = try? container.decode(Data.self) { return value }
        if let value = try? container.decode(Date.self) { return value }
        throw DecodingError.typeMismatch(QuicktypeJSONAny.self, DecodingError.Context(codingPath: container.codingPath, debugDescription: "Cannot decode JSONAny"))
    }

    static func decode(from container: inout any UnkeyedDecodingContainer) throws -> Any {
        if let value = try? container.decode(Bool.self) { return value }
        if let value = try? container.decode(Int64.self) { return value }
        if let value = try? container.decode(UInt64.self) { return value }
        if let value = try? container.decode(Double.self) { return value }
        if let value = try? container.decode(String.self) { return value }
        if let isNil = try? container.decodeNil(), isNil { return Null() }
        if var nested = try? container.nestedUnkeyedContainer() { return try decodeArray(from: &nested) }
        if var nested = try? container.nestedContainer(keyedBy: JSONCodingKey.self) { return try decodeDictionary(from: &nested) }
        if let value = try? container.decode(Data.self) { return value }
        if let value = try? container.decode(Date.self) { return value }
        throw DecodingError.typeMismatch(QuicktypeJSONAny.self, DecodingError.Context(codingPath: container.codingPath, debugDescription: "Cannot decode JSONAny"))
    }

    static func decode(from container: inout KeyedDecodingContainer<JSONCodingKey>, forKey key: JSONCodingKey) throws -> Any {
        if let value = try? container.decode(Bool.self, forKey: key) { return value }
        if let value = try? container.decode(Int64.self, forKey: key) { return value }
        if let value = try? container.decode(UInt64.self, forKey: key) { return value }
        if let value = try? container.decode(Double.self, forKey: key) { return value }
        if let value = try? container.decode(String.self, forKey: key) { return value }
        if let isNil = try? container.decodeNil(forKey: key), isNil { return Null() }
        if var nested = try? container.nestedUnkeyedContainer(forKey: key) { return try decodeArray(from: &nested) }
        if var nested = try? container.nestedContainer(keyedBy: JSONCodingKey.self, forKey: key) { return try decodeDictionary(from: &nested) }
        if let value = try? container.decode(Data.self, forKey: key) { return value }
        if let value = try? container.decode(Date.self, forKey: key) { return value }
        throw DecodingError.typeMismatch(QuicktypeJSONAny.self, DecodingError.Context(codingPath: container.codingPath + [key], debugDescription: "Cannot decode JSONAny"))
    }

    static func decodeArray(from container: inout any UnkeyedDecodingContainer) throws -> [Any] {
        var array: [Any] = []
        while !container.isAtEnd { array.append(try decode(from: &container)) }
        return array
    }

    static func decodeDictionary(from container: inout KeyedDecodingContainer<JSONCodingKey>) throws -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for key in container.allKeys { dictionary[key.stringValue] = try decode(from: &container, forKey: key) }
        return dictionary
    }

    /// Every string held (values and dictionary keys) and, apart, the dictionary keys.
    func strings() -> (all: Set<String>, keys: Set<String>) {
        var all = Set<String>(), keys = Set<String>()
        ReachableStringsTests.collect(value, into: &all, keys: &keys)
        return (all, keys)
    }
}

/// An `AnyCodable`-style value: a single value first (nil, ``ProbingValue/scalar(_:)``'s
/// probes, a date), then `[AnyCodableValue]`, then `[String: AnyCodableValue]`, at every
/// level; held as a ``ProbingValue``.
struct AnyCodableValue: Decodable {
    let value: ProbingValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { value = .null }
        else if let scalar = ProbingValue.scalar(container) { value = scalar }
        else if let date = try? container.decode(Date.self) { value = .date(date) }
        else if let items = try? container.decode([AnyCodableValue].self) { value = .array(items.map(\.value)) }
        else { value = .dictionary(try container.decode([String: AnyCodableValue].self).mapValues(\.value)) }
    }

    /// Every string held (values and dictionary keys) and, apart, the dictionary keys.
    func strings() -> (all: Set<String>, keys: Set<String>) {
        var leaves = Set<String>(), keys = Set<String>()
        value.collect(leaves: &leaves, keys: &keys)
        return (leaves.union(keys), keys)
    }
}
