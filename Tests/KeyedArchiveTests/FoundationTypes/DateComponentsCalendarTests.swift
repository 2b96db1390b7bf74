import Foundation
import Testing
@testable import KeyedArchive

@Suite("DateComponents and Calendar in NSDateComponents/NSCalendar layouts")
struct DateComponentsCalendarTests {
    static var paris: TimeZone { TimeZone(identifier: "Europe/Paris")! }

    static var calendars: [Calendar] {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = paris
        gregorian.locale = Locale(identifier: "fr_FR")
        gregorian.firstWeekday = 2
        gregorian.minimumDaysInFirstWeek = 4
        var hebrew = Calendar(identifier: .hebrew)
        hebrew.timeZone = TimeZone(secondsFromGMT: 7_200)!
        return [gregorian, hebrew, Calendar(identifier: .iso8601), Calendar(identifier: .japanese)]
    }

    static var components: [DateComponents] {
        var full = DateComponents(calendar: calendars[0], timeZone: paris, era: 1, year: 2_020, month: 3, day: 4,
                                  hour: 5, minute: 6, second: 7, nanosecond: 8, weekday: 3, weekdayOrdinal: 1,
                                  quarter: 1, weekOfMonth: 1, weekOfYear: 10, yearForWeekOfYear: 2_020)
        full.isLeapMonth = true
        let duration = DateComponents(hour: 3, minute: 30)
        let date = DateComponents(timeZone: TimeZone(secondsFromGMT: -3_600), year: 1_999, month: 12, day: 31)
        return [full, duration, date, DateComponents()]
    }

    @Test("NSKeyedUnarchiver reads our Calendar as an equal NSCalendar", arguments: calendars)
    func foundationReadsCalendar(_ calendar: Calendar) throws {
        for read in try foundationReads(calendar, as: NSCalendar.self) {
            #expect(read as Calendar == calendar)
        }
    }

    @Test("NSKeyedArchiver's NSCalendar decodes as Calendar", arguments: calendars)
    func weReadCalendar(_ calendar: Calendar) throws {
        for read in try weRead(Calendar.self, fromFoundationArchiveOf: calendar as NSCalendar) {
            #expect(read.identifier == calendar.identifier)
            #expect(read.timeZone == calendar.timeZone)
            #expect(read.locale?.identifier == calendar.locale?.identifier)
            #expect(read.firstWeekday == calendar.firstWeekday)
            #expect(read.minimumDaysInFirstWeek == calendar.minimumDaysInFirstWeek)
        }
    }

    @Test("NSKeyedUnarchiver reads the components we set", arguments: components)
    func foundationReadsComponents(_ value: DateComponents) throws {
        for format in PropertyListFormat.allCases {
            let read: NSDateComponents
            do {
                read = try #require(try foundationUnarchive(archive(value, format: format)) as? NSDateComponents)
            } catch let error as FoundationUnarchiveError {
                // Apple's layout leaves out a nil calendar or time zone; Foundation on Linux
                // decodes both keys unconditionally and fails without them.
                #expect(value.calendar == nil || value.timeZone == nil, "\(error)")
                #expect(error.description.contains("NS.calendar") || error.description.contains("NS.timezone"), "\(error)")
                continue
            }
            let components = read as DateComponents
            for unit in Self.units {
                // Apple's layout omits unset components; Foundation on Linux reads a missing
                // one as 0 (it does not check containsValue), so only set ones are compared.
                if let expected = value.value(for: unit) { #expect(components.value(for: unit) == expected, "\(unit)") }
            }
            #expect(components.timeZone == value.timeZone)
            #expect(components.calendar == value.calendar)
            // isLeapMonth is not compared: Apple writes NS.leapMonth, Linux reads NS.isLeapMonth.
        }
    }

    @Test("NSKeyedArchiver's NSDateComponents decodes as equal DateComponents", arguments: components)
    func weReadComponents(_ value: DateComponents) throws {
        for read in try weRead(DateComponents.self, fromFoundationArchiveOf: value as NSDateComponents) {
            for unit in Self.units { #expect(read.value(for: unit) == value.value(for: unit), "\(unit)") }
            #expect(read.timeZone == value.timeZone)
            #expect(read.calendar?.identifier == value.calendar?.identifier)
            #expect(read.calendar?.timeZone == value.calendar?.timeZone)
            #expect(read.isLeapMonth == value.isLeapMonth)
        }
    }

    @Test("Apple's fields: set components only, NS.leapMonth and NS.repeatedDay", .requiresPython3)
    func appleFields() throws {
        let graph = try archivedGraph(archive(DateComponents(hour: 3, minute: 30), format: .binary))
        #expect(graph == #"{"$class": ["NSDateComponents", "NSObject"], "NS.hour": 3, "NS.leapMonth": 0, "NS.minute": 30, "NS.repeatedDay": false}"#)
        let calendar = try archivedGraph(archive(Self.calendars[2], format: .binary), dropping: ["NS.data"])
        #expect(calendar.hasPrefix(#"{"$class": ["NSCalendar", "NSObject"], "NS.firstwkdy": 2, "NS.identifier": "iso8601""#))
    }

    @Test("Round trip inside a struct, and deterministic")
    func roundTrip() throws {
        struct Reminder: Codable, Equatable {
            var when: DateComponents
            var every: DateComponents
            var calendar: Calendar
        }
        let reminder = Reminder(when: Self.components[0], every: Self.components[1], calendar: Self.calendars[1])
        try expectRoundTrip(reminder)
    }

    @Test("Other objects asked for as DateComponents or Calendar throw typeMismatch")
    func wrongClass() throws {
        expectTypeMismatch(DateComponents.self, from: try archive(Self.calendars[0], format: .binary))
        expectTypeMismatch(Calendar.self, from: try archive(DateComponents(year: 1), format: .binary))
        expectTypeMismatch(Calendar.self, from: foundationArchive(NSTimeZone(name: "Europe/Paris")!))
    }

    static let units: [Calendar.Component] = [
        .era, .year, .month, .day, .hour, .minute, .second, .nanosecond, .weekday, .weekdayOrdinal, .quarter,
        .weekOfMonth, .weekOfYear, .yearForWeekOfYear,
    ]
}
