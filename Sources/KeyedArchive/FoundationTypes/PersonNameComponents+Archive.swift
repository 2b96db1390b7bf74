import Foundation

// PersonNameComponents ↔ NSPersonNameComponents, in Apple's keyed layout: the object holds
// one field, `NS.nameComponentsPrivate`, an `_NSPersonNameComponentsData` object with
// `NS.givenName`, `NS.familyName`, `NS.middleName`, `NS.namePrefix`, `NS.nameSuffix`,
// `NS.nickname` (strings, `$null` when absent) and `NS.phoneticRepresentation` (another
// NSPersonNameComponents, or `$null`). Foundation on Linux writes those fields on the
// NSPersonNameComponents object itself; both are read.

private var nameKeys: [(key: String, path: WritableKeyPath<PersonNameComponents, String?>)] { [
    ("NS.givenName", \.givenName), ("NS.familyName", \.familyName), ("NS.middleName", \.middleName),
    ("NS.namePrefix", \.namePrefix), ("NS.nameSuffix", \.nameSuffix), ("NS.nickname", \.nickname),
] }

extension PersonNameComponents: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let phonetic = try phoneticRepresentation.map { try $0._archiveEncode(with: encoder, at: path()) } ?? 0
        let data = encoder.foundationObject(.personNameComponentsData) { fields in
            for (key, path) in nameKeys {
                fields.object(key, uid: self[keyPath: path].map { encoder.table.string($0) } ?? 0)
            }
            fields.object("NS.phoneticRepresentation", uid: phonetic)
        }
        return encoder.foundationObject(.personNameComponents) { $0.object("NS.nameComponentsPrivate", uid: data) }
    }
}

extension PersonNameComponents: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> PersonNameComponents {
        let outer = try decoder.foundationFields(PersonNameComponents.self, classes: ["NSPersonNameComponents"], at: slot, path: path())
        guard let inner = try outer.field("NS.nameComponentsPrivate"), !decoder.isNil(inner) else {
            return try read(outer)  // Foundation on Linux: the fields are on the object itself.
        }
        guard case .uid(let uid) = inner else {
            throw outer.corrupted("NS.nameComponentsPrivate is not an object")
        }
        let innerPath = outer.path("NS.nameComponentsPrivate")
        return try decoder.withObject(uid, at: innerPath) {
            try read(try decoder.foundationFields(PersonNameComponents.self, classes: ["_NSPersonNameComponentsData"],
                                                  at: inner, path: innerPath))
        }
    }

    private static func read(_ fields: FoundationFieldReader) throws -> PersonNameComponents {
        var components = PersonNameComponents()
        for (key, path) in nameKeys {
            components[keyPath: path] = try fields.value(String.self, key)
        }
        components.phoneticRepresentation = try fields.value(PersonNameComponents.self, "NS.phoneticRepresentation")
        return components
    }
}
