import Foundation
import Testing
@testable import KeyedArchive

// Round 7 of the encode speed work (issue 30): `[Int]` and `[Double]` stored a batch of
// elements at a time (NumberArrayEncoding.swift), against the general path, on the same values.

/// The general path for an array: `ContiguousArray.encode(to:)` goes through the unkeyed
/// container one element at a time, as `Array.encode(to:)` did before it was special-cased.
private func generalPath<N>(_ values: [N]) -> ContiguousArray<N> { ContiguousArray(values) }

/// Small numbers repeated (within a batch and across batches) among new ones of every size.
private func testInts(_ count: Int) -> [Int] {
    (0..<count).map { (i: Int) -> Int in
        if i % 5 == 0 { return i % 3 }
        let shifted: Int = (i &* 7_919) << (i % 40)
        return i % 3 == 0 ? ~shifted : shifted
    }
}

/// Small whole numbers repeated among distinct fractions.
private func testDoubles(_ count: Int) -> [Double] {
    (0..<count).map { (i: Int) -> Double in
        if i % 4 == 0 { return Double(i % 6) }
        return Double(i) / 8 - 1_000_000
    }
}

/// Arrays next to values shared with them (found, not added, when the array comes), through
/// the fast path or (`general`) the general one; the same type either way, so the same class name.
private struct Around<N: Encodable>: Encodable {
    var before: [String: Double]
    var first: [N]
    var count: Int
    var second: [N]
    var general = false

    enum CodingKeys: String, CodingKey { case before, first, count, second }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(before, forKey: .before)
        if general { try container.encode(generalPath(first), forKey: .first) } else { try container.encode(first, forKey: .first) }
        try container.encode(count, forKey: .count)
        if general { try container.encode(generalPath(second), forKey: .second) } else { try container.encode(second, forKey: .second) }
    }
}

@Suite("Arrays of numbers (round 7) equal the general path")
struct NumberArrayEncodingTests {
    /// Sizes around a batch (64 elements, which is also how many come before room is made
    /// at once), two batches, and the batch of 16 it once was; numbers repeated within the
    /// array and shared with other fields; binary and XML.
    @Test func intsAndDoublesEqualTheGeneralPath() throws {
        let encoder = ArchiveEncoder()
        for format in [ArchiveEncoder.OutputFormat.binary, .xml] {
            encoder.outputFormat = format
            for count in [0, 1, 15, 16, 17, 63, 64, 65, 100, 127, 128, 129, 3_000] {
                let ints = testInts(count)
                let doubles = testDoubles(count)
                #expect(try encoder.encode(ints) == encoder.encode(generalPath(ints)), "\(count) ints, \(format)")
                #expect(try encoder.encode(doubles) == encoder.encode(generalPath(doubles)), "\(count) doubles, \(format)")
                var around = Around(before: ["a": 2, "b": 0.125], first: ints, count: 2, second: ints)
                let aroundFast = try encoder.encode(around)
                around.general = true
                #expect(try aroundFast == encoder.encode(around), "\(count) ints around, \(format)")
                var aroundDoubles = Around(before: ["a": 2, "b": 0.125], first: doubles, count: 2, second: doubles)
                let aroundDoublesFast = try encoder.encode(aroundDoubles)
                aroundDoubles.general = true
                #expect(try aroundDoublesFast == encoder.encode(aroundDoubles), "\(count) doubles around, \(format)")
            }
        }
    }

    /// Values the non-conforming float strategy sees (infinities and NaN, alone, in a run,
    /// at a batch's edge), under each strategy: the same bytes, or the same error at the
    /// same path, as the general path.
    @Test func nonConformingDoublesEqualTheGeneralPath() throws {
        var doubles = (0..<140).map { Double($0) / 4 }
        doubles[0] = .infinity
        doubles[15] = -.infinity
        doubles[16] = .nan
        doubles[17] = .infinity
        doubles[63] = -.infinity
        doubles[64] = .nan
        doubles[65] = .infinity
        doubles[139] = .nan
        let strategies: [ArchiveEncoder.NonConformingFloatEncodingStrategy] = [
            .allow, .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan"),
        ]
        for format in [ArchiveEncoder.OutputFormat.binary, .xml] {
            for strategy in strategies {
                let encoder = ArchiveEncoder()
                encoder.outputFormat = format
                encoder.nonConformingFloatEncodingStrategy = strategy
                let fast = try encoder.encode(doubles)
                #expect(fast == (try encoder.encode(generalPath(doubles))), "\(strategy), \(format)")
                var around = Around(before: ["x": .infinity], first: doubles, count: 0, second: doubles)
                let aroundFast = try encoder.encode(around)
                around.general = true
                #expect(try aroundFast == encoder.encode(around), "\(strategy), \(format), around")
            }
        }
        let throwing = ArchiveEncoder()
        throwing.nonConformingFloatEncodingStrategy = .throw
        let finite = (0..<40).map { Double($0) }
        #expect(try throwing.encode(finite) == throwing.encode(generalPath(finite)))
        // The same error at the same path as the general path.
        let fast = Around(before: [:], first: finite, count: 0, second: doubles)
        let general = Around(before: [:], first: finite, count: 0, second: doubles, general: true)
        #expect(throwingPath(throwing, fast) == ["second", "0"])
        #expect(throwingPath(throwing, general) == ["second", "0"])
        #expect(throwingPath(throwing, Array(doubles.dropFirst())) == ["14"])
        #expect(throwingPath(throwing, generalPath(Array(doubles.dropFirst()))) == ["14"])
    }

    /// The coding path of the error `encoder` throws for `value` (its keys' int values, or
    /// string values), nil when it throws none or another error.
    private func throwingPath(_ encoder: ArchiveEncoder, _ value: some Encodable) -> [String]? {
        do {
            _ = try encoder.encode(value)
            return nil
        } catch EncodingError.invalidValue(_, let context) {
            return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        } catch {
            return nil
        }
    }

    /// The batch look-up stores and answers what `refOrInsert` one key at a time does,
    /// across growth, with repeats within a batch and across batches.
    @Test func batchLookUpAgreesWithOneByOne() {
        var batched = ScalarRefTable()
        var single = ScalarRefTable()
        var state: UInt64 = 3
        var next = 0
        var keys: [UInt64] = []
        for i in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            keys.append(i % 3 == 0 ? UInt64(i % 41) : state)
        }
        var start = 0
        while start < keys.count {
            let end = min(start + 1 + start % 23, keys.count)
            var refs = [Int](repeating: -1, count: end - start)
            let fresh = keys[start..<end].withUnsafeBufferPointer { batch in
                refs.withUnsafeMutableBufferPointer { batched.refsOrInsert(batch, firstNew: next, into: $0) }
            }
            var expectedFresh = 0
            for (offset, key) in keys[start..<end].enumerated() {
                let expected = single.refOrInsert(key, next + expectedFresh) ?? { expectedFresh += 1; return next + expectedFresh - 1 }()
                guard refs[offset] == expected else {
                    Issue.record("key \(key) at \(start + offset): \(refs[offset]), expected \(expected)")
                    return
                }
            }
            #expect(fresh == expectedFresh)
            next += fresh + 3
            start = end
        }
        #expect(batched.count == single.count)
        #expect(batched.count > 10_000)
        // With a reference kept aside, the batch goes one key at a time, with the same answers.
        #expect(batched.refOrInsert(7 << 50, Int(UInt32.max) + 1) == nil)
        var refs = [Int](repeating: -1, count: 3)
        let fresh = [7 << 50, keys[1], 9 << 50].withUnsafeBufferPointer { batch in
            refs.withUnsafeMutableBufferPointer { batched.refsOrInsert(batch, firstNew: 1_000_000, into: $0) }
        }
        #expect(fresh == 1)
        #expect(refs == [Int(UInt32.max) + 1, single.ref(for: keys[1]) ?? -2, 1_000_000])
    }

    /// Appending many elements at once to a chunked array equals appending them one by one,
    /// across chunk boundaries.
    @Test func chunkedBulkAppendsEqualOneByOne() {
        var bulk = ChunkedArray<UInt64>()
        var single = ChunkedArray<UInt64>()
        var kindsBulk = ChunkedArray<UInt8>()
        var kindsSingle = ChunkedArray<UInt8>()
        var value: UInt64 = 0
        for run in [1, 5, 8_190, 1, 3, 8_192, 20_000, 7] {
            let values = (0..<run).map { UInt64($0) &+ value }
            value &+= UInt64(run) * 3
            values.withUnsafeBufferPointer { bulk.append(contentsOf: $0) }
            for v in values { single.append(v) }
            kindsBulk.append(repeating: UInt8(run % 256), count: run)
            for _ in 0..<run { kindsSingle.append(UInt8(run % 256)) }
        }
        #expect(bulk.count == single.count)
        #expect(bulk.indices.allSatisfy { bulk[$0] == single[$0] })
        #expect(kindsBulk.count == kindsSingle.count)
        #expect(kindsBulk.indices.allSatisfy { kindsBulk[$0] == kindsSingle[$0] })
    }
}
