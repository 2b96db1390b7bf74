import Foundation

/// `Array`, read straight from its unkeyed container: what `Array.init(from:)` does, minus
/// its costs here (the container as an existential, a protocol call per element, and
/// regrowing the array's storage from empty).
protocol _ArchiveArrayDecodable {
    static func _archiveDecodeArray(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: DecodingPath) throws -> Self
}

extension _ArchiveArrayDecodable {
    /// Decodes `Self` for a caller that knows it as `T` (its traits were found for `T`, so
    /// `T` is `Self`): handed over without a dynamic cast (see `_ArchiveDecoder.cast`).
    @inline(__always)
    static func _archiveDecodeArray<T>(as type: T.Type, from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> DecodingPath) throws -> T {
        try decoder.handOver(try _archiveDecodeArray(from: decoder, slot: slot, at: path()), as: T.self, at: path().node)
    }
}

extension Array: _ArchiveArrayDecodable where Element: Decodable {
    static func _archiveDecodeArray(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: DecodingPath) throws -> [Element] {
        var container = try ArchiveUnkeyedDecodingContainer(decoder: decoder, slot: slot, path: path)
        // Arrays of the common leaf types are read through the container's concrete
        // `decode` (what `decode(Element.self)` ends up doing for them, through fewer
        // generic steps and no runtime lookup of `[Element]`'s metadata). When `Element`
        // is `String` (`Int`, `Double`), `[Element]` is `[String]` (…): the bit cast is
        // an identity.
        if Element.self == String.self {
            return unsafeBitCast(try container.collectStrings(), to: [Element].self)
        }
        if Element.self == Int.self {
            return unsafeBitCast(try container.collect { try $0.decode(Int.self) }, to: [Element].self)
        }
        if Element.self == Double.self {
            return unsafeBitCast(try container.collect { try $0.decode(Double.self) }, to: [Element].self)
        }
        return try container.collect { try $0.decode(Element.self) }
    }
}

extension ArchiveUnkeyedDecodingContainer {
    /// Capacity reserved up front at most, whatever the element size: an archive's element
    /// count is not trusted with more memory than this before its elements have been read
    /// (and charged).
    static var reserveLimit: Int { 4_096 }

    /// The capacity to reserve for `count` elements of `stride` bytes in an archive of
    /// `inputBytes` bytes: every element when they take no more memory than the archive
    /// itself (so that a large array is made once, not regrown from 4,096 elements by
    /// copies into fresh pages), else at most ``reserveLimit``. An array of n elements
    /// holds n references in the file, so what is reserved stays within the input's size.
    static func reservation(count: Int, stride: Int, inputBytes: Int) -> Int {
        Swift.min(count, Swift.max(reserveLimit, inputBytes / Swift.max(stride, 1)))
    }

    /// Every remaining element, each read by `next`.
    @inline(__always)
    mutating func collect<Element>(_ next: (inout Self) throws -> Element) throws -> [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(Self.reservation(count: count ?? 0, stride: MemoryLayout<Element>.stride,
                                                  inputBytes: decoder.plist.bytes.count))
        while !isAtEnd {
            elements.append(try next(&self))
        }
        return elements
    }
}
