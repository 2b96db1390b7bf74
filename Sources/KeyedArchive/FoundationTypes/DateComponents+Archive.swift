import Foundation

// DateComponents ↔ NSDateComponents, in Apple's keyed layout: `NS.calendar` and
// `NS.timezone` (objects, when set), then each component that is set as an inline integer
// (`NS.era`, `NS.year`, … `NS.nanosec`, `NS.yearForWOY`, `NS.dayOfYear`), then
// `NS.leapMonth` (integer 0/1) and `NS.repeatedDay` (boolean). Components that are not set
// are not written. Foundation on Linux writes every component (NSDateComponentUndefined,
// Int.max, for unset ones) and `NS.isLeapMonth`; both are read.

/// The integer components, by archive key.
private let componentKeys: [(key: String, component: Calendar.Component)] = [
    ("NS.era", .era), ("NS.year", .year), ("NS.month", .month), ("NS.day", .day), ("NS.hour", .hour),
    ("NS.minute", .minute), ("NS.second", .second), ("NS.weekday", .weekday),
    ("NS.weekdayOrdinal", .weekdayOrdinal), ("NS.quarter", .quarter), ("NS.nanosec", .nanosecond),
    ("NS.weekOfMonth", .weekOfMonth), ("NS.weekOfYear", .weekOfYear), ("NS.yearForWOY", .yearForWeekOfYear),
]

extension DateComponents: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let calendarUID = try calendar.map { try $0._archiveEncode(with: encoder, at: path()) }
        let zoneUID = try timeZone.map { try $0._archiveEncode(with: encoder, at: path()) }
        return encoder.foundationObject(.dateComponents) { fields in
            if let calendarUID { fields.object("NS.calendar", uid: calendarUID) }
            if let zoneUID { fields.object("NS.timezone", uid: zoneUID) }
            for (key, component) in componentKeys {
                if let number = value(for: component), number != NSDateComponentUndefined { fields.integer(key, number) }
            }
            var repeatedDay = false
            #if !KEYEDARCHIVE_SDK_BEFORE_IOS18  // the iOS 18 SDK's API (see ApplePlatforms.md)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
                if let dayOfYear, dayOfYear != NSDateComponentUndefined { fields.integer("NS.dayOfYear", dayOfYear) }
                repeatedDay = isRepeatedDay ?? false
            }
            #endif
            fields.integer("NS.leapMonth", isLeapMonth == true ? 1 : 0)
            fields.bool("NS.repeatedDay", repeatedDay)
        }
    }
}

extension DateComponents: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> DateComponents {
        let fields = try decoder.foundationFields(DateComponents.self, classes: ["NSDateComponents"], at: slot, path: path())
        var components = DateComponents()
        components.calendar = try fields.value(Calendar.self, "NS.calendar")
        components.timeZone = try fields.value(TimeZone.self, "NS.timezone")
        for (key, component) in componentKeys {
            // NSDateComponentUndefined (Int.max) is how Foundation on Linux writes "not set".
            if let number = try fields.integer(key), number != NSDateComponentUndefined {
                components.setValue(number, for: component)
            }
        }
        #if !KEYEDARCHIVE_SDK_BEFORE_IOS18  // the iOS 18 SDK's API (see ApplePlatforms.md)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            if let dayOfYear = try fields.integer("NS.dayOfYear"), dayOfYear != NSDateComponentUndefined {
                components.dayOfYear = dayOfYear
            }
            if try fields.bool("NS.repeatedDay") == true { components.isRepeatedDay = true }
        }
        #endif
        // As Apple reads it: set only when true (Apple: NS.leapMonth ≠ 0; Linux: NS.isLeapMonth).
        if try fields.integer("NS.leapMonth").map({ $0 != 0 }) == true || fields.bool("NS.isLeapMonth") == true {
            components.isLeapMonth = true
        }
        return components
    }
}
