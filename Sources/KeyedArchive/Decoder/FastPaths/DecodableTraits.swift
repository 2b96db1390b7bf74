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
}

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

/// Standard-library collections of elements: an unkeyed container opened for one never
/// reads an NSDictionary's keys and values as its elements.
protocol _ArchiveListType {}
extension Array: _ArchiveListType {}
extension Set: _ArchiveListType {}
extension ContiguousArray: _ArchiveListType {}
