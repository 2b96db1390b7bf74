import Foundation

// Locale ↔ NSLocale: `{NS.identifier: the locale identifier}`, class `NSLocale`.

extension Locale: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        encoder.foundationObject(.locale) { fields in
            fields.string("NS.identifier", identifier)
        }
    }
}

extension Locale: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Locale {
        let fields = try decoder.foundationFields(Locale.self, classes: ["NSLocale"], at: slot, path: path())
        return Locale(identifier: try fields.requiredValue(String.self, "NS.identifier"))
    }
}
