import Foundation
import Testing
@testable import KeyedArchive

// The encode speed work of issue 30 (round 3): each fast path against the general path it
// stands in for, on the same values: the same bytes.

/// Encodes its number through a single-value container: the encoder's general path for a
/// dictionary value (nothing specialized for it), storing what the number itself stores.
private struct Wrapped<N: Encodable>: Encodable {
    let value: N
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

@Suite("Encode speed paths (issue 30) equal the general paths")
struct EncoderSpeedEquivalenceTests {
    /// `[String: Int]`, `[String: String]` and `[String: Double]` are stored through
    /// specialized code (Int values with their uniquing slots touched a batch ahead): the
    /// same bytes as values that go through the general path, in binary and XML, for
    /// sizes around the batch of 16, with values repeated and shared with other fields.
    @Test func stringKeyedDictionariesEqualTheGeneralPath() throws {
        let encoder = ArchiveEncoder()
        for format in [ArchiveEncoder.OutputFormat.binary, .xml] {
            encoder.outputFormat = format
            for count in [0, 1, 15, 16, 17, 100, 1_000] {
                let ints = Dictionary(uniqueKeysWithValues: (0..<count).map { ("key-\($0 * 7_919 % 1_009)", $0 % 13 * 1_000_003 - 5) })
                let strings = ints.mapValues { "value \($0 % 11)" }
                let doubles = ints.mapValues { Double($0) / 8 }
                #expect(try encoder.encode(ints) == encoder.encode(ints.mapValues(Wrapped.init)), "\(count) ints, \(format)")
                #expect(try encoder.encode(strings) == encoder.encode(strings.mapValues(Wrapped.init)), "\(count) strings, \(format)")
                #expect(try encoder.encode(doubles) == encoder.encode(doubles.mapValues(Wrapped.init)), "\(count) doubles, \(format)")
                // Nested, and next to the same numbers in an array (found, not added, the second time).
                let nested = ["outer": ints, "again": ints]
                #expect(try encoder.encode(nested) == encoder.encode(nested.mapValues { $0.mapValues(Wrapped.init) }), "\(count) nested, \(format)")
            }
        }
    }
}
