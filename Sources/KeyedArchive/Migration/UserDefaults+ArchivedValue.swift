import Foundation

extension UserDefaults {
    /// Reads a value an app archived under a defaults key, as a Codable type.
    ///
    /// Apps stored `NSKeyedArchiver.archivedData(withRootObject:)` data under a key (a
    /// logged-in user, a settings object, recent items). This decodes that data with
    /// `decoder`, as ``ArchiveDecoder/decode(_:from:)`` does: the type decides how each
    /// object is read, and no class is instantiated that `decoder` does not allow (see
    /// ``ArchiveDecoder/allowedClasses``).
    ///
    /// ```swift
    /// struct User: Codable {
    ///     var name: String
    ///     var lastLogin: Date       // an NSDate in the old blob
    /// }
    ///
    /// if let user = try UserDefaults.standard.archivedValue(User.self, forKey: "currentUser") {
    ///     print(user.name)
    /// }
    /// ```
    ///
    /// - Returns: The value, or `nil` when there is no value under `key`.
    /// - Throws: The `DecodingError` of ``ArchiveDecoder`` when the data under `key` is not
    ///   a keyed archive of `type`; a `DecodingError.typeMismatch` when the value under `key`
    ///   is not data at all (a string, a number…). Nothing under `key` is changed either way.
    public func archivedValue<Value: Decodable>(_ type: Value.Type, forKey key: String,
                                                decoder: ArchiveDecoder = ArchiveDecoder()) throws -> Value? {
        guard let object = object(forKey: key) else { return nil }
        guard let data = object as? Data else {
            throw DecodingError.archive(.typeMismatch(Data.self),
                                        "The defaults value under \"\(key)\" is \(Self.kind(of: object)), not archived data",
                                        codingPath: [], key: key)
        }
        return try decoder.decode(type, from: data)
    }

    /// Archives a value under a defaults key, in the layout `NSKeyedArchiver` writes.
    ///
    /// The data is what `encoder` writes for `value` (``ArchiveEncoder/encode(_:)``: the
    /// root object under `root`, as `NSKeyedArchiver.archivedData(withRootObject:)` writes
    /// it), so an older version of the app that reads the key with `NSKeyedUnarchiver` still
    /// can, as long as the objects carry the class names it registered: give them with
    /// ``ArchivedClass`` or ``ArchiveEncoder/setClassName(_:superclassNames:for:)``.
    ///
    /// ```swift
    /// struct User: Codable, ArchivedClass {
    ///     static let archivedClassName = "User"     // the NSCoding class version 1 reads
    ///     var name: String
    ///     var lastLogin: Date
    /// }
    ///
    /// try UserDefaults.standard.setArchivedValue(user, forKey: "currentUser")
    /// ```
    ///
    /// - Throws: The encoder's `EncodingError`; the value under `key` is then left as it was.
    public func setArchivedValue<Value: Encodable>(_ value: Value, forKey key: String,
                                                   encoder: ArchiveEncoder = ArchiveEncoder()) throws {
        set(try encoder.encode(value), forKey: key)
    }

    /// What a defaults value is, for messages: "a string", "a number"…
    private static func kind(of object: Any) -> String {
        switch object {
        case is String: return "a string"
        case is NSNumber: return "a number"
        case is Date: return "a date"
        case is [Any]: return "an array"
        case is [String: Any]: return "a dictionary"
        default: return "a \(type(of: object))"
        }
    }
}
