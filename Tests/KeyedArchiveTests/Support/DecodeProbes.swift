import Foundation
@testable import KeyedArchive

// What a decode costs and how it fails, for tests that compare the decoder's fast paths
// with its general readers.

/// The units of work a decode of `data` as `T` charges, and the bytes of strings and data it made.
func decodeWork<T: Decodable>(_ type: T.Type, _ data: Data) throws -> (units: Int, bytes: Int) {
    let (_, budget) = try ArchiveDecoder().decodeReportingWork(T.self, from: data)
    return (budget.limit - budget.remaining, budget.bytesMade)
}

/// The smallest `maxObjectVisits` with which `data` decodes as `T`.
func smallestDecodingBudget<T: Decodable>(_ type: T.Type, _ data: Data, upTo limit: Int = 2_000) throws -> Int {
    for budget in 1...limit {
        let decoder = ArchiveDecoder()
        decoder.limits = .init(maxObjectVisits: budget)
        if (try? decoder.decode(type, from: data)) != nil { return budget }
    }
    throw KeyedArchiveError("no budget up to \(limit) decodes the value")
}

/// The description and coding path of the `DecodingError` that `decode` throws for `data`
/// (another error: its description and no path), or nil when it throws none.
func decodingFailure(_ data: Data, _ decode: (Data) throws -> Void) -> (text: String, path: [String])? {
    do {
        try decode(data)
        return nil
    } catch let error as DecodingError {
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            return (context.debugDescription, context.codingPath.map(\.stringValue))
        @unknown default:
            return nil
        }
    } catch {
        return ("\(error)", [])
    }
}
