import Foundation

/// What `unbox` asks of a type, answered once per type and decode.
struct DecodableTraits {
    /// The type as `Optional` (nil or its wrapped type).
    let optional: (any _ArchiveOptionalDecodable.Type)?
    /// The type as one with a Foundation layout of its own.
    let special: (any _ArchiveSpecialDecodable.Type)?
    /// The type as `Array` (read element by element without `init(from:)`'s detours).
    let array: (any _ArchiveArrayDecodable.Type)?
    /// Whether the special type enters its object itself (depth, cycles, identity).
    let entersItself: Bool
    /// Whether instances are shared by UID (class identity).
    let isClass: Bool
    /// The type as a class decoded in two phases (created, recorded, then filled).
    let reference: (any ArchiveReferenceDecodable.Type)?
    /// Whether strict class-name checking applies (see `hasClassName(_:)`).
    let hasClassName: Bool
    /// Whether an unkeyed container opened by the type's `init(from:)` reads an
    /// NSDictionary as its keys and values alternately (see ``readsPairs(_:)``).
    let readsPairs: Bool

    /// Whether `type` asks an unkeyed container for an NSDictionary's keys and values:
    /// Swift's `Dictionary` (whose `init(from:)` does so when its key is not `String`,
    /// `Int` or `CodingKeyRepresentable`), detected as swift-foundation's `JSONDecoder`
    /// detects its dictionaries, through a marker protocol; and any type that adopts
    /// ``ArchiveKeyValuePairsDecodable``. Every other type is refused a dictionary there.
    static func readsPairs(_ type: Any.Type) -> Bool {
        type is any _ArchiveDictionaryMarker.Type || type is any ArchiveKeyValuePairsDecodable.Type
    }
}

/// Swift's `Dictionary`, for ``DecodableTraits/readsPairs(_:)``.
private protocol _ArchiveDictionaryMarker {}
extension Dictionary: _ArchiveDictionaryMarker {}

/// `Optional`, decoded as nil or as its wrapped type with all of that type's checks.
protocol _ArchiveOptionalDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> DecodingPath, inPlace: Bool) throws -> Self
}

extension _ArchiveOptionalDecodable {
    /// Decodes `Self` for a caller that knows it as `T` (its traits were found for `T`,
    /// so `T` is `Self`): handed over without a dynamic cast (see `_ArchiveDecoder.cast`).
    @inline(__always)
    static func _archiveDecode<T>(as type: T.Type, from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> DecodingPath, inPlace: Bool) throws -> T {
        try decoder.handOver(try _archiveDecode(from: decoder, slot: slot, at: path(), inPlace: inPlace), as: T.self, at: path().node)
    }
}

extension Optional: _ArchiveOptionalDecodable where Wrapped: Decodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> DecodingPath, inPlace: Bool) throws -> Optional {
        try decoder.charge(1)
        if decoder.isNil(slot) { return nil }
        return inPlace ? try decoder.decodeInPlace(Wrapped.self, at: path()) : try decoder.unbox(Wrapped.self, from: slot, at: path())
    }
}

/// Standard-library containers, whose archived class (NSArray, NSSet…) is not their type's
/// name; strict class-name checking skips them.
protocol _ArchiveContainerType {}
extension Array: _ArchiveContainerType {}
extension Set: _ArchiveContainerType {}
extension Dictionary: _ArchiveContainerType {}
extension Optional: _ArchiveContainerType {}
extension ContiguousArray: _ArchiveContainerType {}
