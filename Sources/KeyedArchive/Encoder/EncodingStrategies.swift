import Foundation

// Applying the encoder's non-default strategies. The default paths (NSDate, NSData, keys as
// written, reals as they are) never come here: each call site tests one precomputed flag,
// and these functions are kept out of line so the hot paths stay as small as before.

extension _ArchiveEncoder {
    /// The archive key for `key` under the key strategy (not called for `.useDefaultKeys`).
    @inline(never)
    func convertedKey(_ key: some CodingKey, at path: CodingPathNode) -> String {
        switch options.keys {
        case .useDefaultKeys:
            return key.stringValue
        case .convertToSnakeCase:
            let name = key.stringValue
            guard let cache = options.snakeCaseKeys else { return SnakeCase.fromCamelCase(name) }
            if let known = cache.converted[name] { return known }
            let converted = SnakeCase.fromCamelCase(name)
            cache.converted[name] = converted
            return converted
        case .custom(let convert):
            return convert(path.appending(key).path).stringValue
        }
    }

    /// A `Date` under a strategy other than `.nsDate`.
    @inline(never)
    func encodeDateWithStrategy(_ date: Date, at path: CodingPathNode) throws -> Int32 {
        switch options.date {
        case .nsDate, .deferredToDate:
            return try encodeThrough(at: path) { try date.encode(to: $0) }
        case .secondsSince1970:
            return table.real(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            return table.real(1000 * date.timeIntervalSince1970)
        case .iso8601:
            return table.string(ISO8601Text.string(from: date))
        case .formatted(let formatter):
            return table.string(formatter.string(from: date))
        case .custom(let encode):
            return try encodeThrough(at: path) { try encode(date, $0) }
        }
    }

    /// `Data` under a strategy other than `.nsData`.
    @inline(never)
    func encodeDataWithStrategy(_ data: Data, at path: CodingPathNode) throws -> Int32 {
        switch options.data {
        case .nsData, .deferredToData:
            return try encodeThrough(at: path) { try data.encode(to: $0) }
        case .base64:
            return table.string(data.base64EncodedString())
        case .custom(let encode):
            return try encodeThrough(at: path) { try encode(data, $0) }
        }
    }

    /// Runs `body` with an encoder of its own at `path` and returns the UID of what it
    /// wrote: an empty NSDictionary when it wrote nothing (JSONEncoder writes `{}`).
    private func encodeThrough(at path: CodingPathNode, _ body: (_ArchiveEncoder) throws -> Void) throws -> Int32 {
        let encoder = subEncoder(path: path, target: .none, patch: nil)
        try body(encoder)
        switch encoder.target {
        case .none: return encoder.makeObject(kind: .dictionary).uid
        case .keyed(let handle), .unkeyed(let handle): return handle.uid
        case .value(let uid): return uid
        }
    }

    /// The stored form of a NaN or infinity under `.throw` or `.convertToString` (only
    /// called for non-finite values when the strategy is not `.allow`).
    @inline(never)
    func nonConformingFloat<F: BinaryFloatingPoint>(_ value: F, at path: @autoclosure () -> CodingPathNode) throws -> ObjectBox.Value {
        switch options.floats {
        case .allow:
            return F.self == Float.self ? .float(Float(value)) : .real(Double(value))
        case .throw:
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: path().path,
                debugDescription: "Unable to encode \(F.self).\(value) directly (nonConformingFloatEncodingStrategy is .throw)."))
        case .convertToString(let positiveInfinity, let negativeInfinity, let nan):
            let text = value.isNaN ? nan : value < 0 ? negativeInfinity : positiveInfinity
            return .uid(table.string(text))
        }
    }

    /// The UID of a real or, when it is NaN or infinite, of its non-conforming form.
    @inline(__always)
    func realUID<F: BinaryFloatingPoint>(_ value: F, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        if !value.isFinite, options.checksFloats { return objectUID(try nonConformingFloat(value, at: path())) }
        return F.self == Float.self ? table.float(Float(value)) : table.real(Double(value))
    }
}

/// ISO 8601 text as `ISO8601DateFormatter` writes and reads it by default
/// (`2023-11-14T22:13:20Z`), shared by the encoder and decoder strategies.
enum ISO8601Text {
    static func string(from date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Parses the default form, and also the form with fractional seconds (as JSONDecoder does).
    static func date(from string: String) -> Date? {
        // The longest form is about 30 characters; longer text is not parsed at all.
        guard string.utf8.count <= 64 else { return nil }
        if let date = try? Date.ISO8601FormatStyle().parse(string) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string)
    }
}
