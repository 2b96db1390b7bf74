import Foundation

/// What ``ArchivedValueTransformer`` does, on every platform (the transformer itself needs
/// `ValueTransformer`, which only Apple's Foundation has): a Codable value to archive data
/// and back, and the rule for data that does not decode.
struct ArchivedValueTransform<Value: Codable>: Sendable {
    let decoder: ArchiveDecoder
    let encoder: ArchiveEncoder

    /// The archive of `value`.
    func data(from value: Value) throws -> Data {
        try encoder.encode(value)
    }

    /// The value archived in `data`; the decoder's errors when it is not one.
    func value(from data: Data) throws -> Value {
        try decoder.decode(Value.self, from: data)
    }

    /// The forward transformation (what Core Data stores): the archive of a `Value`, and
    /// data kept by `reverseTransformedValue(_:)` unchanged; `nil` for anything else, and
    /// when the value cannot be encoded.
    func transformedValue(_ value: Any?) -> Data? {
        switch value {
        case let value as Value: return try? data(from: value)
        case let kept as Data: return kept
        default: return nil
        }
    }

    /// The reverse transformation (what Core Data reads): the `Value` archived in the data,
    /// or, when it does not decode, the data itself, so that saving the object writes the
    /// same bytes back instead of replacing them; `nil` for anything but data.
    func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        guard let decoded = try? self.value(from: data) else { return data }
        return decoded
    }
}
