import Foundation

/// A structural problem in a keyed archive: what is wrong, and where.
///
/// The untyped ``KeyedArchiveView`` throws it directly. Typed decoding throws a
/// `DecodingError` whose context's `debugDescription` is the message (naming the object
/// index and coding path) and whose `underlyingError` is a `KeyedArchiveError` with the same
/// description, so its `localizedDescription` is the message too (a `DecodingError`'s own
/// `localizedDescription` is Foundation's generic "The data isn't in the correct format");
/// ``message(of:)`` finds it. A property list without the keyed-archive envelope is named as
/// such: "a plain property list, not a keyed archive".
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

    /// Whether ``message`` already names the place, so ``description`` does not prefix it
    /// (the error a `DecodingError` carries: its message is the decoder's whole sentence).
    private var messageNamesPlace = false

    /// Creates an error.
    public init(_ message: String, objectIndex: Int? = nil, key: String? = nil) {
        self.message = message
        self.objectIndex = objectIndex
        self.key = key
    }

    /// The error a `DecodingError` carries as its underlying error: `message` is the
    /// decoder's whole sentence, which already names the object and path, and is the
    /// ``description`` as it is.
    package init(describedBy message: String, objectIndex: Int?, key: String?) {
        self.init(message, objectIndex: objectIndex, key: key)
        messageNamesPlace = true
    }

    /// The package's one-line message for an error any of its APIs threw: for a
    /// `DecodingError`, the description of the `KeyedArchiveError` it carries as its
    /// context's `underlyingError` (the same text as the context's `debugDescription`); for
    /// the package's other errors, their `localizedDescription`. A `DecodingError` without
    /// one (thrown by an `init(from:)`) gives its printed form, `"\(error)"`.
    ///
    /// ```swift
    /// do {
    ///     _ = try ArchiveDecoder().decode(Person.self, from: data)
    /// } catch {
    ///     print(KeyedArchiveError.message(of: error))   // The data is not a property list (it looks like a JPEG image)
    /// }
    /// ```
    public static func message(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return error.localizedDescription }
        return error.archiveError?.description ?? "\(error)"
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
        if messageNamesPlace { return message }
        var place: [String] = []
        if let objectIndex { place.append("object \(objectIndex)") }
        if let key { place.append("key '\(key)'") }
        return place.isEmpty ? message : "\(place.joined(separator: ", ")): \(message)"
    }
}
