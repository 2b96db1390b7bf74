import Foundation

#if !KEYEDARCHIVE_SDK_BEFORE_IOS18  // the iOS 18 SDK's API (see ApplePlatforms.md)
// `Int128` and `UInt128` in every encoding container. The standard library's default
// implementations throw "not implemented"; here they are integers like the others: within
// 64 bits written exactly as `Int64`/`UInt64` are, beyond that a 16-byte integer object
// (32 bytes above `Int128.max`) in binary and decimal text in XML.

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension Int128: _ArchiveIntegerEncodable {}
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension UInt128: _ArchiveIntegerEncodable {}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension _ArchiveEncoder {
    func encode(_ value: Int128) throws { try encode(wide: PropertyListWideInteger(value)) }
    func encode(_ value: UInt128) throws { try encode(wide: PropertyListWideInteger(value)) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ArchiveUnkeyedEncodingContainer {
    mutating func encode(_ value: Int128) throws { try encode(wide: PropertyListWideInteger(value)) }
    mutating func encode(_ value: UInt128) throws { try encode(wide: PropertyListWideInteger(value)) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ArchiveKeyedEncodingContainer {
    mutating func encode(_ value: Int128, forKey key: Key) throws { try encode(wide: PropertyListWideInteger(value), forKey: key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try encode(wide: PropertyListWideInteger(value), forKey: key) }
    // nil is `$null` under the key, as for the other optional properties.
    mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
#endif
