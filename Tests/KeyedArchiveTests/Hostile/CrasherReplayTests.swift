import Foundation
import HostileArchives
import Testing
@testable import KeyedArchive

/// Every file in `Hostile/Crashers` (inputs that once crashed or hung a reader: ours under
/// fuzzing, or Foundation's own NSKeyedUnarchiver) goes through every reader on every run:
/// each must throw or return, never trap.
@Suite("Past crashers")
struct CrasherReplayTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Crashers")
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { !$0.hasSuffix(".md") }
        .sorted()

    /// A realistic model, like the typed fuzz target's.
    private struct Person: Codable {
        var name: String
        var age: Int
        var tags: [String]?
        var friends: [Person]?
        var next: [String: Person]?
    }

    private final class Chain: Decodable { var next: Chain? }

    /// An array of itself: recursion through an NSArray.
    private struct Nested: Decodable {
        var items: [Nested]
        init(from decoder: any Decoder) throws { items = try decoder.singleValueContainer().decode([Nested].self) }
    }

    @Test("The folder holds the past crashers") func folderIsThere() {
        #expect(Self.files.count >= 5, "expected the replay inputs in \(Self.folder.path)")
    }

    @Test("Each past crasher throws or returns through every reader", arguments: files)
    func replay(file: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        if let plist = try? BinaryPropertyList(data) { _ = try? plist.topValue() }
        _ = try? PropertyListValue(propertyList: data)
        if let view = try? KeyedArchiveView(data: data) { _ = view.render() }
        _ = try? ArchiveDecoder().topLevelKeys(in: data)
        replayThroughCompatLayer(data)  // NSCoding classes and allow-lists (Security/SecureReplay.swift)
        // Typed decoding of these inputs must fail with a DecodingError that says why.
        for attempt in [{ _ = try ArchiveDecoder().decode(Person.self, from: data) },
                        { _ = try ArchiveDecoder().decode(Chain.self, from: data) }] as [() throws -> Void] {
            do {
                try attempt()
            } catch let error as DecodingError {
                #expect(!"\(error)".isEmpty)
            }
        }
        // And through the hostile-graph fuzz target's types (a struct, an enum tree, a class tree,
        // nested arrays, a probing enum, the Foundation types): a value or a DecodingError.
        for probe in HostileDecoding.allProbes {
            if let error = probe.run(data) { #expect(error is DecodingError, "\(file) through \(probe): \(type(of: error))") }
        }
    }

    @Test("FuzzHostileGraph's round-trip findings now round-trip", arguments: files.filter { $0.hasPrefix("hostile-graph-roundtrip-") })
    func roundTripFindings(file: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        #expect(HostileDecoding.roundTripFailure(data) == nil)
    }

    @Test("NSDate, NSString and NSData objects are not a Dictionary of their fields; a probing enum reads them as the value")
    func foundationValuesAreNotDictionaries() throws {
        let date = Date(timeIntervalSinceReferenceDate: 29_440)
        let data = try ArchiveEncoder().encode(date)
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String: Double].self, from: data) }
        #expect("\(String(describing: error))".contains("class 'NSDate'"))
        guard case .date(let decoded)? = try ArchiveDecoder().decode(HostileValue?.self, from: data) else {
            Issue.record("the probing enum did not read an NSDate as a date"); return
        }
        #expect(decoded == date)
        // A keyed container still reads an NSDate's fields, for types that inspect layouts.
        struct RawDate: Decodable { var time: Double; enum CodingKeys: String, CodingKey { case time = "NS.time" } }
        #expect(try ArchiveDecoder().decode(RawDate.self, from: data).time == 29_440)
        let bytes = try ArchiveEncoder().encode(Data([1, 2, 3]))
        let dataError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String: Data].self, from: bytes) }
        #expect("\(String(describing: dataError))".contains("found data (3 bytes)"))
        // NSURL has no plain value to fall back to: generic types still read its fields.
        let url = try ArchiveEncoder().encode(URL(fileURLWithPath: "/tmp/a"))
        #expect(try ArchiveDecoder().decode([String: HostileValue].self, from: url).keys.contains("NS.relative"))
    }

    @Test("Foundation's crash cases are refused with the reason")
    func foundationCrashCases() throws {
        func message(_ file: String, _ decode: (Data) throws -> Void) -> String {
            guard let data = try? Data(contentsOf: Self.folder.appendingPathComponent(file)) else { return "missing \(file)" }
            do { try decode(data); return "decoded" } catch { return "\(error)" }
        }
        #expect(message("foundation-class-uid-to-string.bplist") { _ = try ArchiveDecoder().decode(Person.self, from: $0) }.contains("not a class entry"))
        #expect(message("foundation-dictionary-more-keys-than-objects.bplist") { _ = try ArchiveDecoder().decode([String: String].self, from: $0) }.contains("2 keys but 1 objects"))
        #expect(message("foundation-array-contains-itself.bplist") { _ = try ArchiveDecoder().decode(Nested.self, from: $0) }.contains("reference cycle"))
        #expect(message("foundation-disallowed-class.bplist") { _ = try ArchiveDecoder().decode(Person.self, from: $0) }.contains("No value for key 'name'"))
        #expect(message("foundation-uid-chain-10000.bplist") { _ = try ArchiveDecoder().decode(Chain.self, from: $0) }.contains("deeper than the decoder's limit"))
        #expect(try KeyedArchiveView(data: Data(contentsOf: Self.folder.appendingPathComponent("foundation-array-contains-itself.bplist"))).render().contains("(cycle)"))
    }
}
