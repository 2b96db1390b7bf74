import Foundation

/// A type that reads an `NSDictionary` from an unkeyed container, as its keys and values
/// alternately (`key0, value0, key1, value1, …`).
///
/// ``ArchiveDecoder`` gives an `NSDictionary`'s entries to `Decoder.unkeyedContainer()`
/// only for a type that asks for them: Swift's `Dictionary` (whose `init(from:)` reads
/// keys that are not `String` or `Int` that way) and any type that adopts this protocol.
/// Every other type gets `DecodingError.typeMismatch` ("expected an array, found an
/// NSDictionary"), as from `JSONDecoder`, so that a generic value that tries an unkeyed
/// container first reads a dictionary as a dictionary, never as a flat list of its keys
/// and values.
///
/// Adopt it for a dictionary type of your own that decodes alternating keys and values,
/// such as a wrapper of swift-collections' `OrderedDictionary` (which asks for an unkeyed
/// container whatever its key type):
///
/// ```swift
/// struct OrderedEntries<Key: Hashable & Decodable, Value: Decodable>: ArchiveKeyValuePairsDecodable {
///     var entries: [(key: Key, value: Value)] = []
///
///     init(from decoder: any Decoder) throws {
///         var container = try decoder.unkeyedContainer()
///         while !container.isAtEnd {
///             let key = try container.decode(Key.self)
///             entries.append((key, try container.decode(Value.self)))
///         }
///     }
/// }
///
/// let settings = try ArchiveDecoder().decode(OrderedEntries<URL, Int>.self, from: data)
/// ```
///
/// The rule applies to the type whose `init(from:)` asks, not to the types it calls: a
/// type that runs `Dictionary.init(from:)` on its own decoder (`try [URL: Int](from: decoder)`)
/// adopts this protocol too, or decodes the dictionary through
/// `decoder.singleValueContainer().decode([URL: Int].self)`. Nested unkeyed containers
/// (`nestedUnkeyedContainer()`) never read an `NSDictionary`. Other decoders ignore the
/// protocol.
public protocol ArchiveKeyValuePairsDecodable: Decodable {}
