import Foundation

/// Encodes `Encodable` values as keyed archives, the format of `NSKeyedArchiver`.
///
/// Shaped like `JSONEncoder`: configure it, then call ``encode(_:)``. A struct or class
/// becomes an archived object with its own class entry and fields, laid out as a
/// hand-written `NSCoding` class would write it, so Foundation's `NSKeyedUnarchiver` reads
/// the result.
///
/// ```swift
/// struct Person: Codable { var name: String; var age: Int }
///
/// let encoder = ArchiveEncoder()
/// encoder.outputFormat = .xml
/// let data = try encoder.encode(Person(name: "Ada", age: 36))
/// ```
///
/// Output is deterministic: the same value gives the same bytes, dictionaries and sets
/// included. Like Foundation's encoders, an instance is `Sendable`; its options are
/// guarded by a lock.
open class ArchiveEncoder: @unchecked Sendable {
    /// The property-list serialization the archive is written in.
    public typealias OutputFormat = PropertyListFormat

    private let lock = NSLock()
    private var _outputFormat: OutputFormat = .binary
    private var _userInfo: [CodingUserInfoKey: any Sendable] = [:]
    private var _classNames: [ObjectIdentifier: (name: String, classes: [String])] = [:]
    private var _options = ArchiveEncodingOptions()

    /// Reads or changes the strategies under the lock (see ArchiveEncoder+Strategies.swift).
    func withOptions<R>(_ body: (inout ArchiveEncodingOptions) -> R) -> R {
        lock.withLock { body(&_options) }
    }

    /// The serialization, options and user info for one `encode` call, read under one lock.
    private func snapshot() -> (OutputFormat, ArchiveEncodingOptions, [CodingUserInfoKey: any Sendable]) {
        lock.withLock {
            let format = _options.formatting.contains(.prettyPrinted) ? .xml : _outputFormat
            return (format, _options.snapshot(), _userInfo)
        }
    }

    /// The serialization of the archive: `.binary` (the default) or `.xml`.
    /// ``OutputFormatting/prettyPrinted`` in ``outputFormatting`` selects `.xml` whatever this says.
    open var outputFormat: OutputFormat {
        get { lock.withLock { _outputFormat } }
        set { lock.withLock { _outputFormat = newValue } }
    }

    /// Contextual information handed to every `encode(to:)` as `encoder.userInfo`.
    open var userInfo: [CodingUserInfoKey: any Sendable] {
        get { lock.withLock { _userInfo } }
        set { lock.withLock { _userInfo = newValue } }
    }

    /// Creates an encoder with the default options.
    public init() {}

    /// Sets the class name (and superclass names) written for a type, overriding its
    /// Swift name or its ``ArchivedClass`` declaration; for types you cannot change, and
    /// for `NSCoding` classes (which otherwise archive as `Module.Class`).
    ///
    /// ```swift
    /// encoder.setClassName("Person", superclassNames: ["NSObject"], for: LegacyPerson.self)
    /// ```
    open func setClassName(_ name: String, superclassNames: [String] = ["NSObject"], for type: Any.Type) {
        lock.withLock { _classNames[ObjectIdentifier(type)] = (name, [name] + superclassNames) }
    }

    /// A fresh object table with this encoder's class-name settings.
    private func makeTable() -> ArchiveObjectTable {
        let table = ArchiveObjectTable()
        table.classNameOverrides = lock.withLock { _classNames }
        return table
    }

    /// Encodes `value` under the top-level key `root`, as `NSKeyedArchiver.archivedData(withRootObject:)` does.
    ///
    /// ```swift
    /// let data = try ArchiveEncoder().encode(["a": 1, "b": 2])
    /// ```
    ///
    /// - Throws: `EncodingError.invalidValue` for a reference cycle between class
    ///   instances, or for XML output holding a character XML 1.0 cannot represent
    ///   (see ``InvalidXMLCharacterStrategy``), or whatever the value's own `encode(to:)` throws.
    open func encode<T: Encodable>(_ value: T) throws -> Data {
        let (format, options, userInfo) = snapshot()
        let table = makeTable()
        let encoder = _ArchiveEncoder(table: table, userInfo: userInfo, options: options)
        table.top = [("root", try encoder.box(value, at: .root))]
        return try Self.serialize(table, format: format, options: options)
    }

    /// Encodes several values, each under its own top-level key, into one archive (one
    /// object table: a class instance shared between them is written once).
    ///
    /// The keys are written in sorted order, whatever order the dictionary holds them in,
    /// so the same values always give the same bytes. A dictionary built at run time works
    /// as well as a literal:
    ///
    /// ```swift
    /// let data = try ArchiveEncoder().encode(topLevel: ["personOne": ada, "personTwo": grace])
    /// let two = try ArchiveDecoder().decode(Person.self, forKey: "personTwo", from: data)
    ///
    /// var entries: [String: any Encodable] = [:]
    /// for (index, person) in people.enumerated() { entries["person\(index)"] = person }
    /// let all = try ArchiveEncoder().encode(topLevel: entries)
    /// ```
    ///
    /// The label matters: `encode(["a": x, "b": y])` without it encodes one dictionary
    /// under `root`, as for any other value. To choose the order of the keys yourself,
    /// pass `KeyValuePairs` (``encode(topLevel:)-(KeyValuePairs<String,Encodable>)``).
    open func encode(topLevel values: [String: any Encodable]) throws -> Data {
        try encodeTop(values.sorted { $0.key < $1.key })
    }

    /// Encodes several values under their top-level keys, in the order given.
    ///
    /// ```swift
    /// let pairs: KeyValuePairs<String, any Encodable> = ["session": session, "personOne": owner]
    /// let data = try ArchiveEncoder().encode(topLevel: pairs)   // $top: session, personOne
    /// ```
    ///
    /// A dictionary literal passed straight to `encode(topLevel:)` is a `Dictionary`, whose
    /// keys are written sorted (``encode(topLevel:)-([String:Encodable])``).
    open func encode(topLevel values: KeyValuePairs<String, any Encodable>) throws -> Data {
        try encodeTop(values.map { ($0.key, $0.value) })
    }

    private func encodeTop(_ values: [(key: String, value: any Encodable)]) throws -> Data {
        let (format, options, userInfo) = snapshot()
        let table = makeTable()
        let encoder = _ArchiveEncoder(table: table, userInfo: userInfo, options: options)
        func box<T: Encodable>(_ value: T, _ key: String) throws -> Int32 {
            try encoder.box(value, at: CodingPathNode.root.appending(ArchiveCodingKey(stringValue: key)))
        }
        for (key, value) in values {
            table.top.append((key, try box(value, key)))
        }
        return try Self.serialize(table, format: format, options: options)
    }

    private static func serialize(_ table: ArchiveObjectTable, format: OutputFormat, options: ArchiveEncodingOptions) throws -> Data {
        switch format {
        case .binary: return table.binary()
        case .xml:
            guard let data = table.xml(refusingForbiddenText: options.invalidXMLCharacters == .throw) else {
                throw table.xmlForbiddenTextError()
            }
            return data
        }
    }
}

#if canImport(Combine)
import Combine

extension ArchiveEncoder: TopLevelEncoder {}
#endif
