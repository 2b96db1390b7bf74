import Foundation

// NSValue's keyed layout for the structures Foundation archives by kind: `NS.special` (an
// inline integer naming the kind) plus that kind's fields. NSRange (kind 4) is
// `{NS.rangeval.location, NS.rangeval.length}`, both integer objects; points, sizes and
// rectangles (kinds 1, 2, 3) are strings, see CGGeometry+Archive.swift.

/// The `NS.special` kinds of NSValue's keyed layout.
enum ArchivedValueKind: Int {
    case point = 1
    case size = 2
    case rect = 3
    case range = 4
    case edgeInsets = 12
}

extension _ArchiveEncoder {
    /// An NSValue of `kind` whose other fields `fill` appends.
    func specialValue(_ kind: ArchivedValueKind, _ fill: (FoundationFieldWriter) throws -> Void) rethrows -> Int32 {
        try foundationObject(.value) { fields in
            fields.integer("NS.special", kind.rawValue)
            try fill(fields)
        }
    }
}

extension _ArchiveDecoder {
    /// Opens the NSValue at `slot`, which must hold a structure of `kind`: an NSValue of
    /// another kind (a range asked for as a rectangle) or any other object throws `typeMismatch`.
    func specialValue<T>(_ type: T.Type, _ kind: ArchivedValueKind, at slot: ArchiveSlot, path: CodingPathNode) throws -> FoundationFieldReader {
        let fields = try foundationFields(T.self, classes: ["NSValue"], at: slot, path: path)
        let found = try fields.integer("NS.special")
        guard found == kind.rawValue else {
            let what = found.map { ArchivedValueKind(rawValue: $0).map { "an NSValue holding a \($0)" } ?? "an NSValue of kind \($0)" }
                ?? "an NSValue without NS.special"
            throw typeMismatch(T.self, found: what, slot: slot, at: path)
        }
        return fields
    }
}

extension NSRange: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        encoder.specialValue(.range) { fields in
            fields.object("NS.rangeval.location", uid: encoder.table.integer(Int64(location)))
            fields.object("NS.rangeval.length", uid: encoder.table.integer(Int64(length)))
        }
    }
}

extension NSRange: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> NSRange {
        let fields = try decoder.specialValue(NSRange.self, .range, at: slot, path: path())
        let location = try fields.requiredInteger("NS.rangeval.location")
        let length = try fields.requiredInteger("NS.rangeval.length")
        return NSRange(location: location, length: length)
    }
}
