import Foundation
import Testing
@testable import KeyedArchive

// The XML writers count a document's bytes in a first pass and write them into a buffer
// of that size in a second (XMLPlistByteSink.swift). These tests check the pieces the
// passes are made of against independent spellings (Swift's own `description`,
// `String(_:)`, a naive escape), and that the two passes agree.

@Suite("XML writer: counting and writing passes")
struct XMLWriterPassesTests {
    /// A document of one value, counted then written.
    private struct One: XMLPlistDocumentWriter {
        let value: PropertyListValue
        func write<Sink: XMLPlistByteSink>(into output: inout XMLPlistOutput<Sink>) {
            output.value(value, indent: 0)
        }
    }

    /// The first pass's count, the second pass's bytes, and whether the buffer was filled exactly.
    private static func passes(_ value: PropertyListValue) -> (counted: Int, bytes: [UInt8], complete: Bool) {
        var counter = XMLPlistOutput(XMLPlistByteCounter())
        One(value: value).write(into: &counter)
        let total = counter.sink.count
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var output = XMLPlistOutput(XMLPlistBufferSink(buffer))
            One(value: value).write(into: &output)
            complete = output.sink.isComplete
            initialized = output.sink.position
        }
        return (total, bytes, complete)
    }

    private static func text(_ value: PropertyListValue) -> String {
        String(decoding: passes(value).bytes, as: UTF8.self)
    }

    /// Reals as Foundation writes them, from `description`: no trailing `.0`.
    private static func expectedReal(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-infinity" : "+infinity" }
        let text = d.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    @Test func realsAreTheirShortestDescription() {
        var state: UInt64 = 0x1234_5678
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 1.5, 1e15, 1e15 + 1, 1e16, 123_456_789.125, 1e-7, 1e300, -1e-300,
                                .pi, .ulpOfOne, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
                                -.greatestFiniteMagnitude, 9_007_199_254_740_992, .nan, .infinity, -.infinity,
                                -2.2250738585072014e-308, Double(bitPattern: 1), 0.30000000000000004]
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Double(bitPattern: state))
            values.append(Double(Int64(bitPattern: state) >> 20) / 1_024)
        }
        for d in values {
            #expect(XMLPropertyListWriter.realDescription(d) == Self.expectedReal(d), "\(d.bitPattern)")
        }
    }

    @Test func realsOfFewDecimalsAreTheirShortestDescription() {
        // The writer spells reals of one to four decimals from their digits
        // (XMLPlistRealText.appendShortDecimal); Swift's `description` is the reference.
        var values: [Double] = [0.001, 0.0011, 0.00101, 0.000999, 0.0015, 0.5, 0.05, 0.005, 0.0005, 1.0001, 10.1,
                                99_999_999_999.9999, 99_999_999_999.99, 1e11 - 0.5, 1e11, 1e11 + 0.5, 0.1 + 0.2, 1.1 * 3,
                                12.3456, 12.34567, 4_503_599_627.125, 0.30000000000000004]
        for scale in [2.0, 4, 8, 10, 16, 100, 1_000, 10_000, 3, 7] {
            for i in stride(from: -2_000, through: 2_000, by: 7) { values.append(Double(i) / scale) }
        }
        var state: UInt64 = 0x9E37_79B9
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let digits = Double((state >> 24) % 1_000_000_000_000)
            for decimals in [1.0, 10, 100, 1_000, 10_000, 100_000] {
                values.append(digits / decimals)
                values.append(-Double(state >> 40) / decimals)
            }
        }
        for d in values {
            #expect(XMLPropertyListWriter.realDescription(d) == Self.expectedReal(d), "\(d.bitPattern)")
        }
    }

    @Test func integersAreTheirDecimalText() {
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, -100, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        for v in values {
            #expect(Self.text(.integer(v)) == "<integer>\(v)</integer>\n")
        }
        for v: UInt64 in [UInt64(Int64.max) + 1, .max, .max - 1, 10_000_000_000_000_000_000, 9_999_999_999_999_999_999] {
            #expect(Self.text(.unsignedInteger(v)) == "<integer>\(v)</integer>\n")
        }
    }

    @Test func stringsAreEscapedWherever() {
        let samples = ["", "&", "<", ">", "a&b", "&<>&<>", "plain", "end&", "<start", "日本語 & emoji🙂 <x>",
                       String(repeating: "&", count: 100), String(repeating: "ab<", count: 40), "]]>", "\u{0}\u{7F}"]
        for s in samples {
            let escaped = s.replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            #expect(Self.text(.string(s)) == "<string>\(escaped)</string>\n")
        }
    }

    @Test func passesAgreeOnEveryKindOfValue() {
        let values: [PropertyListValue] = [
            .string("x & y"), .integer(-5), .unsignedInteger(.max), .real(-1.25), .real(3), .float(0.1), .bool(true),
            .date(730_902_896), .data(Data()), .data(Data(repeating: 7, count: 1_000)), .uid(123_456),
            .array([]), .array([.data(Data([1, 2])), .array([.uid(0), .string("<")])]),
            XMLPropertyListTests.dict([("k&", .real(.nan)), ("", XMLPropertyListTests.dict([]))]),
        ]
        for value in values {
            let run = Self.passes(value)
            #expect(run.complete, "\(value)")
            #expect(run.counted == run.bytes.count, "\(value)")
        }
        // Data at every depth (tabs shorten its lines) and of every length around a line's.
        for depth in 0..<10 {
            for count in [0, 1, 2, 3, 4, 50, 51, 52, 56, 57, 58, 59, 200] {
                var value = PropertyListValue.data(Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
                for _ in 0..<depth { value = .array([value]) }
                let run = Self.passes(value)
                #expect(run.complete && run.counted == run.bytes.count, "depth \(depth), \(count) bytes")
                let back = try? XMLPropertyListReader.read(XMLPropertyListWriter.header + run.bytes + Array("</plist>\n".utf8))
                #expect(back.map { XMLPropertyListTests.identical($0, value) } == true, "depth \(depth), \(count) bytes")
            }
        }
    }

    @Test func aShortBufferLosesPiecesNotMemory() {
        // Were the passes ever to disagree, the sink leaves out what does not fit.
        var storage = [UInt8](repeating: 0xAA, count: 12)
        storage.withUnsafeMutableBufferPointer { whole in
            let buffer = UnsafeMutableBufferPointer(rebasing: whole[0..<8])
            var output = XMLPlistOutput(XMLPlistBufferSink(buffer))
            output.integer(12_345, indent: 0)
            #expect(!output.sink.isComplete)
            #expect(output.sink.position <= 8)
        }
        #expect(storage[8..<12].allSatisfy { $0 == 0xAA })
    }
}
