import Foundation
import HostileArchives
import Testing
@testable import KeyedArchive

/// The decoder checks a binary archive's dictionaries for repeated keys as it reads them
/// (`DuplicateKeyLazyCheck`) instead of all of them first; when it cannot rule a repeat out
/// it reads the file again with CoreFoundation's rule applied, so what it returns is the same.
@Suite("Duplicate keys checked as the decoder reads")
struct DuplicateKeyLazyCheckTests {
    typealias Sample = DuplicateKeyTests

    /// Reads `data` as the decoder does and returns how many times `body` ran and, for
    /// each run, whether its property list reported repeated keys.
    static func runs(_ data: Data) throws -> [Bool] {
        var runs: [Bool] = []
        try data.withUnsafeBytes { bytes in
            try PropertyListInput.read(bytes, maxDepth: 512, checkingKeysAsRead: true) { plist in
                runs.append(!plist.duplicateKeys.isEmpty)
                // Read every object, as a decode may: a repeated key is met on the way.
                for ref in 0..<plist.objectCount { _ = try plist.object(ref) }
            }
        }
        return runs
    }

    @Test("A file without repeated keys is read once, in place")
    func cleanFileReadOnce() throws {
        let data = try ArchiveEncoder().encode([Sample.NameFirst(name: "a", age: 1), Sample.NameFirst(name: "b", age: 2)])
        #expect(try Self.runs(data) == [false])
        try data.withUnsafeBytes { callers in
            try PropertyListInput.read(callers, maxDepth: 512, checkingKeysAsRead: true) { plist in
                #expect(plist.bytes.base == callers.baseAddress, "read in place")
            }
        }
    }

    @Test("A repeated key met while reading: read again with the repeats resolved",
          arguments: [false, true])
    func repeatedKeyReadsAgain(separateKeyStrings: Bool) throws {
        let data = Sample.binary(separateKeyStrings: separateKeyStrings)
        #expect(try Self.runs(data) == [false, true])
    }

    @Test("Key strings that are not shared but differ in no dictionary: the answer is the same")
    func unsharedKeyStrings() throws {
        // Two objects of one class whose `name` keys are separate string objects.
        var plist = RawBinaryPlist()
        let s = { (text: String) in plist.add(.string(text)) }
        let classEntry = plist.add(.dictionary(keys: [s("$classname"), s("$classes")],
                                               values: [s("Person"), plist.add(.array([s("Person"), s("NSObject")]))]))
        let first = plist.add(.dictionary(keys: [s("$class"), s("name"), s("age")],
                                          values: [plist.add(.uid(3)), s("a"), plist.add(.integer(1))]))
        let second = plist.add(.dictionary(keys: [s("$class"), s("name"), s("age")],
                                           values: [plist.add(.uid(3)), s("b"), plist.add(.integer(2))]))
        let array = plist.add(.dictionary(keys: [s("$class"), s("NS.objects")],
                                          values: [plist.add(.uid(4)), plist.add(.array([plist.add(.uid(1)), plist.add(.uid(2))]))]))
        let arrayClass = plist.add(.dictionary(keys: [s("$classname"), s("$classes")],
                                               values: [s("NSArray"), plist.add(.array([s("NSArray"), s("NSObject")]))]))
        let objects = plist.add(.array([s("$null"), first, second, classEntry, arrayClass, array]))
        let top = plist.add(.dictionary(keys: [s("root")], values: [plist.add(.uid(5))]))
        let envelope = plist.add(.dictionary(keys: [s("$archiver"), s("$version"), s("$top"), s("$objects")],
                                             values: [s("NSKeyedArchiver"), plist.add(.integer(100_000)), top, objects]))
        let data = plist.data(top: envelope)
        let people = try ArchiveDecoder().decode([Sample.NameFirst].self, from: data)
        #expect(people == [Sample.NameFirst(name: "a", age: 1), Sample.NameFirst(name: "b", age: 2)])
    }

    /// A property list of `count` dictionaries over shared key strings, each listing a
    /// different run of them (`shapes` kinds, repeated in turn), the last one listing its
    /// first key twice when `repeatLast`.
    static func manyShapes(count: Int, shapes: Int, repeatLast: Bool) -> Data {
        var plist = RawBinaryPlist()
        let keys = (0..<8).map { plist.add(.string("k\($0)")) }
        let value = plist.add(.integer(1))
        var dictionaries: [Int] = []
        for index in 0..<count {
            // Each shape lists the keys chosen by the bits of a number from 3 up (distinct sets).
            let shape = index % shapes + 3
            var list = keys.indices.filter { shape >> $0 & 1 == 1 }.map { keys[$0] }
            if list.count < 2 { list.append(keys[0]) }  // a single key at bit 2 or above
            if repeatLast, index == count - 1 { list.append(list[0]) }
            dictionaries.append(plist.add(.dictionary(keys: list, values: list.map { _ in value })))
        }
        let top = plist.add(.array(dictionaries))
        return plist.data(top: top)
    }

    @Test("More key-list shapes than the check remembers: read once; a late repeat is still found")
    func manyKeyListShapes() throws {
        #expect(try Self.runs(Self.manyShapes(count: 600, shapes: 200, repeatLast: false)) == [false])
        #expect(try Self.runs(Self.manyShapes(count: 600, shapes: 200, repeatLast: true)) == [false, true])
        // Few shapes, met again and again (the lists proved are found by their bytes).
        #expect(try Self.runs(Self.manyShapes(count: 600, shapes: 5, repeatLast: false)) == [false])
        #expect(try Self.runs(Self.manyShapes(count: 600, shapes: 5, repeatLast: true)) == [false, true])
    }

    /// Reads `name` but swallows any error doing so.
    struct Forgiving: Decodable {
        var name: String
        enum CodingKeys: String, CodingKey { case name }
        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: CodingKeys.self)
            name = (try? container?.decode(String.self, forKey: .name)) ?? "swallowed"
        }
    }

    @Test("A type that swallows errors still gets the entry CoreFoundation's rule keeps")
    func swallowedErrors() throws {
        #expect(try ArchiveDecoder().decode(Forgiving.self, from: Sample.binary()).name == "first")
        #expect(try ArchiveDecoder().decode(Forgiving.self, from: Sample.binary(padding: 20)).name == "first")
    }
}
