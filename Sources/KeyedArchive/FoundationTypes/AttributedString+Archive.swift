import Foundation

// NSAttributedString and NSMutableAttributedString read as `String`: their text is the
// `NSString` field (a string, or an NSMutableString object); the attributes
// (`NSAttributes`, `NSAttributeInfo`) are not part of a String and are skipped.

extension _ArchiveDecoder {
    /// The text of the object with fields `keys`/`values` when it is an NSAttributedString
    /// (or a subclass); nil for an object of any other class.
    func attributedStringText(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList,
                              slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> String? {
        guard let chain = try archivedClass(keys: keys, values: values, slot: slot, at: path()),
              chain.contains(anyOf: ["NSAttributedString"]) else { return nil }
        let fields = FoundationFieldReader(decoder: self, keys: keys, values: values, slot: slot, path: path(), type: String.self)
        return try fields.requiredValue(String.self, "NSString")
    }
}
