import Foundation

// IndexPath ↔ NSIndexPath, in Apple's keyed layout: `NSIndexPathLength` always; one index
// as `NSIndexPathValue`; two or more as `NSIndexPathData`, an NSMutableData of the indexes
// packed as unsigned LEB128. Integers inline.

extension IndexPath: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let indexes = Array(self)
        guard indexes.allSatisfy({ $0 >= 0 }) else {
            throw EncodingError.invalidValue(self, EncodingError.Context(
                codingPath: path().path, debugDescription: "NSIndexPath holds unsigned indexes; \(self) has a negative one"))
        }
        return encoder.foundationObject(.indexPath) { fields in
            fields.integer("NSIndexPathLength", indexes.count)
            if indexes.count == 1 {
                fields.integer("NSIndexPathValue", indexes[0])
            } else if indexes.count > 1 {
                fields.packedNumbers("NSIndexPathData", indexes.lazy.map { UInt64($0) }, expectedCount: indexes.count)
            }
        }
    }
}

extension IndexPath: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> IndexPath {
        let fields = try decoder.foundationFields(IndexPath.self, classes: ["NSIndexPath"], at: slot, path: path())
        let length = try fields.requiredInteger("NSIndexPathLength")
        switch length {
        case ..<0:
            throw fields.corrupted("NSIndexPath has a negative NSIndexPathLength (\(length))")
        case 0:
            return IndexPath()
        case 1:
            let index = try fields.requiredInteger("NSIndexPathValue")
            guard index >= 0 else { throw fields.corrupted("NSIndexPath holds a negative index (\(index))") }
            return IndexPath(index: index)
        default:
            let packed = try fields.requiredData("NSIndexPathData")
            guard let numbers = PackedUnsigned.decode(packed), numbers.count == length else {
                throw fields.corrupted("NSIndexPath's NSIndexPathData does not hold \(length) packed indexes")
            }
            var indexes: [Int] = []
            indexes.reserveCapacity(numbers.count)
            for number in numbers {
                try decoder.countValue(at: fields.path("NSIndexPathData"), slot: slot)
                guard let index = Int(exactly: number) else {
                    throw fields.corrupted("NSIndexPath holds an index beyond Int.max (\(number))")
                }
                indexes.append(index)
            }
            return IndexPath(indexes: indexes)
        }
    }
}
