import Foundation
import Testing
@testable import KeyedArchive

/// A date whose time is NaN or infinite is no point in time, and Foundation traps printing
/// one: decoding it throws `dataCorrupted` on every date path, and the view, `render()`,
/// `json` and `dump` show it without trapping.
@Suite("Non-finite dates")
struct NonFiniteDateTests {
    static let times: [Double] = [.nan, .infinity, -.infinity]

    /// An archive whose root is an NSDate with `time` as `NS.time`.
    static func nsDate(_ time: Double) -> Data {
        archive([dict(["$class": uid(2), "NS.time": .real(time)]), classEntry("NSDate")])
    }

    /// An archive whose root is a property-list date (marker 0x33) of `time`.
    static func plistDate(_ time: Double) -> Data {
        archive([.date(time)])
    }

    struct Event: Codable { var name: String; var at: Date }

    static func expectCorrupted(_ sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        let error = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) { try body() }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(context.debugDescription.contains("not a finite number of seconds"), "\(context.debugDescription)",
                sourceLocation: sourceLocation)
    }

    @Test("Date from an NSDate or a plist date with a non-finite time throws dataCorrupted", arguments: times)
    func date(time: Double) throws {
        Self.expectCorrupted { _ = try ArchiveDecoder().decode(Date.self, from: Self.nsDate(time)) }
        Self.expectCorrupted { _ = try ArchiveDecoder().decode(Date.self, from: Self.plistDate(time)) }
        // Finite times still decode, however far away.
        #expect(try ArchiveDecoder().decode(Date.self, from: Self.nsDate(1e300)).timeIntervalSinceReferenceDate == 1e300)
    }

    @Test("A Date field with a non-finite time throws dataCorrupted at the field's path", arguments: times)
    func field(time: Double) throws {
        let data = archive([
            dict(["$class": uid(2), "name": uid(3), "at": uid(4)]), classEntry("Event"),
            .string("launch"), dict(["$class": uid(5), "NS.time": .real(time)]), classEntry("NSDate"),
        ])
        let error = #expect(throws: DecodingError.self) { _ = try ArchiveDecoder().decode(Event.self, from: data) }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["at"])
    }

    @Test("Date strategies reading numbers refuse non-finite ones", arguments: times)
    func strategies(time: Double) {
        let data = archive([.real(time)])
        let strategies: [ArchiveDecoder.DateDecodingStrategy] = [.secondsSince1970, .millisecondsSince1970, .deferredToDate]
        for strategy in strategies {
            let decoder = ArchiveDecoder()
            decoder.dateDecodingStrategy = strategy
            Self.expectCorrupted { _ = try decoder.decode(Date.self, from: data) }
        }
        let custom = ArchiveDecoder()
        custom.dateDecodingStrategy = .custom { decoder in
            Date(timeIntervalSinceReferenceDate: try decoder.singleValueContainer().decode(Double.self))
        }
        Self.expectCorrupted { _ = try custom.decode(Date.self, from: data) }
    }

    @Test("DateInterval whose start is a non-finite NSDate throws dataCorrupted", arguments: times)
    func dateInterval(time: Double) {
        let data = archive([
            dict(["$class": uid(2), "NS.startDate": uid(3), "NS.endDate": uid(5)]), classEntry("NSDateInterval"),
            dict(["$class": uid(4), "NS.time": .real(time)]), classEntry("NSDate"),
            dict(["$class": uid(4), "NS.time": .real(10)]),
        ])
        Self.expectCorrupted { _ = try ArchiveDecoder().decode(DateInterval.self, from: data) }
    }

    @Test("The view, render(), json and dump show non-finite dates without trapping", arguments: times)
    func viewAndTool(time: Double) throws {
        for data in [Self.nsDate(time), Self.plistDate(time)] {
            let view = try KeyedArchiveView(data: data)
            let text = view.render()
            #expect(text.contains(String(time)), "\(text)")
            // Describing every value would trap on a `Date` made from NaN.
            #expect(!String(describing: view.objects).isEmpty)
            let json = try CLI.run(["json", "-"], stdin: data)
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout.contains("null"), "JSON has no NaN or infinity: \(json.stdout)")
            let dump = try CLI.run(["dump", "-"], stdin: data)
            #expect(dump.status == 0, "\(dump.stderr)")
            #expect(dump.stdout.contains(String(time)), "\(dump.stdout)")
        }
        let plain = try KeyedArchiveView(data: Self.plistDate(time))
        let shown = try #require(plain.objects[1].plainValue)
        #expect(String(describing: shown) == String(describing: ArchivedValue.real(time)))
    }
}

/// An NSCoding class reading a date with `decodeObject(of:forKey:)`, for the compatibility
/// layer's path.
final class NonFiniteDateHolder: NSObject, NSCoding {
    let when: Date?
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) {
        when = coder.decodeObject(of: [NSDate.self], forKey: "when") as? Date
        super.init()
    }
}

extension NonFiniteDateTests {
    private struct Holder: Decodable { @NSCodingObject var holder: NonFiniteDateHolder }

    @Test("decodeObject(of: [NSDate.self]) in init(coder:) refuses a non-finite NSDate or plist date", arguments: times)
    func nsCoderPath(time: Double) {
        for when: PropertyListValue in [uid(4), .date(time)] {
            let data = archive([
                dict(["$class": uid(6), "holder": uid(2)]),
                dict(["$class": uid(3), "when": when]), classEntry("Holder"),
                dict(["$class": uid(5), "NS.time": .real(time)]), classEntry("NSDate"), classEntry("Root"),
            ])
            let decoder = ArchiveDecoder()
            decoder.setClass(NonFiniteDateHolder.self, forClassName: "Holder")
            let error = #expect(throws: DecodingError.self, "\(when)") { _ = try decoder.decode(Holder.self, from: data) }
            guard case .dataCorrupted(let context)? = error else {
                Issue.record("expected dataCorrupted, got \(String(describing: error))")
                continue
            }
            #expect(context.debugDescription.contains("not a finite number of seconds"), "\(context.debugDescription)")
        }
    }
}
