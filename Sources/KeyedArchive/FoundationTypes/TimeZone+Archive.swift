import Foundation

// TimeZone ↔ NSTimeZone: `{NS.name: the identifier, NS.data: the zone's TZif rules}`, both
// objects (`encodeObject:forKey:`), class `NSTimeZone`.

extension TimeZone: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        // NS.data is what `NSTimeZone.data` holds: the TZif bytes of a named zone, empty
        // for a fixed offset from GMT.
        let rules = (self as NSTimeZone).data
        return encoder.foundationObject(.timeZone) { fields in
            fields.string("NS.name", identifier)
            fields.object("NS.data", uid: encoder.table.data(rules))
        }
    }
}

extension TimeZone: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> TimeZone {
        let fields = try decoder.foundationFields(TimeZone.self, classes: ["NSTimeZone"], at: slot, path: path())
        let name = try fields.requiredValue(String.self, "NS.name")
        if let zone = TimeZone(identifier: name) { return zone }
        // A zone this system does not know by name: rebuild it from the archived rules.
        if let rules = try fields.data("NS.data"), !rules.isEmpty,
           let zone = NSTimeZone(name: name, data: rules) {
            return zone as TimeZone
        }
        throw fields.corrupted("NSTimeZone names the unknown time zone '\(name)' and carries no rules for it")
    }
}
