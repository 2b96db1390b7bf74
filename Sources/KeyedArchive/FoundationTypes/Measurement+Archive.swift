import Foundation

// Measurement ↔ NSMeasurement: `{NS.value: the number (inline), NS.unit: the NSUnit}`,
// class `NSMeasurement`; the unit's layout is in Unit+Archive.swift.

extension Measurement: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let unitUID = try ArchivedUnit.encode(unit, with: encoder, at: path())
        return encoder.foundationObject(.measurement) { fields in
            fields.real("NS.value", value)
            fields.object("NS.unit", uid: unitUID)
        }
    }
}

extension Measurement: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Measurement {
        let fields = try decoder.foundationFields(Measurement.self, classes: ["NSMeasurement"], at: slot, path: path())
        let value = try fields.requiredDouble("NS.value")
        let unit = try ArchivedUnit.decode(UnitType.self, from: decoder, slot: try fields.required("NS.unit"), at: fields.path("NS.unit"))
        return Measurement(value: value, unit: unit)
    }
}
