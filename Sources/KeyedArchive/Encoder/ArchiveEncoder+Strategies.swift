import Foundation

// The options of `ArchiveEncoder`, named as `JSONEncoder` names them so that a configured
// JSONEncoder call site compiles unchanged. Where an archive can do better than JSON (dates
// and data have Foundation classes of their own), the default is the Foundation layout.

extension ArchiveEncoder {
    /// How the output is laid out, with `JSONEncoder.OutputFormatting`'s names.
    ///
    /// ```swift
    /// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]   // indented XML
    /// ```
    public struct OutputFormatting: OptionSet, Sendable, Hashable {
        public let rawValue: UInt

        /// Creates a set of formatting options from its raw value.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Writes the human-readable form: an XML property list indented with tabs, one
        /// element per line, exactly as Foundation writes XML. It takes precedence over
        /// ``ArchiveEncoder/outputFormat``. Without it, ``ArchiveEncoder/outputFormat``
        /// decides (binary by default).
        public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)

        /// Accepted for source compatibility; the output already is in a fixed order. An
        /// archived object's fields are in the order `encode(to:)` writes them (as an
        /// `NSCoding` class writes them), and dictionary and set entries are sorted, so the
        /// same value always gives the same bytes.
        public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)

        /// Accepted for source compatibility; property lists never escape `/`.
        public static let withoutEscapingSlashes = OutputFormatting(rawValue: 1 << 3)
    }

    /// How `Date` values are written; `JSONEncoder.DateEncodingStrategy`'s cases plus `.nsDate`.
    ///
    /// ```swift
    /// encoder.dateEncodingStrategy = .iso8601   // "2023-11-14T22:13:20Z" as a string object
    /// ```
    public enum DateEncodingStrategy: Sendable {
        /// An `NSDate` object (`{NS.time: seconds since 2001}`), what `NSCoding` readers
        /// expect from `decodeObject(forKey:)`. The default.
        case nsDate
        /// Whatever `Date.encode(to:)` writes: a number, seconds since 2001-01-01.
        case deferredToDate
        /// A number: seconds since 1970-01-01 UTC (an `NSNumber` to Foundation).
        case secondsSince1970
        /// A number: milliseconds since 1970-01-01 UTC.
        case millisecondsSince1970
        /// A string in ISO 8601 form, as `ISO8601DateFormatter` writes it by default
        /// (`2023-11-14T22:13:20Z`).
        case iso8601
        /// A string written by the given formatter.
        case formatted(DateFormatter)
        /// Whatever the closure encodes into the encoder it is given; an empty dictionary
        /// when it encodes nothing.
        case custom(@Sendable (Date, any Encoder) throws -> Void)
    }

    /// How `Data` values are written; `JSONEncoder.DataEncodingStrategy`'s cases plus `.nsData`.
    ///
    /// ```swift
    /// encoder.dataEncodingStrategy = .base64
    /// ```
    public enum DataEncodingStrategy: Sendable {
        /// Property-list data, which Foundation reads as `NSData`. The default.
        case nsData
        /// Whatever `Data.encode(to:)` writes: an array of byte numbers.
        case deferredToData
        /// A Base64 string.
        case base64
        /// Whatever the closure encodes; an empty dictionary when it encodes nothing.
        case custom(@Sendable (Data, any Encoder) throws -> Void)
    }

    /// How coding keys become archive keys; `JSONEncoder.KeyEncodingStrategy`'s cases.
    ///
    /// Applies to the keys of every keyed container, at every depth, never to the keys of
    /// Foundation layouts (`NS.time`, `NS.objects`, `$class`…), to the keys of a
    /// `Dictionary` (as in JSONEncoder), nor to the `NSCoder`-style keys an
    /// ``ArchiveCoding`` class writes (they are chosen by hand for `NSCoding` readers).
    ///
    /// ```swift
    /// encoder.keyEncodingStrategy = .convertToSnakeCase   // myURLProperty → my_url_property
    /// ```
    public enum KeyEncodingStrategy: Sendable {
        /// The keys of the types' `CodingKeys`. The default.
        case useDefaultKeys
        /// camelCase to snake_case, by JSONEncoder's rules: `myURLProperty` becomes
        /// `my_url_property`, `HTTPHeader` becomes `h_ttp_header` (the first character is
        /// taken as the start of a word), `a1B2` becomes `a1_b2`.
        case convertToSnakeCase
        /// The key the closure returns, given the coding path ending with the key.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How NaN and the infinities are written; `JSONEncoder.NonConformingFloatEncodingStrategy`'s
    /// cases plus `.allow`.
    ///
    /// ```swift
    /// encoder.nonConformingFloatEncodingStrategy = .convertToString(
    ///     positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    /// ```
    public enum NonConformingFloatEncodingStrategy: Sendable {
        /// Written as reals: property lists store NaN and the infinities. The default.
        case allow
        /// Throws `EncodingError.invalidValue`.
        case `throw`
        /// Written as the given strings.
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// What XML output does with a string or key holding a character XML 1.0 cannot
    /// represent at all: U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+FFFE and U+FFFF
    /// (a backspace in a menu title, a form feed in pasted text). No XML reader accepts a
    /// document holding one, not even as a character reference; a binary archive holds any
    /// string.
    ///
    /// ```swift
    /// encoder.outputFormat = .xml
    /// encoder.invalidXMLCharacterStrategy = .writeRaw   // as Foundation writes them
    /// ```
    public enum InvalidXMLCharacterStrategy: Sendable, Hashable {
        /// Throws `EncodingError.invalidValue` naming the string, its coding path and
        /// object index, and the character. The default.
        case `throw`
        /// Writes the characters as they are, as Foundation's `PropertyListSerialization`
        /// and `NSKeyedArchiver` do. Foundation and ``ArchiveDecoder`` read such a file back;
        /// XML readers (Python's `plistlib`, libxml2, expat) reject it.
        case writeRaw
    }

    /// Human-readable output and key order; see ``OutputFormatting``. Default: none.
    ///
    /// ```swift
    /// encoder.outputFormatting = .prettyPrinted
    /// ```
    public var outputFormatting: OutputFormatting {
        get { withOptions { $0.formatting } }
        set { withOptions { $0.formatting = newValue } }
    }

    /// How dates are written; see ``DateEncodingStrategy``. Default: ``DateEncodingStrategy/nsDate``.
    ///
    /// ```swift
    /// encoder.dateEncodingStrategy = .secondsSince1970
    /// ```
    public var dateEncodingStrategy: DateEncodingStrategy {
        get { withOptions { $0.date } }
        set { withOptions { $0.date = newValue } }
    }

    /// How data is written; see ``DataEncodingStrategy``. Default: ``DataEncodingStrategy/nsData``.
    ///
    /// ```swift
    /// encoder.dataEncodingStrategy = .base64
    /// ```
    public var dataEncodingStrategy: DataEncodingStrategy {
        get { withOptions { $0.data } }
        set { withOptions { $0.data = newValue } }
    }

    /// How coding keys are written; see ``KeyEncodingStrategy``. Default: ``KeyEncodingStrategy/useDefaultKeys``.
    ///
    /// ```swift
    /// encoder.keyEncodingStrategy = .convertToSnakeCase
    /// ```
    public var keyEncodingStrategy: KeyEncodingStrategy {
        get { withOptions { $0.keys } }
        set { withOptions { $0.keys = newValue } }
    }

    /// How NaN and infinities are written; see ``NonConformingFloatEncodingStrategy``.
    /// Default: ``NonConformingFloatEncodingStrategy/allow``.
    ///
    /// ```swift
    /// encoder.nonConformingFloatEncodingStrategy = .throw
    /// ```
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
        get { withOptions { $0.floats } }
        set { withOptions { $0.floats = newValue } }
    }

    /// What XML output does with characters XML 1.0 cannot represent; see
    /// ``InvalidXMLCharacterStrategy``. Default: ``InvalidXMLCharacterStrategy/throw``.
    /// Binary output ignores it.
    ///
    /// ```swift
    /// encoder.invalidXMLCharacterStrategy = .writeRaw
    /// ```
    public var invalidXMLCharacterStrategy: InvalidXMLCharacterStrategy {
        get { withOptions { $0.invalidXMLCharacters } }
        set { withOptions { $0.invalidXMLCharacters = newValue } }
    }
}

/// A snapshot of an encoder's strategies, taken once per `encode` call, with flags the hot
/// paths test instead of switching on the strategies.
struct ArchiveEncodingOptions {
    var formatting: ArchiveEncoder.OutputFormatting = []
    var date: ArchiveEncoder.DateEncodingStrategy = .nsDate {
        didSet { if case .nsDate = date { writesNSDate = true } else { writesNSDate = false } }
    }
    var data: ArchiveEncoder.DataEncodingStrategy = .nsData {
        didSet { if case .nsData = data { writesNSData = true } else { writesNSData = false } }
    }
    var keys: ArchiveEncoder.KeyEncodingStrategy = .useDefaultKeys {
        didSet { if case .useDefaultKeys = keys { convertsKeys = false } else { convertsKeys = true } }
    }
    var floats: ArchiveEncoder.NonConformingFloatEncodingStrategy = .allow {
        didSet { if case .allow = floats { checksFloats = false } else { checksFloats = true } }
    }
    var invalidXMLCharacters: ArchiveEncoder.InvalidXMLCharacterStrategy = .throw

    private(set) var writesNSDate = true
    private(set) var writesNSData = true
    private(set) var convertsKeys = false
    private(set) var checksFloats = false

    /// Converted keys already seen in one `encode` call (snake case only; a custom
    /// strategy depends on the path, so it runs for every key). Set by ``snapshot()``.
    private(set) var snakeCaseKeys: KeyConversionCache?

    /// The options for one `encode` call, with a key cache of its own when keys are
    /// converted to snake case.
    func snapshot() -> ArchiveEncodingOptions {
        var copy = self
        if case .convertToSnakeCase = keys { copy.snakeCaseKeys = KeyConversionCache() }
        return copy
    }
}

/// Converted keys by original key, shared by the encoders of one `encode` call.
final class KeyConversionCache {
    var converted: [String: String] = [:]
}
