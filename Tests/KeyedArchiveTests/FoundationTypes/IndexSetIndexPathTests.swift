import Foundation
import Testing
@testable import KeyedArchive

@Suite("IndexSet and IndexPath in NSIndexSet/NSIndexPath layouts")
struct IndexSetIndexPathTests {
    static let sets: [IndexSet] = [
        IndexSet(),
        IndexSet(integersIn: 0..<50),
        IndexSet([7]),
        IndexSet([1, 2, 3, 10, 11, 100, 1_000, 1_000_000]),
        IndexSet(integersIn: (Int.max - 50)..<Int.max),
    ]

    static let paths: [IndexPath] = [
        IndexPath(),
        IndexPath(index: 7),
        IndexPath(indexes: [4, 8, 15, 16, 23, 42]),
        IndexPath(indexes: [0, 127, 128, 300, 1 << 40, Int.max]),
    ]

    @Test("NSKeyedUnarchiver reads our IndexSet as an equal NSIndexSet", arguments: sets)
    func foundationReadsIndexSet(_ set: IndexSet) throws {
        for read in try foundationReads(set, as: NSIndexSet.self) {
            #expect(read as IndexSet == set)
        }
    }

    @Test("NSKeyedArchiver's NSIndexSet and NSMutableIndexSet decode as IndexSet", arguments: sets)
    func weReadFoundationIndexSet(_ set: IndexSet) throws {
        #expect(try weRead(IndexSet.self, fromFoundationArchiveOf: set as NSIndexSet) == [set, set])
        let mutable = NSMutableIndexSet(indexSet: set)
        #expect(try weRead(IndexSet.self, fromFoundationArchiveOf: mutable) == [set, set])
    }

    @Test("NSKeyedUnarchiver reads our IndexPath as an equal NSIndexPath", arguments: paths)
    func foundationReadsIndexPath(_ path: IndexPath) throws {
        for read in try foundationReads(path, as: NSIndexPath.self) {
            #expect(read as IndexPath == path)
        }
    }

    @Test("NSKeyedArchiver's NSIndexPath decodes as IndexPath", arguments: paths)
    func weReadFoundationIndexPath(_ path: IndexPath) throws {
        #expect(try weRead(IndexPath.self, fromFoundationArchiveOf: path as NSIndexPath) == [path, path])
    }

    @Test("Apple's archives (macOS 10.14) decode with Foundation's values", .requiresCorpus)
    func appleCorpus() throws {
        let many = try ArchiveDecoder().decode(IndexSet.self, from: corpusData("apple/macos/NSIndexSet-ManyRanges.archive"))
        var expected = IndexSet()
        for start in [0, 100, 1_000, Int.max - 50] { expected.insert(integersIn: start..<(start + 50)) }
        #expect(many == expected)
        let one = try ArchiveDecoder().decode(IndexSet.self, from: corpusData("apple/macos/NSMutableIndexSet-OneRange.archive"))
        #expect(one == IndexSet(integersIn: 0..<50))
        let path = try ArchiveDecoder().decode(IndexPath.self, from: corpusData("apple/macos/NSIndexPath-ManyIndices.archive"))
        #expect(path == IndexPath(indexes: [4, 8, 15, 16, 23, 42]))
        // Foundation on this machine agrees with those values.
        #expect(try foundationUnarchive(corpusData("apple/macos/NSIndexSet-ManyRanges.archive")) as? NSIndexSet as IndexSet? == expected)
        #expect(try foundationUnarchive(corpusData("apple/macos/NSIndexPath-ManyIndices.archive")) as? NSIndexPath as IndexPath? == path)
    }

    @Test("Our archive has the object graph of Apple's own", .requiresCorpus, .requiresPython3)
    func sameGraphAsApple() throws {
        var many = IndexSet()
        for start in [0, 100, 1_000, Int.max - 50] { many.insert(integersIn: start..<(start + 50)) }
        #expect(try archivedGraph(archive(many, format: .binary))
                == archivedGraph(corpusData("apple/macos/NSIndexSet-ManyRanges.archive")))
        #expect(try archivedGraph(archive(IndexPath(indexes: [4, 8, 15, 16, 23, 42]), format: .binary))
                == archivedGraph(corpusData("apple/macos/NSIndexPath-ManyIndices.archive")))
        // The one-range corpus file is an NSMutableIndexSet; ours is an NSIndexSet with the same fields.
        #expect(try archivedGraph(archive(IndexSet(integersIn: 0..<50), format: .binary)).replacingOccurrences(of: "\"$class\": [\"NSIndexSet\"", with: "\"$class\": [\"NSMutableIndexSet\", \"NSIndexSet\"")
                == archivedGraph(corpusData("apple/macos/NSMutableIndexSet-OneRange.archive")))
    }

    @Test("Inside a Codable struct, and deterministic")
    func nestedAndDeterministic() throws {
        struct Selection: Codable, Equatable {
            var rows: IndexSet
            var focus: IndexPath
            var history: [IndexSet]
        }
        let value = Selection(rows: [1, 2, 5], focus: [0, 3], history: [[], [9], IndexSet(integersIn: 3..<9)])
        try expectRoundTrip(value)
    }

    @Test("Other objects asked for as IndexSet or IndexPath throw typeMismatch")
    func wrongClass() throws {
        expectTypeMismatch(IndexSet.self, from: try archive(IndexPath(indexes: [1, 2]), format: .binary))
        expectTypeMismatch(IndexPath.self, from: try archive(IndexSet([1, 2]), format: .binary))
        expectTypeMismatch(IndexSet.self, from: try archive([1, 2, 3], format: .binary))
        expectTypeMismatch(IndexPath.self, from: foundationArchive(NSArray(array: [1, 2])))
    }

    @Test("Corrupt range data throws instead of trapping or hanging")
    func corruptRangeData() throws {
        func indexSetArchive(count: Int, data: Data) throws -> Data {
            var archiveValue = try PropertyListValue(propertyList: archive(IndexSet([1, 5, 9]), format: .xml))
            // Rewrite NSRangeCount and the NSMutableData bytes of the archived set.
            guard case .dictionary(var root) = archiveValue,
                  let objectsIndex = root.firstIndex(where: { $0.key == "$objects" }),
                  case .array(var objects) = root[objectsIndex].value else { throw CancellationError() }
            for (i, object) in objects.enumerated() {
                guard case .dictionary(var entries) = object else { continue }
                for (j, entry) in entries.enumerated() {
                    if entry.key == "NSRangeCount" { entries[j].value = .integer(Int64(count)) }
                    if entry.key == "NS.data" { entries[j].value = .data(data) }
                }
                objects[i] = .dictionary(entries)
            }
            root[objectsIndex].value = .array(objects)
            archiveValue = .dictionary(root)
            return archiveValue.propertyListData(format: .xml)
        }
        let cases: [(Int, Data)] = [
            (3, Data([1, 1, 5, 1])),                            // fewer numbers than ranges
            (2, Data([1, 1, 0x80])),                            // ends inside a number
            (2, Data([5, 1, 1, 1])),                            // ranges out of order
            (2, Data([1, 1] + [UInt8](repeating: 0xFF, count: 9) + [0x7F, 1])),  // beyond 64 bits
            (2, Data([1, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 2])), // location + length > Int.max
            (-1, Data()),
            (Int.max, Data([1, 1])),
        ]
        for (count, bytes) in cases {
            let data = try indexSetArchive(count: count, data: bytes)
            #expect(throws: DecodingError.self, "NSRangeCount \(count), data \(Array(bytes))") {
                try ArchiveDecoder().decode(IndexSet.self, from: data)
            }
        }
    }
}
