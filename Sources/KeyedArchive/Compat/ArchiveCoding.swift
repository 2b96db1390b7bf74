import Foundation

/// The `NSCoding` style without `NSObject`: a class writes and reads its own fields by key.
///
/// For code moving off `NSCoding` where `@objc` is not available (Linux), or for classes
/// that prefer `encode(with:)`/`init(coder:)` to `CodingKeys`. An adopting class is
/// `Codable` (default implementations are provided), so it sits inside any Codable graph;
/// with ``ArchiveEncoder`` it is an archived object of its own class, exactly as an
/// `NSCoding` class with the same `encode(with:)` would be.
///
/// ```swift
/// final class Account: ArchiveCoding {
///     var owner: String
///     var balance: Int
///     init(owner: String, balance: Int) { self.owner = owner; self.balance = balance }
///
///     func encode(with coder: ArchiveKeyedEncoder) throws {
///         try coder.encode(owner, forKey: "owner")
///         try coder.encode(balance, forKey: "balance")
///     }
///     init(coder: ArchiveKeyedDecoder) throws {
///         owner = try coder.decode(String.self, forKey: "owner") ?? ""
///         balance = try coder.decodeInteger(forKey: "balance")
///     }
/// }
/// ```
///
/// A subclass calls `try super.encode(with: coder)` and `try super.init(coder: coder)`:
/// both write to and read from the same object, like `[super encodeWithCoder:]`. A class
/// that is not `final` declares the `Decodable` initializer itself (Swift requires it of
/// every subclass), in one line:
///
/// ```swift
/// required convenience init(from decoder: any Decoder) throws {
///     try self.init(readingFrom: decoder)
/// }
/// ```
///
/// As with `NSCoder`, a limit, cycle or allow-list error met while ``init(coder:)`` runs
/// fails the whole decode even if the initializer catches it (`try?`): ``ArchiveKeyedDecoder``
/// keeps the first error and throws it again after ``init(coder:)`` returns.
public protocol ArchiveCoding: AnyObject, Codable {
    /// Writes the object's fields.
    func encode(with coder: ArchiveKeyedEncoder) throws
    /// Reads the object's fields.
    init(coder: ArchiveKeyedDecoder) throws
}

extension ArchiveCoding {
    /// Encodes through ``encode(with:)`` into a string-keyed container.
    public func encode(to encoder: any Encoder) throws {
        try encode(with: ArchiveKeyedEncoder(encoder))
    }

    /// Decodes through ``init(coder:)`` from a string-keyed container.
    public init(from decoder: any Decoder) throws {
        try self.init(readingFrom: decoder)
    }

    /// Runs ``init(coder:)`` over `decoder`, then throws the first error the coder met even
    /// if the initializer caught it (what the default `init(from:)` does; a non-final class
    /// calls it from its own `required convenience init(from:)`).
    ///
    /// ```swift
    /// required convenience init(from decoder: any Decoder) throws {
    ///     try self.init(readingFrom: decoder)
    /// }
    /// ```
    public init(readingFrom decoder: any Decoder) throws {
        let coder = try ArchiveKeyedDecoder(decoder)
        try self.init(coder: coder)
        try coder.rethrowRecordedError()
    }
}

/// The keyed API an ``ArchiveCoding`` class writes its fields with, shaped like `NSCoder`'s.
///
/// Works with any `Encoder`; with ``ArchiveEncoder`` numbers and booleans are stored inline
/// and objects by reference, as `NSKeyedArchiver` stores them.
public struct ArchiveKeyedEncoder {
    private let container: KeyedEncodingContainer<ArchiveCodingKey>
    /// With ArchiveEncoder: the encoder and the object being written, for `encodeObject`.
    private let archive: (encoder: _ArchiveEncoder, box: ObjectBox, path: CodingPathNode)?

    /// A keyed encoder over `encoder` (any `Encoder`).
    public init(_ encoder: any Encoder) {
        container = encoder.container(keyedBy: ArchiveCodingKey.self)
        if let archiveEncoder = encoder as? _ArchiveEncoder, case .keyed(let handle) = archiveEncoder.target {
            archive = (archiveEncoder, archiveEncoder.box(handle), archiveEncoder.pathNode)
        } else {
            archive = nil
        }
    }

    private func key(_ name: String) -> ArchiveCodingKey { ArchiveCodingKey(stringValue: name) }

    /// The coding path of the object being written.
    public var codingPath: [any CodingKey] { container.codingPath }

    /// Writes a number or boolean inline under `key`, as `NSCoder` does.
    public func encode(_ value: Bool, forKey key: String) throws { var c = container; try c.encode(value, forKey: self.key(key)) }
    /// Writes a number inline under `key`.
    public func encode(_ value: Int, forKey key: String) throws { var c = container; try c.encode(value, forKey: self.key(key)) }
    /// Writes a number inline under `key`.
    public func encode(_ value: Int32, forKey key: String) throws { var c = container; try c.encode(value, forKey: self.key(key)) }
    /// Writes a number inline under `key`.
    public func encode(_ value: Int64, forKey key: String) throws { var c = container; try c.encode(value, forKey: self.key(key)) }
    /// Writes a number inline under `key`.
    public func encode(_ value: Float, forKey key: String) throws { var c = container; try c.encode(value, forKey: self.key(key)) }
    /// Writes a number inline under `key`.
    public func encode(_ value: Double, forKey key: String) throws { var c = container; try c.encode(value, forKey: self.key(key)) }

    /// Writes any Codable value (nil writes UID 0, as `NSCoder.encode(nil, forKey:)` does).
    public func encode<T: Encodable>(_ value: T?, forKey key: String) throws {
        var c = container
        if let value { try c.encode(value, forKey: self.key(key)) } else { try c.encodeNil(forKey: self.key(key)) }
    }

    /// Writes an `NSCoding` object or Foundation value, as `NSCoder.encode(_:forKey:)` does.
    /// Needs ``ArchiveEncoder``; other encoders throw.
    public func encodeObject(_ object: Any?, forKey key: String) throws {
        guard let archive else {
            throw EncodingError.invalidValue(object as Any, EncodingError.Context(
                codingPath: codingPath + [self.key(key)], debugDescription: "encodeObject(_:forKey:) needs ArchiveEncoder."))
        }
        let uid = try archive.encoder.encodeFoundationObject(object, at: archive.path.appending(self.key(key)))
        archive.box.append(key: archive.encoder.table.keyID(key), .uid(uid))
    }
}

/// The keyed API an ``ArchiveCoding`` class reads its fields with, shaped like `NSCoder`'s:
/// a missing key reads as 0, `false` or `nil`.
///
/// Over ``ArchiveDecoder`` it behaves as `NSCoder` does: the first error any read meets is
/// kept, every later read throws it again, and it fails the whole decode after
/// ``ArchiveCoding/init(coder:)`` returns, even if the initializer caught it. So a limit,
/// cycle or allow-list error can never be turned into a partial object with `try?`.
public struct ArchiveKeyedDecoder {
    /// The first error met while reading, shared by the copies of one coder.
    final class ErrorRecord {
        var first: (any Error)?
    }

    private let container: KeyedDecodingContainer<ArchiveCodingKey>
    private let archive: (decoder: _ArchiveDecoder, container: ArchiveKeyedDecodingContainer<ArchiveCodingKey>, record: ErrorRecord)?

    /// A keyed decoder over `decoder` (any `Decoder`).
    public init(_ decoder: any Decoder) throws {
        if let archiveDecoder = decoder as? _ArchiveDecoder {
            let own = try ArchiveKeyedDecodingContainer<ArchiveCodingKey>(decoder: archiveDecoder, slot: archiveDecoder.slot, path: archiveDecoder.pathNode)
            container = KeyedDecodingContainer(own)
            archive = (archiveDecoder, own, ErrorRecord())
        } else {
            container = try decoder.container(keyedBy: ArchiveCodingKey.self)
            archive = nil
        }
    }

    init(decoder: _ArchiveDecoder, container own: ArchiveKeyedDecodingContainer<ArchiveCodingKey>) {
        container = KeyedDecodingContainer(own)
        archive = (decoder, own, ErrorRecord())
    }

    private func key(_ name: String) -> ArchiveCodingKey { ArchiveCodingKey(stringValue: name) }

    /// Runs a read; over ArchiveDecoder, keeps its error (or throws the one kept before).
    private func reading<T>(_ body: () throws -> T) throws -> T {
        guard let record = archive?.record else { return try body() }
        if let first = record.first { throw first }
        do {
            return try body()
        } catch {
            record.first = error
            throw error
        }
    }

    /// Throws the first error a read met, if any (called once `init(coder:)` returns).
    func rethrowRecordedError() throws {
        if let first = archive?.record.first { throw first }
    }

    /// The coding path of the object being read.
    public var codingPath: [any CodingKey] { container.codingPath }

    /// Whether the object has a value (possibly nil) for `key`.
    public func containsValue(forKey key: String) -> Bool { container.contains(self.key(key)) }

    /// Reads a boolean; `false` when the key is missing.
    public func decodeBool(forKey key: String) throws -> Bool { try reading { try container.decodeIfPresent(Bool.self, forKey: self.key(key)) ?? false } }
    /// Reads a number; 0 when the key is missing. Throws when it does not fit.
    public func decodeInteger(forKey key: String) throws -> Int { try reading { try container.decodeIfPresent(Int.self, forKey: self.key(key)) ?? 0 } }
    /// Reads a number; 0 when the key is missing. Throws when it does not fit.
    public func decodeInt32(forKey key: String) throws -> Int32 { try reading { try container.decodeIfPresent(Int32.self, forKey: self.key(key)) ?? 0 } }
    /// Reads a number; 0 when the key is missing. Throws when it does not fit.
    public func decodeInt64(forKey key: String) throws -> Int64 { try reading { try container.decodeIfPresent(Int64.self, forKey: self.key(key)) ?? 0 } }
    /// Reads a number; 0 when the key is missing. Throws when it does not fit.
    public func decodeFloat(forKey key: String) throws -> Float { try reading { try container.decodeIfPresent(Float.self, forKey: self.key(key)) ?? 0 } }
    /// Reads a number; 0 when the key is missing. Throws when it does not fit.
    public func decodeDouble(forKey key: String) throws -> Double { try reading { try container.decodeIfPresent(Double.self, forKey: self.key(key)) ?? 0 } }

    /// Reads any Codable value; `nil` when the key is missing or holds nil.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        try reading { try container.decodeIfPresent(type, forKey: self.key(key)) }
    }

    /// Reads an `NSCoding` object or Foundation value, as `NSCoder.decodeObject(of:forKey:)`
    /// does. Needs ``ArchiveDecoder``; other decoders throw.
    ///
    /// With `classes`, the object must be of one of them (a Foundation value class, or a
    /// subclass of one, such as `NSString` or `NSArray`; an `NSCoding` or ``ArchiveCoding``
    /// class exactly), and so must every element of a collection; the decoder's
    /// `allowedClasses` and registrations do not add to the list. With `nil` (the default),
    /// Foundation value classes and the classes the decoder allows or registers are read.
    ///
    /// ```swift
    /// let dog = try coder.decodeObject(of: [Dog.self], forKey: "dog") as? Dog
    /// ```
    public func decodeObject(of classes: [AnyClass]? = nil, forKey key: String) throws -> Any? {
        guard let archive else {
            throw DecodingError.archive(.dataCorrupted, "decodeObject(of:forKey:) needs ArchiveDecoder.",
                                        codingPath: codingPath + [self.key(key)], key: key)
        }
        return try reading {
            guard let slot = try archive.container.find(self.key(key)) else { return nil }
            return try archive.decoder.decodeFoundationObject(slot, allowed: classes, at: archive.container.path.appending(self.key(key)))
        }
    }
}
