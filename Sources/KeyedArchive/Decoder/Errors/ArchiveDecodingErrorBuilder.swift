import Foundation

/// Which `DecodingError` case a failure is reported as.
enum ArchiveDecodingErrorKind {
    case typeMismatch(Any.Type)
    case valueNotFound(Any.Type)
    case keyNotFound(any CodingKey)
    case dataCorrupted
}

extension DecodingError {
    /// The one place the package builds a `DecodingError`: `message` is the context's
    /// `debugDescription`, and the context's `underlyingError` is a ``KeyedArchiveError``
    /// whose description (and `localizedDescription`) is the same message, so that code
    /// that prints `localizedDescription` can reach it (a `DecodingError`'s own
    /// `localizedDescription` is Foundation's generic "The data isn't in the correct
    /// format"). `objectIndex` and `key` fill the underlying error's fields; the message
    /// already names them. Built only on failure (cold path).
    @inline(never)
    static func archive(_ kind: ArchiveDecodingErrorKind, _ message: String, codingPath: [any CodingKey],
                        objectIndex: Int? = nil, key: String? = nil) -> DecodingError {
        let underlying = KeyedArchiveError(describedBy: message, objectIndex: objectIndex, key: key)
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: message, underlyingError: underlying)
        switch kind {
        case .typeMismatch(let type): return .typeMismatch(type, context)
        case .valueNotFound(let type): return .valueNotFound(type, context)
        case .keyNotFound(let key): return .keyNotFound(key, context)
        case .dataCorrupted: return .dataCorrupted(context)
        }
    }

    /// The package's ``KeyedArchiveError`` this error carries as its underlying error, if any.
    var archiveError: KeyedArchiveError? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context), .dataCorrupted(let context):
            return context.underlyingError as? KeyedArchiveError
        @unknown default: return nil
        }
    }
}
