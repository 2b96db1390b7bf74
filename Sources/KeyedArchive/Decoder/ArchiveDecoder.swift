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
    ///
    /// Decoding work is bounded by a constant times the input size, whatever the types asked
    /// for, and no input traps: every step that follows a UID or descends into a container
    /// (Foundation layouts included) is one level of ``maxDepth`` and is checked for cycles
    /// (UID cycles and property-list containers that contain themselves alike), and every
    /// step is charged to one budget for the whole document, ``maxObjectVisits``.
    ///
    /// ```swift
    /// let decoder = ArchiveDecoder()
    /// decoder.limits = .init(maxDepth: 64, maxObjectVisits: 1_000_000)
    /// ```
    public struct Limits: Sendable, Hashable {
        /// Values nested deeper than this throw: objects by UID and inline arrays and
        /// dictionaries alike. Default 512, like Apple's property-list reader.
        public var maxDepth: Int = 512
        /// The most units of work one decode may do. Each value resolved (probes that fail,
        /// such as `try? container.decode(Bool.self)`, included), each object or container
        /// entered, each array element and dictionary entry, and each key of a large object
        /// indexed costs one; a shared object costs again in every place it is used. Each
        /// `DecodingError` built (a failed probe's included) costs one more, plus one per key
        /// of its coding path beyond the 16th. Bytes cost too: making a string or data value
        /// (once per property-list object; it is then shared) one unit per 4 bytes, handing a
        /// long one out again one per 64 bytes, and parsing a URL, decimal or base64 text one
        /// per 4 bytes. `nil` (the default) allows 16 per byte of input plus 65,536, which no
        /// real archive reaches (a generic `try?`-probing value over an array of small repeated
        /// numbers or strings needs up to 15 per byte) but stops archives that fan out
        /// exponentially or repeat one long value from many places.
        public var maxObjectVisits: Int?
        /// The most bytes of text one rendering may write: ``KeyedArchiveView/render(options:)``
        /// and the command-line tool's `dump` and `json` stop with an error naming this limit
        /// past it. `nil` (the default) allows 64 bytes per byte of input plus 1 MB (see
        /// ``outputBudget(forInputSize:)``); printing a value in every place it is referenced
        /// is what can make output outgrow its input.
        public var maxOutputBytes: Int?

        /// The default limits.
        ///
        /// ```swift
        /// let limits = ArchiveDecoder.Limits(maxDepth: 64, maxObjectVisits: 1_000_000, maxOutputBytes: 10_000_000)
        /// ```
        public init(maxDepth: Int = 512, maxObjectVisits: Int? = nil, maxOutputBytes: Int? = nil) {
            self.maxDepth = maxDepth
            self.maxObjectVisits = maxObjectVisits
            self.maxOutputBytes = maxOutputBytes
        }
    }

    /// How `Bool` and the number types treat each other's storage.
    ///
    /// Property lists store booleans and numbers differently, and by default each reads only
    /// its own storage, exactly as `JSONDecoder` does: an `Int` property never reads `true`,
    /// and a `Bool` never reads `1`. A generic value that tries `Bool` before `Int` therefore
    /// keeps integers as integers.
    public enum BooleanDecodingStrategy: Sendable, Hashable {
        /// `Bool` reads boolean storage only; integers and reals read number storage only (the default).
        case strict
        /// `Bool` also reads the integers 0 and 1, and numbers also read booleans as 0 and 1.
        ///
        /// For archives written by swift-corelibs-foundation (Foundation on Linux), whose
        /// archiver stores `NSNumber` values 0/1 and false/true as one shared object, so an
        /// array `[true, 1]` comes out as two booleans.
        case numbersAreBooleans
    }

    /// Whether an object's class name must match the type it is decoded as.
    public enum ClassNameChecking: Sendable, Hashable {
        /// The caller's type decides; class names are not compared (the default; see <doc:ArchiveFormat>).
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
    private var _booleanDecodingStrategy = BooleanDecodingStrategy.strict
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

    /// How booleans and the numbers 0 and 1 read each other; see ``BooleanDecodingStrategy``.
    ///
    /// ```swift
    /// decoder.booleanDecodingStrategy = .numbersAreBooleans   // archives from Linux Foundation
    /// ```
    open var booleanDecodingStrategy: BooleanDecodingStrategy {
        get { lock.withLock { _booleanDecodingStrategy } }
        set { lock.withLock { _booleanDecodingStrategy = newValue } }
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

    /// Decodes the archive's value: the one under the top-level key `root` (what
    /// `NSKeyedArchiver.archivedData(withRootObject:)` writes); without `root`, the only
    /// top-level value, or, when there are several, `$top` itself as a keyed value (its keys
    /// are `T`'s coding keys: `$0`, `$1`… for Go's archiver, or Foundation's
    /// `encode(_:forKey:)` names).
    ///
    /// ```swift
    /// let tags = try ArchiveDecoder().decode([String].self, from: data)
    /// ```
    ///
    /// The archive is read in place: `data`'s bytes are not copied.
    open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { bytes in try withSession(bytes, file: nil) { try decodeRoot(T.self, in: $0) } }
    }

    /// ``decode(_:from:)``'s outcome, and the units of work it spent whether it gave a value
    /// or threw, so that a caller can charge a failed decode too.
    func decodeSpendingWork<T: Decodable>(_ type: T.Type, from data: Data) -> (result: Result<T, any Error>, spent: Int) {
        var spent = 0
        let result = Result {
            try data.withUnsafeBytes { bytes in
                try withSession(bytes, file: nil) { session in
                    defer { spent = session.decoder.state.budget.limit &- session.decoder.state.budget.remaining }
                    return try decodeRoot(T.self, in: session)
                }
            }
        }
        return (result, spent)
    }

    /// ``decode(_:from:)``, and the work it did (for tests of the accounting).
    func decodeReportingWork<T: Decodable>(_ type: T.Type, from data: Data) throws -> (value: T, work: ArchiveWorkBudget) {
        try data.withUnsafeBytes { bytes in
            try withSession(bytes, file: nil) { session in
                let value = try decodeRoot(T.self, in: session)
                return (value, session.decoder.state.budget)
            }
        }
    }

    func decodeRoot<T: Decodable>(_ type: T.Type, in session: Session) throws -> T {
        let document = session.document
        if let root = document.topEntries.first(where: { $0.key == "root" }) {
            return try session.decode(T.self, at: root.ref, path: .root)
        }
        if document.topEntries.count == 1, let only = document.topEntries.first {
            return try session.decode(T.self, at: only.ref, path: .root.appending(ArchiveCodingKey(stringValue: only.key)))
        }
        return try session.decoder.finished(try session.decoder.unbox(T.self, from: .inline(ref: document.topRef, owner: -1), at: .root))
    }

    /// Decodes the value under top-level key `key`, for archives with several top-level values.
    ///
    /// ```swift
    /// let one = try ArchiveDecoder().decode(Person.self, forKey: "personOne", from: data)
    /// ```
    open func decode<T: Decodable>(_ type: T.Type, forKey key: String, from data: Data) throws -> T {
        try data.withUnsafeBytes { bytes in try withSession(bytes, file: nil) { try decode(T.self, forKey: key, in: $0) } }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: String, in session: Session) throws -> T {
        guard let entry = session.document.topEntries.first(where: { $0.key == key }) else {
            let keys = session.document.topEntries.map { "'\($0.key)'" }.joined(separator: ", ")
            throw DecodingError.archive(.dataCorrupted, "The archive has no top-level key '\(key)' (its $top keys: \(keys.isEmpty ? "none" : keys))",
                                        codingPath: [], key: key)
        }
        return try session.decode(T.self, at: entry.ref, path: key == "root" ? .root : .root.appending(ArchiveCodingKey(stringValue: key)))
    }

    /// The top-level keys of an archive, in file order, unescaped (Foundation stores `$0` as `$$0`).
    ///
    /// ```swift
    /// let keys = try ArchiveDecoder().topLevelKeys(in: data)   // ["personOne", "personTwo"]
    /// ```
    open func topLevelKeys(in data: Data) throws -> [String] {
        try data.withUnsafeBytes { bytes in
            try Self.open(bytes, maxDepth: limits.maxDepth, file: nil) { $0.topEntries.map(\.key) }
        }
    }

    /// One decode: the opened document and a decoder whose state carries this call's
    /// options and one work budget for the whole document.
    struct Session {
        let document: ArchiveDocument
        let decoder: _ArchiveDecoder

        func decode<T: Decodable>(_ type: T.Type, at ref: Int, path: CodingPathNode) throws -> T {
            let slot = try decoder.reading(.inline(ref: ref, owner: -1), path) { try decoder.slot(forValueAt: ref, owner: -1) }
            return try decoder.finished(try decoder.unbox(T.self, from: slot, at: path))
        }
    }

    /// Calls `body` with a session over the archive in `bytes`, which are valid during the
    /// call only: when it returns, every decoder of the session is closed (one that
    /// `init(from:)` kept throws instead of reading them).
    ///
    /// With `identity`, the session starts with the class instances earlier sessions over
    /// the same bytes decoded, and hands its own back when `body` returns (not when it
    /// throws: an instance may then be half filled), so that they stay one instance each
    /// (see ``DecodableArchive``).
    func withSession<R>(_ bytes: UnsafeRawBufferPointer, file: URL?, releasingPagesEvery interval: Int? = nil,
                        identity: ArchiveInstances? = nil, _ body: (Session) throws -> R) throws -> R {
        let (userInfo, limits, registry, checking, booleans, options) = lock.withLock {
            (_userInfo, _limits, _registry, _classNameChecking, _booleanDecodingStrategy, _options.snapshot())
        }
        return try Self.open(bytes, maxDepth: limits.maxDepth, file: file) { document in
            let state = ArchiveDecodingState(limits: limits, inputSize: bytes.count,
                                             registry: registry, strictClassNames: checking == .strict,
                                             booleansAreNumbers: booleans == .numbersAreBooleans)
            state.options = options
            if let interval, let base = bytes.baseAddress {
                // `bytes` is a file mapping: its pages read so far are released every
                // `interval` units of work (see `decode(_:contentsOf:)`).
                let address = UInt(bitPattern: base), count = bytes.count
                MappedFile.releaseResidentPages(address: address, count: count)  // what opening it read
                state.budget.handOutInTranches(of: interval) {
                    MappedFile.releaseResidentPages(address: address, count: count)
                }
            }
            if let identity { state.instances = identity.byUID }
            let decoder = _ArchiveDecoder(document: document, state: state, userInfo: userInfo, slot: .uid(0), path: DecodingPath(.root))
            defer { state.close() }
            let result = try body(Session(document: document, decoder: decoder))
            identity?.byUID = state.instances
            return result
        }
    }

    /// Calls `body` with the envelope of the archive in `bytes` opened, reporting a problem
    /// opening it as `DecodingError.dataCorrupted` whose description states the cause
    /// ("The data is not a property list (it looks like a JPEG image)", or "The file
    /// '/path' is …" when `file` is given), as does its underlying ``KeyedArchiveError``.
    /// What `body` throws passes through unchanged.
    static func open<R>(_ bytes: UnsafeRawBufferPointer, maxDepth: Int, file: URL?,
                        _ body: (ArchiveDocument) throws -> R) throws -> R {
        do {
            return try PropertyListInput.read(bytes, maxDepth: maxDepth, checkingKeysAsRead: true) { plist in
                let document = try ArchiveDocument(plist: plist)
                do { return try body(document) } catch { throw ArchiveSessionBodyError(error: error) }
            }
        } catch let error as ArchiveSessionBodyError {
            throw error.error
        } catch {
            let reason = KeyedArchiveError.notAnArchiveReason(error)
            let text = reason.hasPrefix("invalid property list") ? "not a valid keyed archive: " + reason : reason
            let subject = file.map { "The file '\($0.path)' is " } ?? "The data is "
            throw DecodingError.archive(.dataCorrupted, subject + text, codingPath: [])
        }
    }
}

/// What the body of ``ArchiveDecoder/open(_:maxDepth:file:_:)`` threw, told apart from a
/// failure to open the archive.
private struct ArchiveSessionBodyError: Error {
    let error: any Error
}

#if canImport(Combine)
import Combine

extension ArchiveDecoder: TopLevelDecoder {}
#endif
