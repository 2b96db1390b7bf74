import Foundation
import HostileArchives
@testable import KeyedArchive
import Testing

/// Issue 32 §2: one value referenced from many places. Each reader either returns a value
/// or throws a limit error, and what it materialises — bytes of strings and data made, text
/// parsed, text written — stays within a constant times the input, whatever the references.
/// (Counted, not timed: `keyedarchive-benchmark --hostile` prints the time and memory.)
@Suite("Amplification: one value referenced from many places")
struct AmplificationTests {
    static let sizes: [HostileSize] = [.kb10, .kb100]
    static let cases: [(AmplificationFamily, HostileSize)] = AmplificationFamily.allCases.flatMap { family in sizes.map { (family, $0) } }
    /// Colours sharing one text: each colour parses it (a colour is a value, not shared),
    /// charged, so typed decodes and the untyped readers run out of visits, not output.
    static let colorFamilies: [AmplificationFamily] = [.sharedColorText, .sharedColorFallback]

    @Test("Typed decodes make at most 4 bytes per input byte (or throw a limit error)", arguments: cases)
    func typedDecodes(family: AmplificationFamily, size: HostileSize) throws {
        let data = family.archive(targetBytes: size.bytes)
        #expect(Double(data.count) > Double(size.bytes) * 0.85 && Double(data.count) < Double(size.bytes) * 1.15,
                "\(family) at \(size) is \(data.count) bytes")
        for probe in family.probes where !probe.reencodes {
            do {
                let made = try probe.bytesMade(data)
                // Text parsed counts as made: a colour's, once per colour, up to what the budget
                // allows (16 units per byte plus 65,536, a unit per 4 bytes).
                let bound = Self.colorFamilies.contains(family) ? 4 * ArchiveDecoder.Limits().visitBudget(forInputSize: data.count) : 4 * data.count
                #expect(made <= bound, "\(family) at \(size) through \(probe): \(made) bytes made from \(data.count)")
            } catch let error as DecodingError {
                #expect("\(error)".contains("ArchiveDecoder.Limits"), "\(family) through \(probe): \(error)")
            }
        }
    }

    @Test("Opening the view makes at most 4 bytes per input byte", arguments: cases)
    func viewOpening(family: AmplificationFamily, size: HostileSize) throws {
        let data = family.archive(targetBytes: size.bytes)
        let view = try KeyedArchiveView(data: data)
        #expect(view.openingWork.bytesMade <= 4 * data.count, "\(family) at \(size): \(view.openingWork.bytesMade) bytes made")
        #expect(view.openingWork.remaining >= 0)
    }

    @Test("render() writes at most the output limit, then says it stopped", arguments: cases)
    func renderOutput(family: AmplificationFamily, size: HostileSize) throws {
        let data = family.archive(targetBytes: size.bytes)
        let view = try KeyedArchiveView(data: data)
        let limit = view.limits.outputBudget(forInputSize: data.count)
        #expect(limit == 64 * data.count + 1_048_576)
        let text = view.render()
        let stopped = text.range(of: "… stopped: ")
        let body = stopped.map { text[..<$0.lowerBound] } ?? text[...]
        #expect(body.utf8.count <= limit, "\(family) at \(size): \(body.utf8.count) bytes written, limit \(limit)")
        // The line saying why it stopped fits within the limit too (room is kept for it).
        #expect(text.utf8.count <= limit, "\(family) at \(size): \(text.utf8.count) bytes with the stop line, limit \(limit)")
        let reason = Self.colorFamilies.contains(family) ? "ArchiveDecoder.Limits.maxObjectVisits" : "ArchiveDecoder.Limits.maxOutputBytes"
        if let stopped { #expect(text[stopped.upperBound...].contains(reason)) }
        // An ordered set's references and a data value's (its size and 16 bytes) print short; the
        // raw-object and attribute families share objects and a dictionary, which the view prints once.
        if ![.sharedOrderedSet, .sharedData, .sharedRawObjects, .sharedAttributes].contains(family) {
            #expect(stopped != nil || size == .kb10, "\(family) at \(size) printed in full")
        }
    }

    @Test("A lower output limit stops render() sooner; the text written so far stays written")
    func renderLimitIsASetting() throws {
        let data = AmplificationFamily.sharedString.archive(targetBytes: HostileSize.kb10.bytes)
        let view = try KeyedArchiveView(data: data, limits: .init(maxOutputBytes: 100_000))
        var out = ""
        #expect(throws: KeyedArchiveError.self) { try view.render(options: .init(), to: &out) }
        #expect(out.utf8.count <= 100_000 && out.utf8.count > 10_000)
        let unlimited = try KeyedArchiveView(data: data, limits: .init(maxOutputBytes: .max))
        #expect(!unlimited.render().contains("… stopped"))
    }

    @Test("render() escapes byte by byte exactly as before: quotes, backslashes, controls, C1 and line separators")
    func renderEscapes() throws {
        let text = "a\"b\\c\n\r\t\u{1}\u{1B}\u{7F}\u{85}\u{9F}\u{A0}\u{2028}\u{2029}\u{202A}\u{202E}\u{202F}\u{2066}\u{2069}\u{206A}é😀"
        #expect(ArchiveText.quoted(text) == #""a\"b\\c\n\r\t\u{01}\u{1b}\u{7f}\u{85}\u{9f}\#u{A0}\u{2028}\u{2029}\u{202a}\u{202e}\#u{202F}\u{2066}\u{2069}\#u{206A}é😀""#)
        #expect(ArchiveText.quoted("plain text") == "\"plain text\"")
        // The same as the scalar-by-scalar rule, on every character it treats specially.
        var scalarByScalar = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": scalarByScalar += "\\\""
            case "\\": scalarByScalar += "\\\\"
            default: scalarByScalar += ArchiveText.escaped(String(scalar))
            }
        }
        #expect(ArchiveText.quoted(text) == scalarByScalar + "\"")
        let view = try KeyedArchiveView(data: try ArchiveEncoder().encode([text]))
        #expect(view.render().contains(ArchiveText.quoted(text)))
    }

    @Test("[[String: String]] shares one copy of a field name every object uses")
    func sharedFieldNameIsOneCopy() throws {
        let data = AmplificationFamily.sharedFieldName.archive(references: 2_000, length: 10_000)
        let (records, work) = try ArchiveDecoder().decodeReportingWork([[String: String]].self, from: data)
        #expect(records.count == 2_000)
        #expect(records.allSatisfy { $0.count == 1 && $0.first?.value == "v" })
        #expect(work.bytesMade < 2 * 10_000 + 1_000, "\(work.bytesMade) bytes made for one 10,000-byte key")
    }

    @Test("base64, URL and decimal text shared by many elements is parsed once")
    func sharedTextParsedOnce() throws {
        let length = 4_000, references = 1_000
        let base64 = ArchiveDecoder()
        base64.dataDecodingStrategy = .base64
        let blobs = try base64.decodeReportingWork([Data].self, from: AmplificationFamily.sharedBase64.archive(references: references, length: length))
        #expect(blobs.value.count == references && Set(blobs.value).count == 1)
        let urls = try ArchiveDecoder().decodeReportingWork([URL].self, from: AmplificationFamily.sharedURL.archive(references: references, length: length))
        #expect(urls.value.count == references && urls.value[0].absoluteString.hasPrefix("https://example.com/aaa"))
        let decimals = try ArchiveDecoder().decodeReportingWork([Decimal].self, from: AmplificationFamily.sharedDecimal.archive(references: references, length: length))
        #expect(decimals.value.count == references && decimals.value[0] > 0.11 && decimals.value[0] < 0.12)
        for (name, made) in [("base64", blobs.work.bytesMade), ("URL", urls.work.bytesMade), ("decimal", decimals.work.bytesMade)] {
            // The text made once, parsed once (and base64's bytes made once): a few times its length, not references × length.
            #expect(made < 4 * (length + 100), "\(name): \(made) bytes made")
        }
    }

    @Test("Set<String> of one long string referenced many times hashes it once")
    func setOfSharedString() throws {
        let data = AmplificationFamily.sharedString.archive(references: 5_000, length: 20_000)
        let (set, work) = try ArchiveDecoder().decodeReportingWork(Set<String>.self, from: data)
        #expect(set.count == 1 && set.first?.utf8.count == 20_000)
        // Hashing each reference would be 5,000 × 20,000 bytes; the string is made and hashed once.
        #expect(work.limit - work.remaining < 40_000, "\(work.limit - work.remaining) units for 5,000 references")
    }

    @Test("A long key that many dictionaries share is charged at each use, so the budget bounds its hashing")
    func repeatedLongKeysAreCharged() throws {
        // 20,000 objects whose one field has the same 100 KB key: their dictionaries would
        // hash 2 GB; the key's hand-outs run out the budget first.
        var graph = ArchiveGraph()
        graph.plist.minimumWidth = 4
        let key = graph.plist.add(.string(String(repeating: "k", count: 100_000)))
        let value = graph.string("v"), classKey = graph.string("$class")
        let classRef = graph.uid(graph.classUID("Record"))
        let records = (0..<20_000).map { _ in
            graph.addEntry(graph.plist.add(.dictionary(keys: [classKey, key], values: [classRef, value])))
        }
        let data = graph.data(root: graph.array(of: records))
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([[String: String]].self, from: data) }
    }

    @Test("A long key repeated within one dictionary counts once (the duplicate-key rule), so it is hashed once")
    func repeatedKeyInOneDictionary() throws {
        var graph = ArchiveGraph()
        graph.plist.minimumWidth = 4
        let key = graph.plist.add(.string(String(repeating: "k", count: 100_000)))
        let value = graph.string("v"), classKey = graph.string("$class")
        let classRef = graph.uid(graph.classUID("Record"))
        let object = graph.plist.add(.dictionary(keys: [classKey] + Array(repeating: key, count: 20_000),
                                                 values: [classRef] + Array(repeating: value, count: 20_000)))
        let data = graph.data(root: graph.addEntry(object))
        let (fields, work) = try ArchiveDecoder().decodeReportingWork([String: String].self, from: data)
        #expect(fields.count == 1 && fields.first?.key.utf8.count == 100_000)
        #expect(work.bytesMade < 4 * data.count, "\(work.bytesMade) bytes made")
    }

    @Test("Error messages quote at most 64 characters of a long value or key")
    func errorMessagesAreExcerpts() throws {
        let data = AmplificationFamily.sharedURL.archive(references: 3, length: 10_000)
        do {
            _ = try ArchiveDecoder().decode([UUID].self, from: data)
            Issue.record("a URL string decoded as a UUID")
        } catch {
            #expect("\(error)".utf8.count < 1_000, "\("\(error)".utf8.count) bytes of message")
            #expect("\(error)".contains("(10020 bytes)"))
        }
    }

    @Test("Values written back from the AppKit families are at most twice the input", arguments: [HostileSize.kb10, .kb100])
    func reencodedOutput(size: HostileSize) throws {
        for family in [AmplificationFamily.sharedRawObjects, .sharedAttributes] {
            let data = family.archive(targetBytes: size.bytes)
            for probe in family.probes where probe.reencodes {
                let written = try probe.runReportingOutput(data).get()
                #expect(written > 0 && written <= 2 * data.count, "\(family) at \(size) through \(probe): \(written) bytes from \(data.count)")
            }
        }
    }

    @Test("View entries that are one plist object share it: its fields are not copied per entry")
    func viewEntriesShareOneObject() throws {
        var graph = ArchiveGraph()
        let wide = graph.plist.add(graph.objectDictionary(className: "Wide", fields: (0..<500).map { (key: "k\($0)", value: graph.string("v")) }))
        let entries = (0..<2_000).map { _ in graph.addEntry(wide) }
        let data = graph.data(root: graph.array(of: entries))
        let view = try KeyedArchiveView(data: data)
        let first = view.objects[Int(entries[0])], last = view.objects[Int(entries[1_999])]
        #expect(first.fields.count == 500 && last.fields == first.fields && last.index == Int(entries[1_999]))
        // 2,000 entries of 500 fields would be a million fields read; shared, each entry is one unit.
        #expect(view.openingWork.limit - view.openingWork.remaining < 20_000)
    }
}

extension AmplificationProbe {
    /// The bytes the decode made, through the accounting of ``ArchiveDecoder``.
    func bytesMade(_ data: Data) throws -> Int {
        let decoder = ArchiveDecoder()
        if name.contains("base64") { decoder.dataDecodingStrategy = .base64 }
        switch name {
        case "[[String: String]]": return try decoder.decodeReportingWork([[String: String]].self, from: data).work.bytesMade
        case "[Data] base64": return try decoder.decodeReportingWork([Data].self, from: data).work.bytesMade
        case "[URL]": return try decoder.decodeReportingWork([URL].self, from: data).work.bytesMade
        case "[Decimal]": return try decoder.decodeReportingWork([Decimal].self, from: data).work.bytesMade
        case "[String]": return try decoder.decodeReportingWork([String].self, from: data).work.bytesMade
        case "Set<String>": return try decoder.decodeReportingWork(Set<String>.self, from: data).work.bytesMade
        case "[[Int]]": return try decoder.decodeReportingWork([[Int]].self, from: data).work.bytesMade
        case "ArchivedColor": return try decoder.decodeReportingWork(ArchivedColor.self, from: data).work.bytesMade
        case "ArchivedRawValue": return try decoder.decodeReportingWork(ArchivedRawValue.self, from: data).work.bytesMade
        case "ArchivedAttributedString": return try decoder.decodeReportingWork(ArchivedAttributedString.self, from: data).work.bytesMade
        case "[ArchivedColor]": return try decoder.decodeReportingWork([ArchivedColor].self, from: data).work.bytesMade
        case "[Data]": return try decoder.decodeReportingWork([Data].self, from: data).work.bytesMade
        default:
            Issue.record("no accounting for probe \(name)")
            return 0
        }
    }
}

/// The advice of "Reading untrusted archives": a server can bound probing types with a
/// budget of 2 units per byte, which ordinary archives decoded into concrete types stay under.
@Suite("Work budget of ordinary archives")
struct OrdinaryArchiveWorkTests {
    struct Person: Codable, Equatable {
        var name: String
        var email: String
        var age: Int
        var score: Double
        var tags: [String]
        var joined: Date
    }

    @Test("Concrete types need under 2 units per byte of input")
    func concreteTypesStayUnderTwoUnitsPerByte() throws {
        let people = (0..<2_000).map { i in
            Person(name: "Person \(i)", email: "person\(i)@example.com", age: 20 + i % 50, score: Double(i) / 7,
                   tags: ["tag\(i % 10)", "group \(i % 3)"], joined: Date(timeIntervalSinceReferenceDate: Double(i) * 3_600))
        }
        let data = try ArchiveEncoder().encode(people)
        let (decoded, work) = try ArchiveDecoder().decodeReportingWork([Person].self, from: data)
        #expect(decoded == people)
        let used = work.limit - work.remaining
        #expect(used < 2 * data.count, "\(used) units for \(data.count) bytes")
        #expect(work.bytesMade < data.count, "\(work.bytesMade) bytes made from \(data.count)")
    }
}
