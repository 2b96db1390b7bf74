import Foundation

// The options of `ArchiveDecoder`, named as `JSONDecoder` names them. Each mirrors the
// encoder's strategy of the same name: decode with the strategy the archive was encoded with.

extension ArchiveDecoder {
    /// How `Date` values are read; `JSONDecoder.DateDecodingStrategy`'s cases plus `.nsDate`.
    ///
    /// ```swift
    /// decoder.dateDecodingStrategy = .iso8601
    /// ```
    public enum DateDecodingStrategy: Sendable {
        /// An `NSDate` object (`{NS.time}`) or a property-list date. The default.
        case nsDate
        /// Whatever `Date.init(from:)` reads: a number, seconds since 2001-01-01.
        case deferredToDate
        /// A number: seconds since 1970-01-01 UTC.
        case secondsSince1970
        /// A number: milliseconds since 1970-01-01 UTC.
        case millisecondsSince1970
        /// An ISO 8601 string, as `ISO8601DateFormatter` writes it (fractional seconds accepted).
        case iso8601
        /// A string read by the given formatter.
        case formatted(DateFormatter)
        /// The date the closure decodes from the decoder it is given.
        case custom(@Sendable (any Decoder) throws -> Date)
    }

    /// How `Data` values are read; `JSONDecoder.DataDecodingStrategy`'s cases plus `.nsData`.
    ///
    /// ```swift
    /// decoder.dataDecodingStrategy = .base64
    /// ```
    public enum DataDecodingStrategy: Sendable {
        /// Property-list data, or an `NSData`/`NSMutableData` object. The default.
        case nsData
        /// Whatever `Data.init(from:)` reads: an array of byte numbers.
        case deferredToData
        /// A Base64 string.
        case base64
        /// The data the closure decodes from the decoder it is given.
        case custom(@Sendable (any Decoder) throws -> Data)
    }

    /// How archive keys are matched to coding keys; `JSONDecoder.KeyDecodingStrategy`'s cases.
    ///
    /// Applies to the keys of every keyed container (objects' fields and keyed
    /// dictionaries), never to Foundation layouts' keys, to the keys of a decoded
    /// `Dictionary` (as in JSONDecoder), nor to the `NSCoder`-style keys an
    /// ``ArchiveCoding`` class reads.
    ///
    /// ```swift
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase   // my_url_property matches myUrlProperty
    /// ```
    public enum KeyDecodingStrategy: Sendable {
        /// Archive keys match coding keys as they are. The default.
        case useDefaultKeys
        /// Each archive key is converted from snake_case to camelCase (JSONDecoder's rules:
        /// `my_url_property` becomes `myUrlProperty`) and then compared with the coding key.
        case convertFromSnakeCase
        /// Each archive key is replaced by the key the closure returns, given the coding
        /// path ending with the archive key. The closure runs once per key of each object.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How NaN and the infinities are read; `JSONDecoder.NonConformingFloatDecodingStrategy`'s
    /// cases plus `.allow`.
    ///
    /// ```swift
    /// decoder.nonConformingFloatDecodingStrategy = .convertFromString(
    ///     positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    /// ```
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// Reals that are NaN or infinite are read as they are. The default.
        case allow
        /// A NaN or infinite real throws `DecodingError.dataCorrupted`.
        case `throw`
        /// The given strings read as the infinities and NaN; reals are read as they are.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How dates are read; see ``DateDecodingStrategy``. Default: ``DateDecodingStrategy/nsDate``.
    ///
    /// ```swift
    /// decoder.dateDecodingStrategy = .secondsSince1970
    /// ```
    public var dateDecodingStrategy: DateDecodingStrategy {
        get { withOptions { $0.date } }
        set { withOptions { $0.date = newValue } }
    }

    /// How data is read; see ``DataDecodingStrategy``. Default: ``DataDecodingStrategy/nsData``.
    ///
    /// ```swift
    /// decoder.dataDecodingStrategy = .base64
    /// ```
    public var dataDecodingStrategy: DataDecodingStrategy {
        get { withOptions { $0.data } }
        set { withOptions { $0.data = newValue } }
    }

    /// How keys are matched; see ``KeyDecodingStrategy``. Default: ``KeyDecodingStrategy/useDefaultKeys``.
    ///
    /// ```swift
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// ```
    public var keyDecodingStrategy: KeyDecodingStrategy {
        get { withOptions { $0.keys } }
        set { withOptions { $0.keys = newValue } }
    }

    /// How NaN and infinities are read; see ``NonConformingFloatDecodingStrategy``.
    /// Default: ``NonConformingFloatDecodingStrategy/allow``.
    ///
    /// ```swift
    /// decoder.nonConformingFloatDecodingStrategy = .throw
    /// ```
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
        get { withOptions { $0.floats } }
        set { withOptions { $0.floats = newValue } }
    }
}

/// A snapshot of a decoder's strategies, taken once per `decode` call, with flags the hot
/// paths test instead of switching on the strategies.
struct ArchiveDecodingOptions {
    var date: ArchiveDecoder.DateDecodingStrategy = .nsDate {
        didSet { if case .nsDate = date { readsNSDate = true } else { readsNSDate = false } }
    }
    var data: ArchiveDecoder.DataDecodingStrategy = .nsData {
        didSet { if case .nsData = data { readsNSData = true } else { readsNSData = false } }
    }
    var keys: ArchiveDecoder.KeyDecodingStrategy = .useDefaultKeys {
        didSet { if case .useDefaultKeys = keys { convertsKeys = false } else { convertsKeys = true } }
    }
    var floats: ArchiveDecoder.NonConformingFloatDecodingStrategy = .allow {
        didSet { if case .allow = floats { checksFloats = false } else { checksFloats = true } }
    }

    private(set) var readsNSDate = true
    private(set) var readsNSData = true
    private(set) var convertsKeys = false
    private(set) var checksFloats = false

    /// Converted keys of each object already looked up in one `decode` call. Set by ``snapshot()``.
    private(set) var convertedKeys: ConvertedKeyTable?

    /// The options for one `decode` call, with a key table of its own when keys are converted.
    func snapshot() -> ArchiveDecodingOptions {
        var copy = self
        if convertsKeys { copy.convertedKeys = ConvertedKeyTable() }
        return copy
    }
}
