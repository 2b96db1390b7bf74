import Foundation
import Testing
@testable import KeyedArchive

// The binary writer's loops over UID arrays and runs of numbers, made once per reference
// width (issue 30 round 3, dictenc2): files whose references take 1, 2 and 4 bytes.

private struct Runs: Codable, Equatable {
    var integers: [Int]
    var reals: [Double]
    var table: [String: Int]
}

@Suite("UID arrays and number runs per reference width")
struct RunWidthTests {
    @Test("Arrays of numbers and dictionaries in files whose references take 1, 2 and 4 bytes read back, in Foundation too",
          arguments: [(16, 1), (2_000, 2), (10_000, 4)])
    func runsAtEveryWidth(count: Int, width: Int) throws {
        let runs = Runs(integers: (0..<count).map { $0 * 3 - 7 },
                        reals: (0..<count).map { Double($0) / 4 },
                        table: Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", $0 * 5) }))
        let data = try ArchiveEncoder().encode(runs)
        #expect(try ArchiveDecoder().decode(Runs.self, from: data) == runs)
        let trailer = [UInt8](data.suffix(32))
        #expect(Int(trailer[7]) == width)
        // An independent reader: Foundation's parser finds every key and every object.
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let objects = (plist as? [String: Any])?["$objects"] as? [Any] ?? []
        #expect(objects.compactMap { $0 as? String }.filter { $0.hasPrefix("k") }.count == count)
        #expect(objects.compactMap { $0 as? NSNumber }.count >= 2 * count)
    }
}
