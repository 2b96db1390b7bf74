import Foundation

/// A key that one dictionary of an archive holds more than once, where it is, and which
/// occurrence every reader uses (see `BinaryPropertyList.resolvingDuplicateKeys`).
package struct ArchiveDuplicateKey: Sendable, Hashable {
    /// The `$objects` index of the dictionary, or `nil` when it is not an entry of
    /// `$objects` (the envelope, `$top`, or a dictionary nested inside an object).
    package let objectIndex: Int?
    /// The dictionary's object number in the (binary form of the) property list.
    package let dictionary: Int
    package let key: String
    package let occurrences: Int
    /// Whether the first occurrence is used (binary property lists) or the last (XML).
    package let keepsFirst: Bool
}

extension KeyedArchiveView {
    /// The keys that dictionaries of the property list in `data` hold more than once, in
    /// object order (empty for almost every file). For `keyedarchive verify`.
    ///
    /// - Throws: what opening the property list throws.
    package static func duplicateKeys(in data: Data, limits: ArchiveDecoder.Limits = ArchiveDecoder.Limits()) throws -> [ArchiveDuplicateKey] {
        try PropertyListInput.read(data, maxDepth: limits.maxDepth) { plist in
            guard !plist.duplicateKeys.isEmpty else { return [] }
            var objectIndex: [Int: Int] = [:]
            if let document = try? ArchiveDocument(plist: plist) {
                for index in 0..<document.objectCount {
                    if let ref = try? document.objectRef(index), objectIndex[ref] == nil { objectIndex[ref] = index }
                }
            }
            return plist.duplicateKeys.map {
                ArchiveDuplicateKey(objectIndex: objectIndex[$0.dictionary], dictionary: $0.dictionary, key: $0.key,
                                    occurrences: $0.occurrences, keepsFirst: $0.keepsFirst)
            }
        }
    }
}
