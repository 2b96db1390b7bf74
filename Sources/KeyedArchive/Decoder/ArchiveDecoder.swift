import Foundation

/// Decodes `Decodable` values from keyed archives, the format of `NSKeyedArchiver`.
///
/// Shaped like `JSONDecoder`. Reads binary and XML archives, whether written by
/// ``ArchiveEncoder`` or by Foundation's `NSKeyedArchiver` on any platform. The caller's
/// type decides how to read each object: class names in the archive select nothing.
///
/// ```swift
/// struct Person: Codable { var name: String; var age: Int }
///
/// let person = try ArchiveDecoder().decode(Person.self, from: data)
/// ```
///
/// Malformed input throws a `DecodingError` whose context names the object index and key;
/// it never traps. ``Limits`` bound the work a hostile archive can cause.
open class ArchiveDecoder: @unchecked Sendable {
    /// Bounds on the work one `decode` call may do, as protection against malicious input.
    public struct Limits: Sendable, Hashable {
        /// Objects nested deeper than this throw. Default 512, like Apple's property-list reader.
        public var maxDepth: Int = 512
        /// The most objects one decode may visit, counting a shared object once per place
        /// it is used. `nil` (the default) allows 16 per byte of input plus 65,536, which no
        /// real archive reaches but stops archives that fan out exponentially.
        public var maxObjectVisits: Int?

        /// The default limits.
        public init(maxDepth: Int = 512, maxObjectVisits: Int? = nil) {
            self.maxDepth = maxDepth
            self.maxObjectVisits = maxObjectVisits
        }
    }

    private let lock = NSLock()
    private var _userInfo: [CodingUserInfoKey: any Sendable] = [:]
    private var _limits = Limits()

    /// Contextual information handed to every `init(from:)` as `decoder.userInfo`.
    open var userInfo: [CodingUserInfoKey: any Sendable] {
        get { lock.withLock { _userInfo } }
        set { lock.withLock { _userInfo = newValue } }
    }

    /// Limits on depth and total work; see ``Limits``.
    open var limits: Limits {
        get { lock.withLock { _limits } }
        set { lock.withLock { _limits = newValue } }
    }

    /// Creates a decoder with the default options.
    public init() {}

    /// Decodes the value under the top-level key `root` (what `NSKeyedArchiver.archivedData(withRootObject:)` writes).
    ///
    /// ```swift
    /// let tags = try ArchiveDecoder().decode([String].self, from: data)
    /// ```
    open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, forKey: "root", from: data)
    }

    /// Decodes the value under top-level key `key`, for archives with several top-level values.
    ///
    /// ```swift
    /// let one = try ArchiveDecoder().decode(Person.self, forKey: "personOne", from: data)
    /// ```
    open func decode<T: Decodable>(_ type: T.Type, forKey key: String, from data: Data) throws -> T {
        let (userInfo, limits) = lock.withLock { (_userInfo, _limits) }
        let document = try Self.open(data, maxDepth: limits.maxDepth)
        guard let entry = document.top.first(where: { $0.key == key }) else {
            let keys = document.top.map { "'\($0.key)'" }.joined(separator: ", ")
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [],
                debugDescription: "The archive has no top-level key '\(key)' (its $top keys: \(keys.isEmpty ? "none" : keys)).",
                underlyingError: KeyedArchiveError("no top-level key '\(key)'", key: key)))
        }
        let maxVisits = limits.maxObjectVisits
            ?? data.count.multipliedReportingOverflow(by: 16).partialValue &+ 65_536
        let state = ArchiveDecodingState(maxDepth: limits.maxDepth, maxObjects: maxVisits)
        let path = key == "root" ? CodingPathNode.root : .root.appending(ArchiveCodingKey(stringValue: key))
        let decoder = _ArchiveDecoder(document: document, state: state, userInfo: userInfo, slot: .uid(entry.uid), path: path)
        return try decoder.unbox(T.self, from: .uid(entry.uid), at: path)
    }

    /// The top-level keys of an archive, in file order.
    ///
    /// ```swift
    /// let keys = try ArchiveDecoder().topLevelKeys(in: data)   // ["personOne", "personTwo"]
    /// ```
    open func topLevelKeys(in data: Data) throws -> [String] {
        try Self.open(data, maxDepth: limits.maxDepth).top.map(\.key)
    }

    /// Opens the envelope, reporting any problem as `DecodingError.dataCorrupted`.
    static func open(_ data: Data, maxDepth: Int) throws -> ArchiveDocument {
        do {
            return try ArchiveDocument(data: data, maxDepth: maxDepth)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "The data is not a valid keyed archive: \(error)", underlyingError: error))
        }
    }
}

#if canImport(Combine)
import Combine

extension ArchiveDecoder: TopLevelDecoder {}
#endif
