import Foundation
import Testing
@testable import KeyedArchive

// Foundation-side shapes. NSKeyedArchiver names a Swift class with its module
// (`KeyedArchiveTests.Circle`); an Objective-C class or an `@objc(Circle)` class on Apple
// platforms is plain `Circle`. (Foundation on Linux ignores `setClassName(_:for:)`.)
final class Circle: NSObject, NSCoding {
    let radius: Double
    init(radius: Double) { self.radius = radius }
    func encode(with coder: NSCoder) { coder.encode(radius, forKey: "radius") }
    required init?(coder: NSCoder) { radius = coder.decodeDouble(forKey: "radius") }
}

final class Square: NSObject, NSCoding {
    let side: Double
    let label: String
    init(side: Double, label: String) { self.side = side; self.label = label }
    func encode(with coder: NSCoder) {
        coder.encode(side, forKey: "side")
        coder.encode(label, forKey: "label")
    }
    required init?(coder: NSCoder) {
        side = coder.decodeDouble(forKey: "side")
        label = coder.decodeObject(forKey: "label") as? String ?? ""
    }
}

/// The documented pattern: a Codable enum that picks its case by the archived class.
enum Shape: Decodable, Equatable {
    case circle(radius: Double)
    case square(side: Double, label: String)

    private enum Keys: String, CodingKey { case radius, side, label }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        switch decoder.archivedClassNames?.first {
        case "Circle", "KeyedArchiveTests.Circle": self = .circle(radius: try fields.decode(Double.self, forKey: .radius))
        case "Square", "KeyedArchiveTests.Square": self = .square(side: try fields.decode(Double.self, forKey: .side),
                                      label: try fields.decode(String.self, forKey: .label))
        default:
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "not a shape: \(decoder.archivedClassNames ?? [])"))
        }
    }
}

@Suite("Options: Decoder.archivedClassNames")
struct ArchivedClassNamesTests {
    /// A heterogeneous NSArray written by Foundation's NSKeyedArchiver on this machine.
    static func foundationShapes() -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        let shapes: NSArray = [Circle(radius: 1.5), Square(side: 2, label: "two"), Circle(radius: 3)]
        archiver.encode(shapes, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    @Test("a Codable enum decodes a heterogeneous NSArray of Foundation-written objects by class")
    func heterogeneousArray() throws {
        let shapes = try ArchiveDecoder().decode([Shape].self, from: Self.foundationShapes())
        #expect(shapes == [.circle(radius: 1.5), .square(side: 2, label: "two"), .circle(radius: 3)])
        // Foundation reads the same file back into the same classes (the oracle agrees on the content).
        let read = try #require(try foundationUnarchive(Self.foundationShapes()) as? [NSObject])
        #expect((read[0] as? Circle)?.radius == 1.5 && (read[1] as? Square)?.label == "two")
    }

    @Test("the chain is $classes, most specific first; nil for plain values, nil and other decoders")
    func chainAndNil() throws {
        struct Probe: Decodable {
            var names: [String]?
            init(from decoder: any Decoder) throws { names = decoder.archivedClassNames }
        }
        // Foundation's own chain for a mutable array, read from what Foundation wrote.
        let mutable = foundationArchive(NSMutableArray(array: [1]))
        #expect(try ArchiveDecoder().decode(Probe.self, from: mutable).names == ["NSMutableArray", "NSArray", "NSObject"])
        // Our own objects: a struct's class entry.
        struct Point: Codable { var x = 1 }
        let encoder = ArchiveEncoder()
        encoder.setClassName("Point", superclassNames: ["Base", "NSObject"], for: Point.self)
        #expect(try ArchiveDecoder().decode(Probe.self, from: try encoder.encode(Point())).names == ["Point", "Base", "NSObject"])
        // Plain values and nil have no class.
        #expect(try ArchiveDecoder().decode(Probe.self, from: try ArchiveEncoder().encode("text")).names == nil)
        #expect(try ArchiveDecoder().decode([Probe?].self, from: try ArchiveEncoder().encode([1])).first??.names == nil)
        #expect(try ArchiveDecoder().decode(Probe.self, from: try ArchiveEncoder().encode(5)).names == nil)
        // Other decoders.
        #expect(try JSONDecoder().decode(Probe.self, from: Data("{}".utf8)).names == nil)
        #expect(try PropertyListDecoder().decode(Probe.self, from: try PropertyListEncoder().encode(["a": 1])).names == nil)
    }

    @Test("an object of an unexpected class reaches the enum's own error, with its path")
    func unknownClass() throws {
        let data = foundationArchive(NSArray(array: [NSDate(timeIntervalSinceReferenceDate: 0)]))
        do {
            _ = try ArchiveDecoder().decode([Shape].self, from: data)
            Issue.record("an NSDate decoded as a shape")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("NSDate"))
            #expect(context.codingPath.count == 1)
        }
    }
}

@Suite("Options: one configured coder shared by many tasks")
struct ConfiguredConcurrencyTests {
    struct Record: Codable, Equatable, Sendable {
        var recordName: String
        var createdAt: Date
        var payloadBytes: Data
        var ratio: Double
    }

    @Test("a configured encoder and decoder give the same results from 32 concurrent tasks")
    func concurrentUse() async throws {
        let encoder = ArchiveEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .base64
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let decoder = ArchiveDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .base64
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")

        func record(_ i: Int) -> Record {
            let seconds = Double(1_700_000_000 + i)
            let ratio: Double = i % 2 == 0 ? .infinity : Double(i)
            return Record(recordName: "r\(i)", createdAt: Date(timeIntervalSince1970: seconds),
                          payloadBytes: Data([UInt8(i)]), ratio: ratio)
        }
        let records: [Record] = (0..<32).map(record)
        var expected: [Data] = []
        for value in records { expected.append(try encoder.encode(value)) }
        let results = try await withThrowingTaskGroup(of: (Int, Data, Record).self) { group in
            for (index, record) in records.enumerated() {
                group.addTask {
                    let data = try encoder.encode(record)
                    return (index, data, try decoder.decode(Record.self, from: data))
                }
            }
            var all: [(Int, Data, Record)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 32)
        for (index, data, record) in results {
            #expect(data == expected[index])
            #expect(record == records[index])
        }
        #expect(String(decoding: expected[0], as: UTF8.self).contains("<key>record_name</key>"))
    }
}
