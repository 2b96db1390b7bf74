import Foundation
import Testing
@testable import KeyedArchive

// The encoder's `[String: V]` path (issue 30, round 7): keys sorted by sort keys made in one
// pass that also hashes them, then looked up in the string table by that hash. The keys
// must come out in `String`'s `<` order, each key stored once (shared with equal strings
// elsewhere), with its value, in binary and XML.

@Suite("String-keyed dictionaries: sorted, hashed once")
struct StringKeyedDictionaryTests {
    /// Keys of a dictionary, as strings, in the order of the archive's NS.keys; and its values.
    private func entries(_ object: PropertyListValue?, in raw: RawArchive) -> (keys: [String], values: [PropertyListValue?])? {
        guard case .array(let keys)? = object?["NS.keys"], case .array(let values)? = object?["NS.objects"] else { return nil }
        let names = keys.compactMap { key -> String? in
            if case .string(let name)? = raw.resolve(key) { return name }
            return nil
        }
        return (names, values.map { raw.resolve($0) })
    }

    @Test("Keys in < order with their values, around the batch and radix sizes",
          arguments: [0, 1, 15, 16, 17, 63, 64, 65, 200, 3_000])
    func keysInStringOrder(count: Int) throws {
        var value: [String: Int] = [:]
        for index in 0..<count {
            // Shared heads (some past 16 bytes), non-ASCII keys in the larger ones.
            let key = index % 5 == 0 ? "com.example.shared.prefix.\(index)" : "key-\(index * 7_919 % 10_007)"
            value[index % 97 == 50 ? key + "é" : key] = index % 13
        }
        for format in PropertyListFormat.allCases {
            let (decoded, _, raw) = try roundTrip(value, format: format)
            #expect(decoded == value)
            guard let (keys, values) = entries(raw.root, in: raw) else { Issue.record("no entries"); continue }
            #expect(keys == value.keys.sorted(), "\(count) keys, \(format)")
            #expect(values == keys.map { value[$0].map { .integer(Int64($0)) } }, "\(count) values, \(format)")
            for key in keys.prefix(20) { #expect(raw.count(ofString: key) == 1, "\(key) stored once") }
        }
    }

    /// The same keys in many dictionaries, and as string values elsewhere, are one object
    /// each; dictionaries of strings, doubles and other values alike.
    @Test func keysAreSharedAcrossDictionariesAndValues() throws {
        struct Mixed: Codable, Equatable {
            var groups: [String: [String: Int]]
            var names: [String: String]
            var reals: [String: Double]
            var flags: [String: Bool]
        }
        let fields = (0..<80).map { "field\($0)" }
        let value = Mixed(
            groups: Dictionary(uniqueKeysWithValues: (0..<30).map { group in
                ("group-\(group)", Dictionary(uniqueKeysWithValues: fields.map { ($0, $0.count * group) }))
            }),
            names: Dictionary(uniqueKeysWithValues: fields.map { ($0, "field\(($0.count * 7) % 80)") }),
            reals: Dictionary(uniqueKeysWithValues: fields.map { ($0, Double($0.count) / 4) }),
            flags: ["b": true, "a": false])
        for format in PropertyListFormat.allCases {
            let (decoded, _, raw) = try roundTrip(value, format: format)
            #expect(decoded == value)
            for field in fields { #expect(raw.count(ofString: field) == 1, "\(field), \(format)") }
            guard let (keys, _) = entries(raw.root?["groups"].flatMap { raw.resolve($0) }, in: raw) else {
                Issue.record("no groups"); continue
            }
            #expect(keys == value.groups.keys.sorted())
        }
    }

    /// `appendEntries` (the entries' UIDs gathered, then stored at once) stores the bytes
    /// `appendEntry` stores pair by pair, also when other dictionaries were opened and
    /// stored between the entries (the object's level is found again).
    @Test("Entries stored at once equal entries stored one by one", arguments: [0, 1, 5, 100])
    func entriesAtOnceEqualOneByOne(count: Int) {
        func archive(atOnce: Bool) -> Data {
            let table = ArchiveObjectTable()
            let encoder = _ArchiveEncoder(table: table, userInfo: [:])
            let mark = table.openMark
            let made = encoder.makeObject(kind: .dictionary)
            var pairs: [Int32] = []
            for index in 0..<count {
                let key = table.string("key \(index)")
                var value = table.integer(Int64(index % 7))
                if index % 3 == 0 {
                    let innerMark = table.openMark
                    let inner = encoder.makeObject(kind: .dictionary)
                    inner.box.appendEntry(key: table.string("inner"), value: table.integer(Int64(index)))
                    table.close(downTo: innerMark)
                    value = inner.uid
                }
                if atOnce { pairs += [key, value] } else { made.box.appendEntry(key: key, value: value) }
            }
            if atOnce { pairs.withUnsafeBufferPointer { made.box.appendEntries($0) } }
            table.close(downTo: mark)
            table.top = [("root", made.uid)]
            return table.binary()
        }
        let oneByOne = archive(atOnce: false)
        #expect(archive(atOnce: true) == oneByOne)
        #expect(oneByOne.starts(with: Array("bplist00".utf8)))
    }
}
