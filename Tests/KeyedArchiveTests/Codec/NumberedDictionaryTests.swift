import Foundation
import Testing
@testable import KeyedArchive

// NSDictionary's numbered layout (`NS.key.0`/`NS.object.0`, …), as SceneKit's
// SCNKeyedArchiver writes it, read by every typed path that reads a dictionary.
// uid, dict, classEntry and archive(_:top:) are in Support/HandBuiltArchive.swift.

/// `{b: 2, a: 1}` as a numbered NSMutableDictionary, its fields stored out of order.
private let numberedStrings = archive([
    dict(["$class": uid(2), "NS.object.1": uid(4), "NS.key.1": uid(3), "NS.key.0": uid(5), "NS.object.0": uid(6)]),
    classEntry("NSMutableDictionary"), .string("a"), .integer(1), .string("b"), .integer(2),
])

private struct AB: Decodable { var a: Int; var b: Int }

@Suite("Numbered NSDictionary layout (NS.key.N, NS.object.N)")
struct NumberedDictionaryTests {
    @Test("Decodes as [String: Int]")
    func stringKeyed() throws {
        #expect(try ArchiveDecoder().decode([String: Int].self, from: numberedStrings) == ["a": 1, "b": 2])
    }

    @Test("Decodes as a keyed container: allKeys in entry order, fields by name")
    func keyedContainer() throws {
        struct Keys: Decodable {
            var keys: [String]
            init(from decoder: any Decoder) throws {
                keys = try decoder.container(keyedBy: ArchiveCodingKey.self).allKeys.map(\.stringValue)
            }
        }
        #expect(try ArchiveDecoder().decode(Keys.self, from: numberedStrings).keys == ["b", "a"])
        let value = try ArchiveDecoder().decode(AB.self, from: numberedStrings)
        #expect(value.a == 1 && value.b == 2)
    }

    @Test("Decodes as [Int: String] with number keys, and as non-String-keyed pairs")
    func numberKeys() throws {
        let data = archive([
            dict(["$class": uid(2), "NS.key.0": uid(3), "NS.object.0": uid(4), "NS.key.1": uid(5), "NS.object.1": uid(6)]),
            classEntry("NSDictionary"), .integer(7), .string("seven"), .integer(-1), .string("minus one"),
        ])
        #expect(try ArchiveDecoder().decode([Int: String].self, from: data) == [7: "seven", -1: "minus one"])
        #expect(try ArchiveDecoder().decode([Int64: String].self, from: data) == [7: "seven", -1: "minus one"])
        #expect(try ArchiveDecoder().decode([String: String].self, from: data) == ["7": "seven", "-1": "minus one"])
    }

    @Test("An empty numbered dictionary has no fields but its class")
    func empty() throws {
        let data = archive([dict(["$class": uid(2)]), classEntry("NSDictionary")])
        #expect(try ArchiveDecoder().decode([String: Int].self, from: data).isEmpty)
    }

    @Test("A key without its NS.object.N is a DecodingError naming the field")
    func missingObject() {
        let data = archive([
            dict(["$class": uid(2), "NS.key.0": uid(3), "NS.object.0": uid(4), "NS.key.1": uid(5)]),
            classEntry("NSDictionary"), .string("a"), .integer(1), .string("b"),
        ])
        do {
            _ = try ArchiveDecoder().decode([String: Int].self, from: data)
            Issue.record("should throw")
        } catch let error as DecodingError {
            #expect("\(error)".contains("NS.key.1 but no NS.object.1"))
        } catch {
            Issue.record("not a DecodingError: \(error)")
        }
    }

    @Test("An NS.object.N beyond the last key is a DecodingError")
    func extraObject() {
        let data = archive([
            dict(["$class": uid(2), "NS.key.0": uid(3), "NS.object.0": uid(4), "NS.object.1": uid(4)]),
            classEntry("NSDictionary"), .string("a"), .integer(1),
        ])
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String: Int].self, from: data) }
    }

    @Test("A numbered dictionary shared from many places is gathered once and reads the same everywhere")
    func shared() throws {
        let data = archive([
            .array([uid(2), uid(2), uid(2)]),
            dict(["$class": uid(3), "NS.key.0": uid(4), "NS.object.0": uid(5)]),
            classEntry("NSDictionary"), .string("k"), .integer(9),
        ])
        #expect(try ArchiveDecoder().decode([[String: Int]].self, from: data) == Array(repeating: ["k": 9], count: 3))
    }

    @Test("A large numbered dictionary (indexed lookups) reads by field name and as a Dictionary")
    func large() throws {
        // 40 entries: more than the decoder scans, so lookups go through the key index.
        var fields: [(String, PropertyListValue)] = [("$class", uid(2))]
        var objects: [PropertyListValue] = [.string(""), classEntry("NSMutableDictionary")]
        for n in 0..<40 {
            fields.append(("NS.key.\(n)", uid(UInt64(objects.count + 1))))
            objects.append(.string(n == 39 ? "a" : n == 20 ? "b" : "k\(n)"))
            fields.append(("NS.object.\(n)", uid(UInt64(objects.count + 1))))
            objects.append(.integer(Int64(n)))
        }
        objects[0] = .dictionary(fields.map { PropertyListEntry(key: $0.0, value: $0.1) })
        let data = archive(objects)
        let value = try ArchiveDecoder().decode(AB.self, from: data)
        #expect(value.a == 39 && value.b == 20)
        let all = try ArchiveDecoder().decode([String: Int].self, from: data)
        #expect(all.count == 40 && all["k7"] == 7)
    }

    @Test("An unkeyed container reads a numbered dictionary as keys and values alternately, for a type that asks for pairs")
    func pairs() throws {
        struct Pairs: ArchiveKeyValuePairsDecodable {
            var items: [String] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                while !container.isAtEnd {
                    items.append(try container.decode(String.self))
                    items.append(String(try container.decode(Int.self)))
                }
            }
        }
        #expect(try ArchiveDecoder().decode(Pairs.self, from: numberedStrings).items == ["b", "2", "a", "1"])
    }
}
