/// A structural problem in a keyed archive: what is wrong, and where.
///
/// Typed decoding wraps it in a `DecodingError` (as its `underlyingError`, with the coding
/// path); the untyped ``KeyedArchiveView`` throws it directly.
///
/// ```swift
/// do {
///     _ = try KeyedArchiveView(data: data)
/// } catch let error as KeyedArchiveError {
///     print(error.objectIndex ?? -1, error.key ?? "", error.message)
/// }
/// ```
public struct KeyedArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
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

    /// "object 5, key 'name': message".
    public var description: String {
        var place: [String] = []
        if let objectIndex { place.append("object \(objectIndex)") }
        if let key { place.append("key '\(key)'") }
        return place.isEmpty ? message : "\(place.joined(separator: ", ")): \(message)"
    }
}
