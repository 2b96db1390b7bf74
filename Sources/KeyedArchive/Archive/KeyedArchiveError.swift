import Foundation

/// A structural problem in a keyed archive: what is wrong, and where.
///
/// Typed decoding reports it as a `DecodingError` whose description carries the same message,
/// object index and coding path; the untyped ``KeyedArchiveView`` throws it directly. A
/// property list without the keyed-archive envelope is named as such: "a plain property
/// list, not a keyed archive".
///
/// ```swift
/// do {
///     _ = try KeyedArchiveView(data: data)
/// } catch let error as KeyedArchiveError {
///     print(error.objectIndex ?? -1, error.key ?? "", error.message)
/// }
/// ```
public struct KeyedArchiveError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What is wrong.
    public var message: String
    /// The index in `$objects` of the object where the problem is, when there is one.
    public var objectIndex: Int?
    /// The key (field name or top-level key) where the problem is, when there is one.
    public var key: String?

    /// Creates an error.
    public init(_ message: String, objectIndex: Int? = nil, key: String? = nil) {
        self.message = message
        self.objectIndex = objectIndex
        self.key = key
    }

    /// The error for a well-formed property list that has no keyed-archive envelope
    /// (`$archiver`, `$objects`, `$top`): a settings file, an `Info.plist`…
    package static let plainPropertyList = KeyedArchiveError("a plain property list, not a keyed archive")

    /// Whether the data is a property list without the keyed-archive envelope.
    package var isPlainPropertyList: Bool { self == .plainPropertyList }

    /// Why data could not be opened as a keyed archive, in one line without repetition:
    /// "not a property list (it looks like a JPEG image)", "a plain property list, not a
    /// keyed archive", "invalid property list: …", or "not a valid keyed archive: …". The
    /// decoder, `ArchiveStore` and the `keyedarchive` tool all say it this way.
    package static func notAnArchiveReason(_ error: any Error) -> String {
        switch error {
        case let error as KeyedArchiveError where error.isPlainPropertyList: return error.description
        case let error as KeyedArchiveError: return "not a valid keyed archive: \(error)"
        default: return "\(error)"
        }
    }

    /// The same text as ``description``, for `error.localizedDescription`.
    ///
    /// ```swift
    /// print(error.localizedDescription)   // object 5, key 'name': UID 9 is out of range (5 objects)
    /// ```
    public var errorDescription: String? { description }

    /// "object 5, key 'name': message".
    public var description: String {
        var place: [String] = []
        if let objectIndex { place.append("object \(objectIndex)") }
        if let key { place.append("key '\(key)'") }
        return place.isEmpty ? message : "\(place.joined(separator: ", ")): \(message)"
    }
}
