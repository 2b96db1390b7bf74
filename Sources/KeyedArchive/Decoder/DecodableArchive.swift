import Foundation

/// An archive read once for decoding several of its top-level values, which share one
/// object table: an instance of a class referenced under two keys decodes to one instance,
/// as `NSKeyedUnarchiver` gives it (decoding each key with
/// ``ArchiveDecoder/decode(_:forKey:from:)`` gives one instance per call).
///
/// Get one from ``ArchiveDecoder/archive(from:)``, then ask it for each key:
///
/// ```swift
/// final class Dog: Codable { var name = "Rex" }
/// struct Person: Codable { var name: String; var dog: Dog }
///
/// let dog = Dog()
/// let data = try ArchiveEncoder().encode(topLevel: ["personOne": Person(name: "Ada", dog: dog),
///                                                   "personTwo": Person(name: "Grace", dog: dog)])
/// let archive = try ArchiveDecoder().archive(from: data)
/// let one = try archive.decode(Person.self, forKey: "personOne")
/// let two = try archive.decode(Person.self, forKey: "personTwo")
/// assert(one.dog === two.dog)
/// ```
///
/// Each call decodes with the options its ``ArchiveDecoder`` has at the time of the call,
/// within a work budget of its own (see ``ArchiveDecoder/Limits``), and opens the data
/// again (cheap for a binary archive; an XML one is parsed again). The archive keeps its
/// data and the class instances decoded so far; it is not `Sendable`: use it from one task
/// at a time. A call that throws hands none of its instances on to later calls.
public final class DecodableArchive {
    /// The top-level keys, in file order, unescaped (Foundation stores `$0` as `$$0`).
    ///
    /// ```swift
    /// print(archive.topLevelKeys)   // ["personOne", "personTwo"]
    /// ```
    public let topLevelKeys: [String]
    private let data: Data
    private let decoder: ArchiveDecoder
    private let instances = ArchiveInstances()

    init(data: Data, decoder: ArchiveDecoder) throws {
        self.data = data
        self.decoder = decoder
        topLevelKeys = try decoder.topLevelKeys(in: data)
    }

    /// Decodes the value under top-level key `key`; a class instance decoded by an earlier
    /// call on this archive is the same instance here.
    ///
    /// ```swift
    /// let two = try archive.decode(Person.self, forKey: "personTwo")
    /// ```
    ///
    /// - Throws: what ``ArchiveDecoder/decode(_:forKey:from:)`` throws.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T {
        try data.withUnsafeBytes { bytes in
            try decoder.withSession(bytes, file: nil, identity: instances) { try decoder.decode(T.self, forKey: key, in: $0) }
        }
    }

    /// Decodes the archive's value as ``ArchiveDecoder/decode(_:from:)`` reads it (the value
    /// under `root`), sharing instances with the other calls on this archive.
    ///
    /// ```swift
    /// let root = try archive.decode(Settings.self)
    /// ```
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try data.withUnsafeBytes { bytes in
            try decoder.withSession(bytes, file: nil, identity: instances) { try decoder.decodeRoot(T.self, in: $0) }
        }
    }
}

/// The class instances of one archive decoded so far, by UID, handed from one session to
/// the next (see ``DecodableArchive``).
final class ArchiveInstances {
    var byUID: [Int: AnyObject] = [:]
}

extension ArchiveDecoder {
    /// Reads an archive once for decoding several of its top-level values with one object
    /// table, so that an instance of a class shared between them decodes once; see
    /// ``DecodableArchive``.
    ///
    /// ```swift
    /// let archive = try ArchiveDecoder().archive(from: data)
    /// let one = try archive.decode(Person.self, forKey: "personOne")
    /// let two = try archive.decode(Person.self, forKey: "personTwo")
    /// ```
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the data is not a keyed archive (what
    ///   ``decode(_:from:)`` throws for it).
    public func archive(from data: Data) throws -> DecodableArchive {
        try DecodableArchive(data: data, decoder: self)
    }
}
