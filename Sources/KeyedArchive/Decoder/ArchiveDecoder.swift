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

    /// Whether an object's class name must match the type it is decoded as.
    public enum ClassNameChecking: Sendable, Hashable {
        /// The caller's type decides; class names are not compared (the default, as in FORMAT.md §5).
        case none
        /// An object decodes as a type only if its `$classname` is the type's archived name,
        /// an alias registered with ``ArchiveDecoder/setType(_:forClassName:)``, or the same
        /// name in another module (`OldApp.Person` for `Person`).
        case strict
    }

    private let lock = NSLock()
    private var _userInfo: [CodingUserInfoKey: any Sendable] = [:]
    private var _limits = Limits()
    private var _registry = ArchiveClassRegistry()
    private var _classNameChecking = ClassNameChecking.none
    private var _options = ArchiveDecodingOptions()

    /// Reads or changes the strategies under the lock (see ArchiveDecoder+Strategies.swift).
    func withOptions<R>(_ body: (inout ArchiveDecodingOptions) -> R) -> R {
        lock.withLock { body(&_options) }
    }

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

    /// Whether class names must match the decoded types; see ``ClassNameChecking``.
    open var classNameChecking: ClassNameChecking {
        get { lock.withLock { _classNameChecking } }
        set { lock.withLock { _classNameChecking = newValue } }
    }

    /// `NSCoding` and ``ArchiveCoding`` classes that may be instantiated from an archive,
    /// under their own names (`Module.Class`, `Class`, or their ``ArchivedClass`` name).
    ///
    /// Nothing else is ever instantiated from a class name in an archive, except classes
    /// registered with ``setClass(_:forClassName:)``. Foundation's value classes (strings,
    /// numbers, data, dates, URLs, UUIDs, arrays, sets, dictionaries, NSNull) are always
    /// allowed. A class name that is neither throws a `DecodingError` naming the class and
    /// the key path.
    ///
    /// ```swift
    /// decoder.allowedClasses = [LegacyProfile.self]
    /// ```
    open var allowedClasses: [AnyClass] {
        get { lock.withLock { _registry.allowed } }
        set { lock.withLock { _registry.allowed = newValue } }
    }

    /// Registers the class to instantiate for an archived class name, like
    /// `NSKeyedUnarchiver.setClass(_:forClassName:)`; `nil` removes the registration.
    ///
    /// A name registered without a module also matches module-qualified names
    /// (`Person` matches `OldApp.Person`), so renaming a module never strands an archive.
    ///
    /// ```swift
    /// decoder.setClass(Profile.self, forClassName: "OldApp.UserProfile")
    /// ```
    open func setClass(_ cls: AnyClass?, forClassName name: String) {
        lock.withLock { _registry.byName[name] = cls }
    }

    /// Declares another archived class name a Codable type answers to, for
    /// ``ClassNameChecking/strict`` checking (renamed classes).
    ///
    /// ```swift
    /// decoder.classNameChecking = .strict
    /// decoder.setType(Person.self, forClassName: "LegacyPerson")
    /// ```
    open func setType(_ type: Any.Type, forClassName name: String) {
        lock.withLock { _ = _registry.aliases[ObjectIdentifier(type), default: []].insert(name) }
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
        let (userInfo, limits, registry, checking, options) = lock.withLock {
            (_userInfo, _limits, _registry, _classNameChecking, _options.snapshot())
        }
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
        let state = ArchiveDecodingState(maxDepth: limits.maxDepth, maxObjects: maxVisits,
                                         registry: registry, strictClassNames: checking == .strict)
        state.options = options
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
