import Foundation

#if !KEYEDARCHIVE_SDK_BEFORE_IOS18  // the iOS 18 SDK's API (see ApplePlatforms.md)
// `Int128` and `UInt128` in every decoding container, through the same strict storage rules
// as the other integers (``_ArchiveDecoder/unboxInteger(_:from:at:)``): integer storage of
// any width, a real only when exact, never a boolean; a value that does not fit throws
// `DecodingError.dataCorrupted` with the coding path.

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension Int128: _ArchiveIntegerDecodable {}
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension UInt128: _ArchiveIntegerDecodable {}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension _ArchiveDecoder {
    func decode(_ type: Int128.Type) throws -> Int128 { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try unboxInteger(type, from: slot, at: pathNode) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ArchiveKeyedDecodingContainer {
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(type, key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(type, key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try optionalInteger(type, key) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ArchiveUnkeyedDecodingContainer {
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }
}
#endif
