import Foundation
import Testing
@testable import KeyedArchive

/// Date and data strategies: what Foundation's unarchiver reads for each, what JSONEncoder
/// writes for the same strategy, and round trips at every depth.
@Suite("Options: date and data strategies")
struct DateDataStrategyTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000.25)
    static let wholeDate = Date(timeIntervalSince1970: 1_700_000_000)
    static let bytes = Data([0, 1, 2, 250, 255])

    /// One row of the date table.
    struct DateRow: Sendable, CustomTestStringConvertible {
        let name: String
        let encoding: ArchiveEncoder.DateEncodingStrategy
        let decoding: ArchiveDecoder.DateDecodingStrategy
        let json: JSONEncoder.DateEncodingStrategy?
        /// The date used (ISO 8601 and formatters keep whole seconds only).
        let date: Date
        var testDescription: String { name }
    }

    static let posixFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy/MM/dd HH:mm:ss"
        return formatter
    }()

    static let dateRows: [DateRow] = [
        DateRow(name: "nsDate", encoding: .nsDate, decoding: .nsDate, json: nil, date: date),
        DateRow(name: "deferredToDate", encoding: .deferredToDate, decoding: .deferredToDate, json: .deferredToDate, date: date),
        DateRow(name: "secondsSince1970", encoding: .secondsSince1970, decoding: .secondsSince1970, json: .secondsSince1970, date: date),
        DateRow(name: "millisecondsSince1970", encoding: .millisecondsSince1970, decoding: .millisecondsSince1970,
                json: .millisecondsSince1970, date: date),
        DateRow(name: "iso8601", encoding: .iso8601, decoding: .iso8601, json: .iso8601, date: wholeDate),
        DateRow(name: "formatted", encoding: .formatted(posixFormatter), decoding: .formatted(posixFormatter),
                json: .formatted(posixFormatter), date: wholeDate),
        DateRow(name: "custom", encoding: .custom { date, encoder in
                    var value = encoder.singleValueContainer()
                    try value.encode("t=\(date.timeIntervalSince1970)")
                }, decoding: .custom { decoder in
                    let text = try decoder.singleValueContainer().decode(String.self)
                    return Date(timeIntervalSince1970: Double(text.dropFirst(2)) ?? 0)
                }, json: .custom { date, encoder in
                    var value = encoder.singleValueContainer()
                    try value.encode("t=\(date.timeIntervalSince1970)")
                }, date: date),
    ]

    /// The JSON value JSONEncoder writes for `value` (inside a one-element array).
    static func jsonValue<T: Encodable>(_ value: T, configure: (JSONEncoder) -> Void) throws -> Any? {
        let encoder = JSONEncoder()
        configure(encoder)
        return (try JSONSerialization.jsonObject(with: try encoder.encode([value])) as? [Any])?.first
    }

    @Test("Foundation reads each date strategy's output as JSONEncoder's value", arguments: dateRows)
    func dateForFoundation(row: DateRow) throws {
        let encoder = ArchiveEncoder()
        encoder.dateEncodingStrategy = row.encoding
        let read = try foundationUnarchive(try encoder.encode(row.date))
        guard let strategy = row.json else {
            #expect((read as? Date) == row.date)   // .nsDate: an NSDate
            return
        }
        let json = try Self.jsonValue(row.date) { $0.dateEncodingStrategy = strategy }
        if let text = json as? String {
            #expect(read as? String == text, "\(row.name): Foundation read \(String(describing: read))")
        } else {
            let number = try #require(json as? NSNumber)
            #expect((read as? NSNumber)?.doubleValue == number.doubleValue, "\(row.name): Foundation read \(String(describing: read))")
            #expect(read is NSNumber && !(read is Date))
        }
    }

    @Test("inside an archived struct, Foundation finds each strategy's value under the field's key", arguments: dateRows)
    func dateFieldForFoundation(row: DateRow) throws {
        struct Stamped: Encodable { var when: Date; var blob: Data }
        let encoder = ArchiveEncoder()
        encoder.dateEncodingStrategy = row.encoding
        encoder.dataEncodingStrategy = .base64
        encoder.setClassName("Probe", for: Stamped.self)
        let fields = try foundationFields(of: Stamped(when: row.date, blob: Self.bytes), encoder: encoder)
        #expect(fields["blob"] as? String == Self.bytes.base64EncodedString())
        guard let strategy = row.json else {
            #expect(fields["when"] as? Date == row.date)
            return
        }
        let json = try Self.jsonValue(row.date) { $0.dateEncodingStrategy = strategy }
        if let text = json as? String {
            #expect(fields["when"] as? String == text)
        } else {
            #expect((fields["when"] as? NSNumber)?.doubleValue == (json as? NSNumber)?.doubleValue)
        }
    }

    struct Dated: Codable, Equatable {
        var when: Date
        var list: [Date]
        var byName: [String: Date]
        var nested: [[Date]]
        var maybe: Date?
        var none: Date?

        init(_ date: Date) {
            when = date
            list = [date, date.addingTimeInterval(60)]
            byName = ["a": date]
            nested = [[date]]
            maybe = date
            none = nil
        }
    }

    @Test("each date strategy round-trips at every depth and through encode(topLevel:)", arguments: dateRows)
    func dateRoundTrip(row: DateRow) throws {
        let encoder = ArchiveEncoder()
        encoder.dateEncodingStrategy = row.encoding
        let decoder = ArchiveDecoder()
        decoder.dateDecodingStrategy = row.decoding
        let value = Dated(row.date)
        #expect(try decoder.decode(Dated.self, from: try encoder.encode(value)) == value)
        let data = try encoder.encode(topLevel: ["first": row.date, "second": value])
        #expect(try decoder.decode(Date.self, forKey: "first", from: data) == row.date)
        #expect(try decoder.decode(Dated.self, forKey: "second", from: data) == value)
    }

    @Test("ISO 8601 text is ISO8601DateFormatter's default; fractional seconds are read too")
    func iso8601Text() throws {
        let encoder = ArchiveEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let text = try ArchiveDecoder().decode(String.self, from: try encoder.encode(Self.wholeDate))
        #expect(text == ISO8601DateFormatter().string(from: Self.wholeDate))
        let decoder = ArchiveDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let fractional = try ArchiveEncoder().encode("2023-11-14T22:13:20.250Z")
        #expect(try decoder.decode(Date.self, from: fractional) == Self.date)
        let json = JSONDecoder()
        json.dateDecodingStrategy = .iso8601
        #expect(try json.decode([Date].self, from: Data(#"["2023-11-14T22:13:20.250Z"]"#.utf8)) == [Self.date])
        do {
            _ = try decoder.decode(Date.self, from: try ArchiveEncoder().encode("yesterday"))
            Issue.record("a non-ISO string decoded as a date")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("ISO 8601"))
        }
    }

    @Test("a custom date closure that encodes nothing writes an empty dictionary, as JSONEncoder writes {}")
    func emptyCustom() throws {
        let encoder = ArchiveEncoder()
        encoder.dateEncodingStrategy = .custom { _, _ in }
        let read = try foundationUnarchive(try encoder.encode(Self.date))
        #expect((read as? NSDictionary)?.count == 0)
        let json = try Self.jsonValue(Self.date) { $0.dateEncodingStrategy = .custom { _, _ in } }
        #expect((json as? [String: Any])?.isEmpty == true)
    }

    @Test("the default reading also accepts what it read before: NSDate objects and plist dates")
    func nsDateDefault() throws {
        let foundation = foundationArchive(NSDate(timeIntervalSinceReferenceDate: 12.5))
        #expect(try ArchiveDecoder().decode(Date.self, from: foundation) == Date(timeIntervalSinceReferenceDate: 12.5))
        // A number is not an NSDate: the default does not guess.
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Date.self, from: try ArchiveEncoder().encode(12.5)) }
    }

    // MARK: - Data

    struct DataRow: Sendable, CustomTestStringConvertible {
        let name: String
        let encoding: ArchiveEncoder.DataEncodingStrategy
        let decoding: ArchiveDecoder.DataDecodingStrategy
        let json: JSONEncoder.DataEncodingStrategy?
        var testDescription: String { name }
    }

    static let dataRows: [DataRow] = [
        DataRow(name: "nsData", encoding: .nsData, decoding: .nsData, json: nil),
        DataRow(name: "deferredToData", encoding: .deferredToData, decoding: .deferredToData, json: .deferredToData),
        DataRow(name: "base64", encoding: .base64, decoding: .base64, json: .base64),
        DataRow(name: "custom", encoding: .custom { data, encoder in
                    var value = encoder.singleValueContainer()
                    try value.encode(data.map { String($0, radix: 16) }.joined(separator: ":"))
                }, decoding: .custom { decoder in
                    let text = try decoder.singleValueContainer().decode(String.self)
                    return Data(text.split(separator: ":").compactMap { UInt8($0, radix: 16) })
                }, json: .custom { data, encoder in
                    var value = encoder.singleValueContainer()
                    try value.encode(data.map { String($0, radix: 16) }.joined(separator: ":"))
                }),
    ]

    @Test("Foundation reads each data strategy's output as JSONEncoder's value", arguments: dataRows)
    func dataForFoundation(row: DataRow) throws {
        let encoder = ArchiveEncoder()
        encoder.dataEncodingStrategy = row.encoding
        let read = try foundationUnarchive(try encoder.encode(Self.bytes))
        guard let strategy = row.json else {
            #expect(read as? Data == Self.bytes)   // .nsData: NSData
            return
        }
        let json = try Self.jsonValue(Self.bytes) { $0.dataEncodingStrategy = strategy }
        if let text = json as? String {
            #expect(read as? String == text)
        } else {
            let numbers = try #require(json as? [NSNumber])
            #expect((read as? [NSNumber])?.map(\.intValue) == numbers.map(\.intValue))
        }
    }

    struct Blobs: Codable, Equatable {
        var blob: Data
        var list: [Data]
        var byName: [String: Data]
        var maybe: Data?
    }

    @Test("each data strategy round-trips at every depth", arguments: dataRows)
    func dataRoundTrip(row: DataRow) throws {
        let encoder = ArchiveEncoder()
        encoder.dataEncodingStrategy = row.encoding
        let decoder = ArchiveDecoder()
        decoder.dataDecodingStrategy = row.decoding
        let value = Blobs(blob: Self.bytes, list: [Data(), Self.bytes], byName: ["k": Self.bytes], maybe: Data([9]))
        #expect(try decoder.decode(Blobs.self, from: try encoder.encode(value)) == value)
    }

    @Test("invalid Base64 throws dataCorrupted, as in JSONDecoder")
    func badBase64() throws {
        let decoder = ArchiveDecoder()
        decoder.dataDecodingStrategy = .base64
        #expect(throws: DecodingError.self) { try decoder.decode(Data.self, from: try ArchiveEncoder().encode("!!")) }
        let json = JSONDecoder()
        json.dataDecodingStrategy = .base64
        #expect(throws: DecodingError.self) { try json.decode([Data].self, from: Data(#"["!!"]"#.utf8)) }
    }

    @Test("a custom closure decoding nested dates from a cyclic archive throws instead of recursing")
    func customClosureCycle() throws {
        // Object 1 is an NSArray whose only element is itself.
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>$archiver</key><string>NSKeyedArchiver</string><key>$version</key><integer>100000</integer>
            <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
            <key>$objects</key><array><string>$null</string>
            <dict><key>$class</key><dict><key>CF$UID</key><integer>2</integer></dict>
            <key>NS.objects</key><array><dict><key>CF$UID</key><integer>1</integer></dict></array></dict>
            <dict><key>$classname</key><string>NSArray</string><key>$classes</key><array><string>NSArray</string></array></dict>
            </array></dict></plist>
            """
        let decoder = ArchiveDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            var items = try decoder.unkeyedContainer()
            return try items.decode(Date.self)
        }
        do {
            _ = try decoder.decode(Date.self, from: Data(xml.utf8))
            Issue.record("a cyclic archive decoded")
        } catch {
            #expect(decodingErrorMessage(error)?.contains("cycle") == true, "\(error)")
        }
    }
}
