import Foundation

// DateInterval ↔ NSDateInterval: `{NS.startDate: NSDate, NS.endDate: NSDate, NS.duration:
// seconds}` as Apple's Foundation writes it (Foundation on Linux writes the two dates only;
// both read either).

extension DateInterval: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let start = try start._archiveEncode(with: encoder, at: path())
        let end = try end._archiveEncode(with: encoder, at: path())
        return encoder.foundationObject(.dateInterval) { fields in
            fields.object("NS.startDate", uid: start)
            fields.object("NS.endDate", uid: end)
            fields.real("NS.duration", duration)
        }
    }
}

extension DateInterval: _ArchiveSpecialDecodable {
    /// As Apple's `initWithCoder:`: the start is required; the duration comes from
    /// `NS.duration` when present, else from `NS.endDate`, else it is zero.
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> DateInterval {
        let fields = try decoder.foundationFields(DateInterval.self, classes: ["NSDateInterval"], at: slot, path: path())
        let start = try fields.requiredValue(Date.self, "NS.startDate")
        let duration: Double
        if let stored = try fields.double("NS.duration") {
            duration = stored
        } else if let end = try fields.value(Date.self, "NS.endDate") {
            duration = end.timeIntervalSince(start)
        } else {
            duration = 0
        }
        // DateInterval traps on a negative duration: refuse it here instead.
        guard duration >= 0, duration.isFinite else {
            throw fields.corrupted("NSDateInterval ends before it starts (duration \(duration))")
        }
        return DateInterval(start: start, duration: duration)
    }
}
