import Foundation
import Testing
@testable import KeyedArchive

// The binary writer's table of shared reals starts with room for half the `Double` fields
// (realhalf; from 2^18 of them only, before): records whose reals are mostly distinct make
// it grow while the file is numbered, at every size.
// Each distinct real must still be one object of the file, and each repeated one shared.

private struct Reading: Codable, Equatable {
    var at: Double
    var value: Double
    var unit: Double
}

@Suite("Binary writer: the table of shared reals grown past its first size")
struct InlineRealTableGrowthTests {
    /// The real objects of a binary property list, by bit pattern, and how many there are.
    private func realObjects(in data: Data) throws -> (count: Int, bits: Set<UInt64>) {
        let plist = try BinaryPropertyList(data)
        var count = 0
        var bits = Set<UInt64>()
        for ref in 0..<plist.objectCount {
            if case .real(let value) = try plist.object(ref) {
                count += 1
                bits.insert(value.bitPattern)
            }
        }
        return (count, bits)
    }

    /// Small and large (three reals a record: 2.5 distinct ones, more than the first room
    /// of half the reals, so the table grows in each).
    @Test(arguments: [10, 1_000, 30_000])
    func everyDistinctRealIsOneObject(records: Int) throws {
        // `at` and `value` are new in every record, `unit` too in the second half (2.5
        // distinct reals a record: more than the table's first room, whatever the rounding
        // of its size), in the first half one of three values (shared), -0.0 and 0.0 apart.
        let units: [Double] = [0.0, -0.0, 1e300]
        let values = (0..<records).map { (i: Int) -> Reading in
            let x = Double(i)
            let at: Double = 1_000_000 + x * 0.5
            let value: Double = -x - 0.25
            let unit: Double = i < records / 2 ? units[i % 3] : x + 0.75
            return Reading(at: at, value: value, unit: unit)
        }
        let data = try ArchiveEncoder().encode(values)
        let expected = Set(values.flatMap { (r: Reading) -> [UInt64] in [r.at.bitPattern, r.value.bitPattern, r.unit.bitPattern] })
        let found = try realObjects(in: data)
        #expect(found.count == expected.count)
        #expect(found.bits == expected)
        let back = try ArchiveDecoder().decode([Reading].self, from: data)
        #expect(back.count == values.count)
        let bits = { (r: Reading) -> [UInt64] in [r.at.bitPattern, r.value.bitPattern, r.unit.bitPattern] }
        #expect(back.map(bits) == values.map(bits))
        // Deterministic: the same values give the same bytes.
        #expect(try ArchiveEncoder().encode(values) == data)
    }
}
