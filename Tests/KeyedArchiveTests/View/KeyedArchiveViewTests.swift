import Foundation
import KeyedArchive
import Testing

/// The library's one interpretation of Foundation objects (`foundationValue(of:)`) and its
/// one tree renderer, on archives Foundation writes and on hand-built layouts.
@Suite("KeyedArchiveView: Foundation values and rendering")
struct KeyedArchiveViewTests {
    typealias Value = KeyedArchive.PropertyListValue

    /// The first object of class `name`.
    static func object(_ name: String, in view: KeyedArchiveView) throws -> ArchivedObject {
        try #require(view.objects.first { $0.className == name }, "no \(name) in the archive")
    }

    @Test("Foundation's own archive: every value class reads as its value")
    func foundationArchive() throws {
        let base = NSURL(string: "https://example.com/people/")!
        let root: NSDictionary = [
            "text": NSString(string: "héllo"),
            "bytes": NSData(bytes: [0, 1, 2, 255] as [UInt8], length: 4),
            "when": NSDate(timeIntervalSinceReferenceDate: 1.5),
            "page": NSURL(string: "ada", relativeTo: base as URL)!,
            "id": NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            "nothing": NSNull(),
            "list": NSArray(array: [1, 2]),
        ]
        // (NSDecimalNumber is left out: swift-corelibs-foundation's archiver traps on it;
        // its layout is tested below from hand-built archives.)
        let view = try KeyedArchiveView(data: try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false))
        let dictionary = try #require(view.objects.first { $0.className?.hasSuffix("Dictionary") == true })
        guard case .dictionary(let keys, let values)? = view.foundationValue(of: dictionary) else {
            Issue.record("the root is not read as a dictionary")
            return
        }
        var byKey: [String: ArchivedFoundationValue?] = [:]
        for (key, value) in zip(keys, values) {
            guard case .string(let name)? = view.plainValue(key) else { continue }
            if case .data(let bytes)? = view.plainValue(value) {
                byKey[name] = .data(bytes)  // Foundation on Linux writes NSData as plain data
            } else if case .reference(let index) = value {
                byKey[name] = view.foundationValue(of: view.objects[index])
            }
        }
        #expect(byKey["when"] == .date(Date(timeIntervalSinceReferenceDate: 1.5)))
        #expect(byKey["bytes"] == .data(Data([0, 1, 2, 255])))
        #expect(byKey["page"]??.urlString == "https://example.com/people/ada")
        #expect(byKey["id"] == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
        #expect(byKey["nothing"] == .null)
        #expect(byKey["list"]??.elements?.count == 2)
        // Plain strings are plain values; a string object reads as its text too.
        #expect(view.render().contains("\"héllo\""))
    }

    @Test("render() prints dates, not NS.time; raw fields on request")
    func renderDates() throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: NSDate(timeIntervalSinceReferenceDate: 0), requiringSecureCoding: false)
        let view = try KeyedArchiveView(data: data)
        #expect(view.render() == "root: NSDate #1 = 2001-01-01T00:00:00Z\n")
        #expect(view.description == view.render())
        let raw = view.render(options: .init(foundationSummaries: false))
        #expect(raw.contains("NS.time = 0.0"))
        #expect(view.render(options: .init(colors: true)).contains("\u{1B}[1;36mNSDate"))
        var out = ""
        #expect(throws: KeyedArchiveError.self) { try view.render(key: "other", options: .init(), to: &out) }
        try view.render(key: "root", options: .init(), to: &out)
        #expect(out == view.render())
    }

    /// An NSDecimalNumber whose 16 mantissa bytes are `mantissa` (padded), in `byteOrder`.
    static func decimal(_ mantissa: [UInt8], length: Int64, exponent: Int64, byteOrder: Int64?) -> Data {
        var fields: [(String, Value)] = [
            ("NS.mantissa", .data(Data(mantissa + [UInt8](repeating: 0, count: 16 - mantissa.count)))),
            ("NS.exponent", .integer(exponent)), ("NS.length", .integer(length)), ("NS.negative", .bool(false)),
        ]
        if let byteOrder { fields.append(("NS.mantissa.bo", .integer(byteOrder))) }
        return CLIFixtures.raw([CLIFixtures.object(2, fields), CLIFixtures.classEntry("NSDecimalNumber")])
    }

    @Test("NSDecimalNumber honours the mantissa byte order", arguments: [
        (byteOrder: Int64?.some(1), bytes: [UInt8]([0x39, 0x30]), text: "1234.5"),
        (byteOrder: nil, bytes: [0x39, 0x30], text: "1234.5"),
        (byteOrder: 2, bytes: [0x30, 0x39], text: "1234.5"),
    ])
    func decimalByteOrder(byteOrder: Int64?, bytes: [UInt8], text: String) throws {
        let view = try KeyedArchiveView(data: Self.decimal(bytes, length: 1, exponent: -1, byteOrder: byteOrder))
        guard case .decimal(let number)? = view.foundationValue(of: view.objects[1]) else {
            Issue.record("not read as a decimal")
            return
        }
        #expect(number.description == text)
        #expect(number.decimal == Decimal(string: text))
        #expect(view.render() == "root: NSDecimalNumber #1 = \(text)\n")
    }

    @Test("NSURL: the base chain is resolved; a base that comes back to itself is not followed")
    func urlBases() throws {
        func url(_ relative: String, base: UInt64, classUID: UInt64) -> Value {
            CLIFixtures.object(classUID, [("NS.relative", .string(relative)), ("NS.base", .uid(base))])
        }
        let chain = CLIFixtures.raw([url("c", base: 2, classUID: 4), url("b/", base: 3, classUID: 4),
                                     url("https://example.com/a/", base: 0, classUID: 4), CLIFixtures.classEntry("NSURL")])
        let view = try KeyedArchiveView(data: chain)
        #expect(view.foundationValue(of: view.objects[1])?.urlString == "https://example.com/a/b/c")
        let loop = CLIFixtures.raw([url("c", base: 2, classUID: 3), url("b/", base: 1, classUID: 3), CLIFixtures.classEntry("NSURL")])
        let looped = try KeyedArchiveView(data: loop)
        #expect(looped.foundationValue(of: looped.objects[1]) == nil)
        #expect(looped.render().contains("(cycle)"))
    }

    @Test("an NSString whose NS.string refers to itself is shown by its fields, not followed")
    func selfReferencingString() throws {
        let data = CLIFixtures.raw([CLIFixtures.object(2, [("NS.string", .uid(1))]), CLIFixtures.classEntry("NSString")])
        let view = try KeyedArchiveView(data: data)
        #expect(view.foundationValue(of: view.objects[1]) == nil)
        #expect(view.render() == "root: NSString #1\n  NS.string: -> NSString #1 (cycle)\n")
    }

    @Test("one class table: subclasses of Foundation collections read as the collection")
    func classTable() {
        #expect(FoundationClassKind.kind(ofClasses: ["MyList", "NSMutableArray", "NSArray", "NSObject"]) == .array)
        #expect(FoundationClassKind.kind(ofClasses: ["NSDecimalNumberPlaceholder"]) == .decimal)
        #expect(FoundationClassKind.kind(ofClasses: ["Person", "NSObject"]) == nil)
        // The longest name in the table is still found; a name longer than any is not
        // looked up (a hostile class name of half the archive is not hashed per object).
        #expect(FoundationClassKind.kind(ofClassNamed: "NSDecimalNumberPlaceholder") == .decimal)
        #expect(FoundationClassKind.kind(ofClassNamed: "NSMutableOrderedSet") == .orderedSet)
        #expect(FoundationClassKind.kind(ofClassNamed: "NSArray" + String(repeating: " ", count: 100_000)) == nil)
        #expect(FoundationClassKind.kind(ofClasses: [String(repeating: "C", count: 100_000), "NSArray"]) == .array)
        #expect(ArchiveDateText.iso8601(sinceReferenceDate: 0) == "2001-01-01T00:00:00Z")
        #expect(ArchiveDateText.iso8601(sinceReferenceDate: -1e300) == nil)
    }
}

extension ArchivedFoundationValue {
    var urlString: String? {
        if case .url(let url) = self { return url.absoluteString }
        return nil
    }
}
