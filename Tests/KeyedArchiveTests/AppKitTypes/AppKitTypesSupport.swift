import Foundation
import Testing
@testable import KeyedArchive

// Helpers for the AppKit/UIKit value suites: Apple-written corpus files are the oracle
// (Foundation on Linux has no NSColor or NSFont), read one object at a time.

/// `data` with its `$top` root pointed at object `index`, so that decoding reads that object.
func rooted(_ data: Data, at index: Int) throws -> Data {
    guard case .dictionary(var root) = try PropertyListValue(propertyList: data),
          let top = root.firstIndex(where: { $0.key == "$top" }) else {
        throw CancellationError()
    }
    root[top].value = .dictionary([PropertyListEntry(key: "root", value: .uid(UInt64(index)))])
    return PropertyListValue.dictionary(root).propertyListData(format: .binary)
}

/// Object `index` of corpus file `path`, decoded as `T`.
func corpusObject<T: Decodable>(_ type: T.Type, _ path: String, _ index: Int) throws -> T {
    try ArchiveDecoder().decode(T.self, from: rooted(try corpusData(path), at: index))
}

/// Decodes object `index` of corpus file `path` as `T`, encodes it again, and expects the
/// re-encoded object graph (plistlib's view, UIDs followed) to be the file's.
func expectRewrittenAsArchived<T: Codable>(_ type: T.Type, _ path: String, _ index: Int, dropping: [String] = [],
                                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    let original = try rooted(try corpusData(path), at: index)
    let value = try ArchiveDecoder().decode(T.self, from: original)
    let rewritten = try ArchiveEncoder().encode(value)
    #expect(try archivedGraph(rewritten, dropping: dropping) == archivedGraph(original, dropping: dropping),
            "\(path) object \(index)", sourceLocation: sourceLocation)
}

/// An archive whose root is an object of class `className` with `fields` (inline values).
func handMadeObject(_ className: String, _ fields: [PropertyListEntry]) -> Data {
    archive([.dictionary(fields + [PropertyListEntry(key: "$class", value: uid(2))]), classEntry(className)])
}

/// Decoding `T` from `data` throws a DecodingError whose message contains `text`.
func expectDecodingError<T: Decodable>(_ type: T.Type, from data: Data, mentioning text: String,
                                       sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(sourceLocation: sourceLocation) {
        try ArchiveDecoder().decode(T.self, from: data)
    } throws: { error in
        error is DecodingError && decodingErrorMessage(error)?.contains(text) == true
    }
}
