import Foundation

extension NSCoder {
    /// Encodes a Codable value for a key inside `encode(with:)`.
    ///
    /// With ``ArchiveEncoder`` the value is written natively: a struct becomes an object of
    /// its own class in the same object table. With Foundation's `NSKeyedArchiver` it is
    /// written as a tree of Foundation objects (a struct as an `NSDictionary` of its
    /// fields), the layout Apple's own `encodeEncodable(_:forKey:)` uses, which
    /// ``ArchiveDecoder`` and ``decodeCodable(_:forKey:)`` both read.
    ///
    /// ```swift
    /// func encode(with coder: NSCoder) {
    ///     try? coder.encodeCodable(settings, forKey: "settings")
    /// }
    /// ```
    public func encodeCodable<T: Encodable>(_ value: T, forKey key: String) throws {
        if let coder = self as? ArchiveNSCoder, coder.isEncoding {
            try coder.encodeNatively(value, forKey: key)
            return
        }
        encode(try FoundationGraph.object(from: value), forKey: key)
    }

    /// Decodes a Codable value for a key inside `init?(coder:)`; `nil` when the key is
    /// missing or holds nil. Reads what ``encodeCodable(_:forKey:)`` writes through either
    /// coder, and Codable values archived by ``ArchiveEncoder``.
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
