import Foundation

// Calendar ↔ NSCalendar, in Apple's keyed layout: `NS.identifier` (the calendar identifier
// string), `NS.locale` (NSLocale, when set), `NS.timezone` (NSTimeZone), `NS.firstwkdy`
// and `NS.mindays` (inline integers). Apple also writes `NS.gstartdate` for a calendar
// whose Gregorian start date was changed, which Swift's Calendar cannot express; it is
// not written, and ignored when read.

enum ArchivedCalendarIdentifier {
    /// Calendar identifiers and their `NSCalendarIdentifier` strings.
    static let all: [(Calendar.Identifier, String)] = [
        (.gregorian, "gregorian"), (.buddhist, "buddhist"), (.chinese, "chinese"), (.coptic, "coptic"),
        (.ethiopicAmeteMihret, "ethiopic"), (.ethiopicAmeteAlem, "ethiopic-amete-alem"), (.hebrew, "hebrew"),
        (.iso8601, "iso8601"), (.indian, "indian"), (.islamic, "islamic"), (.islamicCivil, "islamic-civil"),
        (.japanese, "japanese"), (.persian, "persian"), (.republicOfChina, "roc"),
        (.islamicTabular, "islamic-tbla"), (.islamicUmmAlQura, "islamic-umalqura"),
    ]

    static func name(of identifier: Calendar.Identifier) -> String? {
        all.first { $0.0 == identifier }?.1
    }

    static func identifier(named name: String) -> Calendar.Identifier? {
        all.first { $0.1 == name }?.0
    }
}

extension Calendar: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        guard let name = ArchivedCalendarIdentifier.name(of: identifier) else {
            throw EncodingError.invalidValue(self, EncodingError.Context(
                codingPath: path().path, debugDescription: "The calendar \(identifier) has no NSCalendar identifier this version knows"))
        }
        let localeUID = try locale.map { try $0._archiveEncode(with: encoder, at: path()) }
        let zoneUID = try timeZone._archiveEncode(with: encoder, at: path())
        return encoder.foundationObject(.calendar) { fields in
            fields.string("NS.identifier", name)
            if let localeUID { fields.object("NS.locale", uid: localeUID) }
            fields.object("NS.timezone", uid: zoneUID)
            fields.integer("NS.firstwkdy", firstWeekday)
            fields.integer("NS.mindays", minimumDaysInFirstWeek)
        }
    }
}

extension Calendar: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Calendar {
        let fields = try decoder.foundationFields(Calendar.self, classes: ["NSCalendar"], at: slot, path: path())
        let name = try fields.requiredValue(String.self, "NS.identifier")
        guard let identifier = ArchivedCalendarIdentifier.identifier(named: name) else {
            throw fields.corrupted("NSCalendar has the unknown calendar identifier '\(name)'")
        }
        var calendar = Calendar(identifier: identifier)
        if let locale = try fields.value(Locale.self, "NS.locale") { calendar.locale = locale }
        if let zone = try fields.value(TimeZone.self, "NS.timezone") { calendar.timeZone = zone }
        if let first = try fields.integer("NS.firstwkdy") {
            guard (1...7).contains(first) else { throw fields.corrupted("NSCalendar's NS.firstwkdy is \(first), not a weekday 1...7") }
            calendar.firstWeekday = first
        }
        if let days = try fields.integer("NS.mindays") {
            guard (1...7).contains(days) else { throw fields.corrupted("NSCalendar's NS.mindays is \(days), not 1...7") }
            calendar.minimumDaysInFirstWeek = days
        }
        return calendar
    }
}
