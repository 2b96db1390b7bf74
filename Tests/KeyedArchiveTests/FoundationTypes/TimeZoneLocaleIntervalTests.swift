import Foundation
import Testing
@testable import KeyedArchive

@Suite("TimeZone, Locale and DateInterval in NSTimeZone/NSLocale/NSDateInterval layouts")
struct TimeZoneLocaleIntervalTests {
    static let zones = ["America/New_York", "Europe/Paris", "Asia/Kolkata", "GMT", "UTC"].compactMap(TimeZone.init(identifier:))
        + [TimeZone(secondsFromGMT: 3_600)!, TimeZone(secondsFromGMT: -34_200)!]

    @Test("NSKeyedUnarchiver reads our TimeZone as an equal NSTimeZone", arguments: zones)
    func foundationReadsTimeZone(_ zone: TimeZone) throws {
        for read in try foundationReads(zone, as: NSTimeZone.self) {
            #expect(read.name == zone.identifier)
            #expect(read as TimeZone == zone)
            #expect(read.data == (zone as NSTimeZone).data, "NS.data holds the zone's rules")
        }
    }

    @Test("NSKeyedArchiver's NSTimeZone decodes as TimeZone (name and rules)", arguments: zones)
    func weReadTimeZone(_ zone: TimeZone) throws {
        #expect(try weRead(TimeZone.self, fromFoundationArchiveOf: zone as NSTimeZone) == [zone, zone])
    }

    @Test("A zone unknown by name is rebuilt from its rules where Foundation can, else refused by name")
    func unknownNameUsesRules() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        // Our archive of Paris with NS.name renamed: the rules stay Paris's.
        guard case .dictionary(var root) = try PropertyListValue(propertyList: archive(paris, format: .binary)),
              let index = root.firstIndex(where: { $0.key == "$objects" }),
              case .array(var objects) = root[index].value,
              let nameIndex = objects.firstIndex(of: .string("Europe/Paris")) else {
            Issue.record("no NS.name string in the archive")
            return
        }
        objects[nameIndex] = .string("Custom/Nowhere")
        root[index].value = .array(objects)
        let data = PropertyListValue.dictionary(root).propertyListData(format: .binary)
        // The oracle: what Foundation on this machine makes of that name and those rules.
        if let expected = NSTimeZone(name: "Custom/Nowhere", data: (paris as NSTimeZone).data) {
            let decoded = try ArchiveDecoder().decode(TimeZone.self, from: data)
            let summer = Date(timeIntervalSince1970: 1_720_000_000)
            #expect(decoded.secondsFromGMT(for: summer) == expected.secondsFromGMT(for: summer))
            #expect(decoded.identifier == expected.name)
        } else {
            // Foundation on Linux builds zones from rules only under a known name.
            #expect {
                try ArchiveDecoder().decode(TimeZone.self, from: data)
            } throws: { error in
                decodingErrorMessage(error)?.contains("unknown time zone 'Custom/Nowhere'") == true
            }
        }
    }

    static let locales = ["fr_FR", "en_US_POSIX", "ja_JP", "de"].map(Locale.init(identifier:))

    @Test("NSKeyedUnarchiver reads our Locale as an NSLocale with its identifier", arguments: locales)
    func foundationReadsLocale(_ locale: Locale) throws {
        for read in try foundationReads(locale, as: NSLocale.self) {
            #expect((read as Locale).identifier == locale.identifier)
        }
    }

    @Test("NSKeyedArchiver's NSLocale decodes as Locale", arguments: locales)
    func weReadLocale(_ locale: Locale) throws {
        #expect(try weRead(Locale.self, fromFoundationArchiveOf: NSLocale(localeIdentifier: locale.identifier)) == [locale, locale])
    }

    static let intervals = [
        DateInterval(start: Date(timeIntervalSinceReferenceDate: 100), duration: 50),
        DateInterval(start: Date(timeIntervalSinceReferenceDate: -1e9), duration: 0),
        DateInterval(start: Date(timeIntervalSinceReferenceDate: 0.25), duration: 86_400.5),
    ]

    @Test("NSKeyedUnarchiver reads our DateInterval as an equal NSDateInterval", arguments: intervals)
    func foundationReadsInterval(_ interval: DateInterval) throws {
        // Foundation on Linux reads the end from NS.startDate (so every interval, its own
        // archives included, comes back with duration 0): ours must read exactly as its own.
        let own = try #require(try foundationUnarchive(foundationArchive(NSDateInterval(start: interval.start, duration: interval.duration))) as? NSDateInterval)
        for read in try foundationReads(interval, as: NSDateInterval.self) {
            #expect(read.startDate == interval.start)
            #expect(read.duration == own.duration)
            #expect(read.endDate == own.endDate)
        }
    }

    @Test("NSKeyedArchiver's NSDateInterval (start and end) decodes as DateInterval", arguments: intervals)
    func weReadInterval(_ interval: DateInterval) throws {
        let archived = NSDateInterval(start: interval.start, duration: interval.duration)
        #expect(try weRead(DateInterval.self, fromFoundationArchiveOf: archived) == [interval, interval])
    }

    @Test("Apple's NSDateInterval fields: start, end and duration", .requiresPython3)
    func appleFields() throws {
        let graph = try archivedGraph(archive(Self.intervals[0], format: .binary))
        #expect(graph == #"{"$class": ["NSDateInterval", "NSObject"], "NS.duration": {"real": "50.0"}, "NS.endDate": {"$class": ["NSDate", "NSObject"], "NS.time": {"real": "150.0"}}, "NS.startDate": {"$class": ["NSDate", "NSObject"], "NS.time": {"real": "100.0"}}}"#)
    }

    @Test("An interval that ends before it starts throws instead of trapping")
    func negativeDuration() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(NSDate(timeIntervalSinceReferenceDate: 100), forKey: "NS.startDate")
        archiver.encode(NSDate(timeIntervalSinceReferenceDate: 50), forKey: "NS.endDate")
        archiver.finishEncoding()
        // Re-class the top-level dictionary as an NSDateInterval object.
        var value = try PropertyListValue(propertyList: archiver.encodedData)
        value = relabelTopAsObject(value, className: "NSDateInterval")
        #expect(throws: DecodingError.self) {
            try ArchiveDecoder().decode(DateInterval.self, from: value.propertyListData(format: .binary))
        }
    }

    @Test("Round trips inside a struct, and deterministic")
    func roundTrip() throws {
        struct Meeting: Codable, Equatable {
            var zone: TimeZone
            var locale: Locale
            var slot: DateInterval
            var attendeeZones: [TimeZone]
        }
        let meeting = Meeting(zone: Self.zones[1], locale: Locale(identifier: "fr_FR"), slot: Self.intervals[2],
                              attendeeZones: Self.zones)
        try expectRoundTrip(meeting)
    }

    @Test("Other objects asked for as TimeZone, Locale or DateInterval throw typeMismatch")
    func wrongClass() throws {
        expectTypeMismatch(TimeZone.self, from: try archive(Locale(identifier: "fr_FR"), format: .binary))
        expectTypeMismatch(Locale.self, from: try archive(Self.zones[0], format: .binary))
        expectTypeMismatch(DateInterval.self, from: try archive(Date(), format: .binary))
        expectTypeMismatch(TimeZone.self, from: try archive("Europe/Paris", format: .binary))
        expectTypeMismatch(Locale.self, from: foundationArchive(NSDate()))
    }
}

/// The archive with `$top` rewritten to one object of class `className` whose fields are
/// the top-level keys (how a hand-made NSCoding object's fields look).
func relabelTopAsObject(_ archive: PropertyListValue, className: String) -> PropertyListValue {
    guard case .dictionary(var root) = archive,
          let topIndex = root.firstIndex(where: { $0.key == "$top" }),
          case .dictionary(let top) = root[topIndex].value,
          let objectsIndex = root.firstIndex(where: { $0.key == "$objects" }),
          case .array(var objects) = root[objectsIndex].value else { return archive }
    let classUID = UInt64(objects.count)
    objects.append(.dictionary([
        PropertyListEntry(key: "$classes", value: .array([.string(className), .string("NSObject")])),
        PropertyListEntry(key: "$classname", value: .string(className)),
    ]))
    let objectUID = UInt64(objects.count)
    objects.append(.dictionary([PropertyListEntry(key: "$class", value: .uid(classUID))] + top))
    root[objectsIndex].value = .array(objects)
    root[topIndex].value = .dictionary([PropertyListEntry(key: "root", value: .uid(objectUID))])
    return .dictionary(root)
}
