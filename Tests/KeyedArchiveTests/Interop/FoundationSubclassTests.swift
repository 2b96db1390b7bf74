import Foundation
import Testing
@testable import KeyedArchive

// Issue 27: an object whose `$classes` chain lists a Foundation class after its own
// (`[NSCalendarDate, NSDate, NSObject]`) is read by that Foundation class, and the fields
// the subclass adds are shown, never dropped and never an error. Fixtures are written by
// Foundation's NSKeyedArchiver on this machine (see `renamedFoundationArchive`).

/// NSCalendarDate as our encoder writes it: NSDate's `NS.time` and a field of its own.
private struct CalendarDateRecord: Codable, ArchivedClass, Equatable {
    static let archivedClassName = "NSCalendarDate"
    static let archivedSuperclassNames = ["NSDate", "NSObject"]
    var time: Double
    var format: String
    enum CodingKeys: String, CodingKey {
        case time = "NS.time"
        case format = "NS.format"
    }
}

@Suite("Interop: subclasses of Foundation's classes keep their own fields")
struct FoundationSubclassTests {
    static let time = 191_804_400.0
    static let chain = ["NSCalendarDate", "NSDate", "NSObject"]

    static func calendarDateArchive() throws -> Data {
        try renamedFoundationArchive(FoundationCalendarDate(time: time, format: "%A, %B %e"), names: [(FoundationCalendarDate.self, chain)])
    }

    @Test("A typed Date reads an NSCalendarDate that Foundation wrote")
    func typedDate() throws {
        let data = try Self.calendarDateArchive()
        #expect(try ArchiveDecoder().decode(Date.self, from: data) == Date(timeIntervalSinceReferenceDate: Self.time))
        // Inside a collection too.
        let list = try renamedFoundationArchive(NSArray(array: [FoundationCalendarDate(time: 1, format: "f")]), names: [(FoundationCalendarDate.self, Self.chain)])
        #expect(try ArchiveDecoder().decode([Date].self, from: list) == [Date(timeIntervalSinceReferenceDate: 1)])
    }

    @Test("The view reads the date and lists the added fields")
    func viewShowsAddedFields() throws {
        let view = try KeyedArchiveView(data: try Self.calendarDateArchive())
        guard case .reference(let index)? = view.value(forKey: "root") else { Issue.record("no root"); return }
        let object = view.objects[index]
        #expect(view.foundationValue(of: object) == .date(Date(timeIntervalSinceReferenceDate: Self.time)))
        #expect(view.addedFields(of: object).map(\.key) == ["NS.format"])
        #expect(view.render().contains("NS.format = \"%A, %B %e\""))
    }

    @Test("keyedarchive json and dump show the date and the added fields")
    func toolShowsAddedFields() throws {
        let data = try Self.calendarDateArchive()
        let json = try BuiltExecutable.run("keyedarchive", ["json", "-"], stdin: data)
        #expect(json.status == 0, "\(json.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any]
        #expect(parsed?["$value"] as? String == ArchiveDateText.iso8601(sinceReferenceDate: Self.time))
        #expect(parsed?["NS.format"] as? String == "%A, %B %e")
        let dump = try BuiltExecutable.run("keyedarchive", ["dump", "-"], stdin: data)
        #expect(dump.stdout.contains("NSCalendarDate"))
        #expect(dump.stdout.contains("NS.format = \"%A, %B %e\""))
    }

    @Test("Foundation reads the subclass it wrote and the one we write; we read ours as a Date", arguments: PropertyListFormat.allCases)
    func bothWays(format: PropertyListFormat) throws {
        let theirs = try foundationUnarchive(try Self.calendarDateArchive(), classes: ["NSCalendarDate": FoundationCalendarDate.self]) as? FoundationCalendarDate
        #expect(theirs?.time == Self.time)
        #expect(theirs?.format == "%A, %B %e")
        let record = CalendarDateRecord(time: Self.time, format: "%Y")
        let ours = try archive(record, format: format)
        let read = try foundationUnarchive(ours, classes: ["NSCalendarDate": FoundationCalendarDate.self]) as? FoundationCalendarDate
        #expect(read?.time == Self.time)
        #expect(read?.format == "%Y")
        #expect(try ArchiveDecoder().decode(Date.self, from: ours) == Date(timeIntervalSinceReferenceDate: Self.time))
        #expect(try ArchiveDecoder().decode(CalendarDateRecord.self, from: ours) == record)
    }
}
