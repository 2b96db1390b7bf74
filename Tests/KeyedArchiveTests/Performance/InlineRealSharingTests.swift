import Foundation
import Testing
@testable import KeyedArchive

// The binary writer makes room in its table of shared reals for every `Double` field at
// once (capped at one per object). Equal reals must still be written once and distinct
// ones each, whatever the table's starting size.

private struct Sample: Codable, Equatable {
    var weight: Double
    var scale: Double
}

struct InlineRealSharingTests {
    @Test func equalInlineRealsAreWrittenOnce() throws {
        let same = (0..<300).map { _ in Sample(weight: 2.5, scale: -0.0) }
        let distinct = (0..<300).map { Sample(weight: Double($0) + 0.5, scale: -0.0) }
        let sameData = try ArchiveEncoder().encode(same)
        let distinctData = try ArchiveEncoder().encode(distinct)
        // 299 more real objects of 9 bytes each (and their offsets).
        #expect(distinctData.count - sameData.count >= 299 * 9)
        #expect(try ArchiveDecoder().decode([Sample].self, from: sameData) == same)
        #expect(try ArchiveDecoder().decode([Sample].self, from: distinctData) == distinct)
    }

    @Test func moreRealsThanObjectsRoundTrip() throws {
        // Two reals per object, 0.0 and -0.0 kept apart (their bits differ).
        let values = (0..<2_000).map { (i: Int) -> Sample in
            let weight: Double = i % 3 == 0 ? 1e300 : Double(i % 7)
            let scale: Double = i % 2 == 0 ? 0.0 : -0.0
            return Sample(weight: weight, scale: scale)
        }
        let data = try ArchiveEncoder().encode(values)
        let back = try ArchiveDecoder().decode([Sample].self, from: data)
        #expect(back.count == values.count)
        for (a, b) in zip(values, back) {
            #expect(a.weight.bitPattern == b.weight.bitPattern && a.scale.bitPattern == b.scale.bitPattern)
        }
        #expect(try ArchiveEncoder().encode(values) == data)
    }
}
