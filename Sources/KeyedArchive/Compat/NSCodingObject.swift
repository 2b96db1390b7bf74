import Foundation

/// Holds an `NSCoding` object inside a Codable type, archived natively.
///
/// With ``ArchiveEncoder``/``ArchiveDecoder`` the object is written by its own
/// `encode(with:)` into the same object table as the struct around it (an object of its
/// class with its fields, not a blob), and read back with `init?(coder:)`; its class is
/// allowed by the property's type. With other encoders (JSON…) it is stored as
/// `NSKeyedArchiver` data, which Foundation's `NSKeyedUnarchiver` reads.
///
/// The property's type decides which class runs: the archived object is instantiated only
/// if its class is `Object` itself (or a name registered with
/// ``ArchiveDecoder/setClass(_:forClassName:)`` for `Object`), checked before any
/// initializer runs. Subclasses of `Object` are not instantiated, and the decoder's
/// `allowedClasses` do not widen the property. What `Object`'s own `init?(coder:)` reads is
/// governed by the classes it passes to `decodeObject(of:forKey:)`.
///
/// ```swift
/// struct Profile: Codable {
///     var name: String
///     @NSCodingObject var legacySettings: LegacySettings     // an NSObject & NSCoding class
/// }
/// ```
@propertyWrapper
public struct NSCodingObject<Object: NSObject & NSCoding>: Codable {
    /// The object.
    public var wrappedValue: Object

    /// Wraps an object.
    public init(wrappedValue: Object) {
        self.wrappedValue = wrappedValue
    }

    /// Other encoders: `NSKeyedArchiver` data.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try NSKeyedArchiver.archivedData(withRootObject: wrappedValue, requiringSecureCoding: false))
    }

    /// Other decoders: `NSKeyedArchiver` data, read by ``ArchiveDecoder`` (never by
    /// Foundation's unarchiver) allowing only `Object`, with its default limits.
    public init(from decoder: any Decoder) throws {
        let data = try decoder.singleValueContainer().decode(Data.self)
        do {
            self = try ArchiveDecoder().decode(NSCodingObject.self, from: data)
        } catch {
            throw DecodingError.archive(.dataCorrupted,
                                        "The archived \(Object.self) could not be read: \(KeyedArchiveError.message(of: error))",
                                        codingPath: decoder.codingPath, key: decoder.codingPath.last?.stringValue)
        }
    }
}

extension NSCodingObject: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        try encoder.encodeNSCoding(wrappedValue, at: path())
    }
}

extension NSCodingObject: _ArchiveSpecialDecodable {
    static var _archiveEntersItself: Bool { true }
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> NSCodingObject {
        let path = path()
        let decoded = try decoder.decodeFoundationObject(slot, allowed: [Object.self], at: path)
        guard let object = decoded as? Object else {
            throw decoder.typeMismatch(Object.self, found: decoded.map { "a decoded \(type(of: $0))" } ?? "nil", slot: slot, at: path)
        }
        return NSCodingObject(wrappedValue: object)
    }
}
