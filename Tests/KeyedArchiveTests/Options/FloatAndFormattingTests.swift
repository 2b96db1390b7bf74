import Foundation
import Testing
@testable import KeyedArchive

/// Non-conforming floats and output formatting, against Foundation's readers and JSONEncoder.
@Suite("Options: non-conforming floats and output formatting")
struct FloatAndFormattingTests {
    struct Reals: Codable {
        var double: Double
        var float: Float
        var list: [Double]
        var floats: [Float]
        var byName: [String: Double]
        var maybe: Double?

        init(_ value: Double) {
            double = value
            float = Float(value)
            list = [value, 1.5]
            floats = [Float(value)]
            byName = ["k": value]
            maybe = value
        }

        /// Every stored value is `value` (NaN compares as NaN), or 1.5 where fixed.
        func all(equal value: Double) -> Bool {
            let values = [double, Double(float), list[0], Double(floats[0]), byName["k"] ?? 0, maybe ?? 0]
            return values.allSatisfy { value.isNaN ? $0.isNaN : $0 == value } && list[1] == 1.5
        }
    }

    static let strings = (positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    static let nonFinite: [Double] = [.infinity, -.infinity, .nan]

    @Test("by default NaN and infinities are written as reals, which Foundation reads as NSNumbers", arguments: nonFinite)
    func allow(value: Double) throws {
        let data = try ArchiveEncoder().encode([value])
        let read = try #require(try foundationUnarchive(data) as? [NSNumber])
        #expect(value.isNaN ? read[0].doubleValue.isNaN : read[0].doubleValue == value)
        #expect(try ArchiveDecoder().decode(Reals.self, from: try ArchiveEncoder().encode(Reals(value))).all(equal: value))
    }

    @Test(".throw throws EncodingError.invalidValue at every depth, as JSONEncoder does", arguments: nonFinite)
    func throwOnEncode(value: Double) throws {
        let encoder = ArchiveEncoder()
        encoder.nonConformingFloatEncodingStrategy = .throw
        #expect(throws: EncodingError.self) { try JSONEncoder().encode([value]) }
        for single in [Reals(value)] {
            #expect(throws: EncodingError.self) { try encoder.encode(single) }
        }
        #expect(throws: EncodingError.self) { try encoder.encode([Float(value)]) }
        #expect(throws: EncodingError.self) { try encoder.encode(["k": value]) }
        #expect(throws: EncodingError.self) { try encoder.encode(value) }
        do {
            _ = try encoder.encode(Reals(value))
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["double"])
        }
        #expect(try encoder.encode([1.5]) == ArchiveEncoder().encode([1.5]))   // finite values unaffected
    }

    @Test(".convertToString writes JSONEncoder's strings, which Foundation reads as NSStrings", arguments: nonFinite)
    func convertToString(value: Double) throws {
        let s = Self.strings
        let encoder = ArchiveEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: s.positiveInfinity, negativeInfinity: s.negativeInfinity, nan: s.nan)
        let json = JSONEncoder()
        json.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: s.positiveInfinity, negativeInfinity: s.negativeInfinity, nan: s.nan)
        let jsonValues = try JSONSerialization.jsonObject(with: try json.encode([value, 2.5])) as? [Any]
        let read = try foundationUnarchive(try encoder.encode([value, 2.5])) as? [Any]
        #expect(read?.first as? String == jsonValues?.first as? String)
        #expect((read?.last as? NSNumber)?.doubleValue == 2.5)

        let decoder = ArchiveDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: s.positiveInfinity, negativeInfinity: s.negativeInfinity, nan: s.nan)
        #expect(try decoder.decode(Reals.self, from: try encoder.encode(Reals(value))).all(equal: value))
        // Without the strategy the strings are strings.
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Reals.self, from: try encoder.encode(Reals(value))) }
    }

    @Test("decoding: .throw rejects stored NaN and infinities; other strings stay type mismatches")
    func decodeStrategies() throws {
        let decoder = ArchiveDecoder()
        decoder.nonConformingFloatDecodingStrategy = .throw
        #expect(throws: DecodingError.self) { try decoder.decode([Double].self, from: try ArchiveEncoder().encode([Double.nan])) }
        #expect(throws: DecodingError.self) { try decoder.decode(Float.self, from: try ArchiveEncoder().encode(Float.infinity)) }
        #expect(try decoder.decode([Double].self, from: try ArchiveEncoder().encode([1.5])) == [1.5])

        let converting = ArchiveDecoder()
        converting.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        do {
            _ = try converting.decode([Double].self, from: try ArchiveEncoder().encode(["x"]))
            Issue.record("a string that is none of the three decoded as a Double")
        } catch DecodingError.typeMismatch {}
        let json = JSONDecoder()
        json.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        #expect { try json.decode([Double].self, from: Data(#"["x"]"#.utf8)) } throws: { error in
            if case DecodingError.typeMismatch = error { return true }
            return false
        }
    }

    // MARK: - Output formatting

    struct Sample: Codable, Equatable {
        var name = "Ada"
        var site = URL(string: "https://example.com/a/b")
        var tags = ["b": 2, "a": 1]
    }

    @Test(".prettyPrinted writes Foundation's indented XML; without it outputFormat decides")
    func prettyPrinted() throws {
        let pretty = ArchiveEncoder()
        pretty.outputFormatting = [.prettyPrinted]
        let xml = try pretty.encode(Sample())
        let text = try #require(String(data: xml, encoding: .utf8))
        #expect(text.hasPrefix("<?xml") && text.contains("\n\t<key>$archiver</key>"))
        var format = PropertyListSerialization.PropertyListFormat.binary
        _ = try PropertyListSerialization.propertyList(from: xml, options: [], format: &format)
        #expect(format == .xml)
        // The same bytes as outputFormat = .xml, and what Foundation reads.
        let explicit = ArchiveEncoder()
        explicit.outputFormat = .xml
        #expect(try explicit.encode(Sample()) == xml)
        pretty.outputFormat = .binary
        #expect(try pretty.encode(Sample()) == xml, ".prettyPrinted wins over outputFormat")
        #expect(try ArchiveDecoder().decode(Sample.self, from: xml) == Sample())
        // Without it: binary by default.
        #expect(try ArchiveEncoder().encode(Sample()).starts(with: Data("bplist00".utf8)))
    }

    @Test(".sortedKeys and .withoutEscapingSlashes describe what the output already is", arguments: [
        ArchiveEncoder.OutputFormatting.sortedKeys, .withoutEscapingSlashes, [.sortedKeys, .withoutEscapingSlashes],
    ])
    func acceptedOptions(options: ArchiveEncoder.OutputFormatting) throws {
        for format in [PropertyListFormat.binary, .xml] {
            let plain = ArchiveEncoder()
            plain.outputFormat = format
            let configured = ArchiveEncoder()
            configured.outputFormat = format
            configured.outputFormatting = options
            #expect(try configured.encode(Sample()) == plain.encode(Sample()))
        }
        let xml = ArchiveEncoder()
        xml.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        let text = String(decoding: try xml.encode(Sample()), as: UTF8.self)
        #expect(text.contains("https://example.com/a/b"))   // slashes are never escaped
    }
}
