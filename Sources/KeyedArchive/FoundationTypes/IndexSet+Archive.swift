import Foundation

// IndexSet ↔ NSIndexSet, in Apple's keyed layout: `NSRangeCount` always; one range as
// `NSLocation` + `NSLength`; two or more as `NSRangeData`, an NSMutableData of (location,
// length) pairs packed as unsigned LEB128. All integers inline. NSMutableIndexSet writes
// the same fields and reads as an IndexSet too.

extension IndexSet: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let ranges = rangeView
        return encoder.foundationObject(.indexSet) { fields in
            fields.integer("NSRangeCount", ranges.count)
            if ranges.count == 1, let range = ranges.first {
                fields.integer("NSLocation", range.lowerBound)
                fields.integer("NSLength", range.count)
            } else if ranges.count > 1 {
                let pairs = ranges.lazy.flatMap { [UInt64($0.lowerBound), UInt64($0.count)] }
                fields.packedNumbers("NSRangeData", pairs, expectedCount: ranges.count * 2)
            }
        }
    }
}

extension IndexSet: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> IndexSet {
        let fields = try decoder.foundationFields(IndexSet.self, classes: ["NSIndexSet"], at: slot, path: path())
        let rangeCount = try fields.integer("NSRangeCount") ?? 0
        switch rangeCount {
        case ..<0:
            throw fields.corrupted("NSIndexSet has a negative NSRangeCount (\(rangeCount))")
        case 0:
            return IndexSet()
        case 1:
            let location = try fields.integer("NSLocation") ?? 0
            let length = try fields.integer("NSLength") ?? 0
            guard location >= 0, length >= 0 else {
                throw fields.corrupted("NSIndexSet holds a range outside 0..<Int.max (location \(location), length \(length))")
            }
            var set = IndexSet()
            try insert(location: UInt64(location), length: UInt64(length), into: &set, after: 0, fields: fields)
            return set
        default:
            let packed = try fields.requiredData("NSRangeData")
            guard let numbers = PackedUnsigned.decode(packed), numbers.count % 2 == 0, numbers.count / 2 == rangeCount else {
                throw fields.corrupted("NSIndexSet's NSRangeData does not hold \(rangeCount) packed ranges")
            }
            var set = IndexSet()
            var end = 0
            for pair in stride(from: 0, to: numbers.count, by: 2) {
                try decoder.countValue(at: fields.path("NSRangeData"), slot: slot)
                end = try insert(location: numbers[pair], length: numbers[pair + 1], into: &set, after: end, fields: fields)
            }
            return set
        }
    }

    /// Adds one archived range, which must lie in 0..<Int.max, after the ranges before it
    /// (Foundation writes them in order, which keeps this linear); returns its end.
    @discardableResult
    private static func insert(location: UInt64, length: UInt64, into set: inout IndexSet,
                               after previousEnd: Int, fields: FoundationFieldReader) throws -> Int {
        guard let start = Int(exactly: location), let count = Int(exactly: length),
              start <= Int.max - count else {
            throw fields.corrupted("NSIndexSet holds a range outside 0..<Int.max (location \(location), length \(length))")
        }
        guard start >= previousEnd else {
            throw fields.corrupted("NSIndexSet's ranges are out of order or overlap at location \(start)")
        }
        if count > 0 { set.insert(integersIn: start..<(start + count)) }
        return start + count
    }
}
