import Foundation

extension NSCoder {
    /// Encodes a Codable value for a key inside `encode(with:)`.
    ///
    /// The value is written as a tree of Foundation objects (a struct as an `NSDictionary` of
    /// its fields, arrays as `NSArray`, dates as `NSDate`), the layout Apple's own
    /// `encodeEncodable(_:forKey:)` uses, through ``ArchiveEncoder`` and Foundation's
    /// `NSKeyedArchiver` alike. So whichever wrote it, ``ArchiveDecoder`` and Foundation's
    /// `NSKeyedUnarchiver` both read it back with ``decodeCodable(_:forKey:)``.
    ///
    /// ```swift
    /// func encode(with coder: NSCoder) {
    ///     try? coder.encodeCodable(settings, forKey: "settings")
    /// }
    /// ```
    public func encodeCodable<T: Encodable>(_ value: T, forKey key: String) throws {
        encode(try FoundationGraph.object(from: value), forKey: key)
        if let coder = self as? ArchiveNSCoder, let error = coder.encodingError { throw error }
    }

    /// Decodes a Codable value for a key inside `init?(coder:)`; `nil` when the key is
    /// missing or holds nil. Reads what ``encodeCodable(_:forKey:)`` writes through either
    /// coder, and Codable values archived by ``ArchiveEncoder``.
    ///
    /// With ``ArchiveDecoder`` the read is charged to the decode's depth, cycle and work
    /// limits, and, as with the other `NSCoder` reads, its first error fails the whole decode
    /// once `init?(coder:)` returns, even when the initializer catches it (`try?`).
    ///
    /// ```swift
    /// required init?(coder: NSCoder) {
    ///     guard let settings = try? coder.decodeCodable(Settings.self, forKey: "settings") else { return nil }
    ///     self.settings = settings
    /// }
    /// ```
    public func decodeCodable<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        if let coder = self as? ArchiveNSCoder, !coder.isEncoding {
            return try coder.decodeNatively(type, forKey: key)
        }
        // Foundation's unarchiver on Linux traps on a missing key, so look first.
        guard containsValue(forKey: key) else { return nil }
        let object = decodeObject(of: FoundationGraph.classes, forKey: key)
        if let error { throw error }
        guard let object, !(object is NSNull) else { return nil }
        return try FoundationGraph.decode(type, from: object)
    }
}
