import Foundation

/// `Array`, read straight from its unkeyed container: what `Array.init(from:)` does, minus
/// its costs here (the container as an existential, a protocol call per element, and
/// regrowing the array's storage from empty).
protocol _ArchiveArrayDecodable {
    static func _archiveDecodeArray(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: CodingPathNode) throws -> Self
}

extension _ArchiveArrayDecodable {
    /// Decodes `Self` for a caller that knows it as `T` (its traits were found for `T`, so
    /// `T` is `Self`): handed over without a dynamic cast (see `_ArchiveDecoder.cast`).
    @inline(__always)
    static func _archiveDecodeArray<T>(as type: T.Type, from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        try decoder.handOver(try _archiveDecodeArray(from: decoder, slot: slot, at: path()), as: T.self, at: path())
    }
}

extension Array: _ArchiveArrayDecodable where Element: Decodable {
    /// Capacity reserved up front at most: an archive's element count is not trusted with
    /// more memory than this before its elements have been read (and charged).
    private static var reserveLimit: Int { 4_096 }

    static func _archiveDecodeArray(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: CodingPathNode) throws -> [Element] {
        var container = try ArchiveUnkeyedDecodingContainer(decoder: decoder, slot: slot, path: path)
        var elements: [Element] = []
        elements.reserveCapacity(Swift.min(container.count ?? 0, reserveLimit))
        while !container.isAtEnd {
            elements.append(try container.decode(Element.self))
        }
        return elements
    }
}
