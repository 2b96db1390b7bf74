import Foundation

/// A property-list value, including the `UID` type that keyed archives use for references.
///
/// This is the value tree the property-list engine reads and writes. Dictionaries keep
/// their entries in order (a property list has no ordering rule, but a deterministic
/// writer needs one), and reals remember whether they were stored in 4 or 8 bytes.
///
/// ```swift
/// let value: PropertyListValue = .dictionary([
///     .init(key: "name", value: .string("Rex")),
///     .init(key: "ref", value: .uid(1)),
/// ])
/// let bytes = value.propertyListData(format: .binary)
/// let back = try PropertyListValue(propertyList: bytes)
/// assert(back == value)
/// ```
public indirect enum PropertyListValue: Hashable, Sendable {
    /// A string (written as ASCII when it can be, UTF-16BE otherwise).
    case string(String)
    /// An integer that fits in `Int64`.
    case integer(Int64)
    /// An integer above `Int64.max` (stored as a 16-byte integer).
    case unsignedInteger(UInt64)
    /// An integer outside `Int64.min...UInt64.max` with a magnitude below 2^128 (so every
    /// `Int128` and `UInt128`): a 16-byte integer in binary when it fits in `Int128`, else
    /// 32 bytes; decimal text in XML.
    /// The readers produce it only for such values; values that fit in 64 bits read as
    /// ``integer(_:)`` or ``unsignedInteger(_:)``, and the writers write them as those.
    case wideInteger(PropertyListWideInteger)
    /// An 8-byte real.
    case real(Double)
    /// A 4-byte real.
    case float(Float)
    /// A boolean.
    case bool(Bool)
    /// A date, as seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    /// Raw bytes.
    case data(Data)
    /// A keyed-archive reference (`CF$UID` in XML).
    case uid(UInt64)
    /// An ordered array.
    case array([PropertyListValue])
    /// A dictionary whose entries keep their order.
    case dictionary([PropertyListEntry])

    /// The value for `key` when this is a dictionary (first match), else `nil`.
    public subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first(where: { $0.key == key })?.value
    }
}

/// One key-value pair of a ``PropertyListValue/dictionary(_:)``.
public struct PropertyListEntry: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: PropertyListValue

    /// Creates an entry.
    public init(key: String, value: PropertyListValue) {
        self.key = key
        self.value = value
    }
}

/// The two serializations of a property list.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
    /// `bplist00`, Apple's binary format: compact and fast. The default.
    case binary
    /// The XML format with the Apple plist DTD.
    case xml
}

/// An error from the property-list engine: the input is not a well-formed property list.
///
/// The message says what is wrong and where (byte offset, object number or line). Input
/// that is no property list at all is named by what it looks like:
///
/// ```swift
/// do {
///     _ = try PropertyListValue(propertyList: jpegData)
/// } catch let error as PropertyListError {
///     print(error)   // not a property list (it looks like a JPEG image)
/// }
/// ```
public struct PropertyListError: Error, Sendable, CustomStringConvertible, Equatable, LocalizedError {
    /// What went wrong, with its position.
    public var message: String
    /// Whether the input is no property list at all (the message says what it looks like).
    private var isOtherKindOfData = false

    /// Creates an error with a message.
    public init(_ message: String) {
        self.message = message
    }

    /// The error for data that is not a property list at all, naming what it looks like.
    package init(notAPropertyList kind: InputKind) {
        message = kind.notAPropertyListReason
        isOtherKindOfData = true
    }

    /// "invalid property list: message", or "not a property list (it looks like a JPEG
    /// image)" for data of another kind.
    public var description: String { isOtherKindOfData ? message : "invalid property list: \(message)" }

    /// The same text as ``description``, for `error.localizedDescription`.
    ///
    /// ```swift
    /// print(error.localizedDescription)   // invalid property list: unexpected end of data at line 3
    /// ```
    public var errorDescription: String? { description }
}

extension PropertyListValue {
    /// Seconds between 1970-01-01 and 2001-01-01, the property-list date epoch.
    static let referenceDateOffset: Double = 978_307_200

    /// A short name of the value's type (`string`, `integer`, `UID`, …), for messages.
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer, .unsignedInteger, .wideInteger: return "integer"
        case .real, .float: return "real"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .uid: return "UID"
        case .array: return "array"
        case .dictionary: return "dictionary"
        }
    }
}
