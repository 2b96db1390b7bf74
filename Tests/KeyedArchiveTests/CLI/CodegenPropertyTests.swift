import Foundation
import KeyedArchive
@testable import KeyedArchiveCodegen
import Testing

/// `keyedarchive swift` over thousands of generated archives whose keys, `$top` keys and
/// class names (of objects and of NSMeasurement units) are drawn from hostile text: the
/// emitted file must hold exactly the declarations the generator planned, every other
/// identifier must be the generator's own vocabulary, and archive text may appear only
/// inside string literals and comments that stay on their line.
@Suite("Codegen: generated archives give exactly the planned declarations")
struct CodegenPropertyTests {
    @Test("3,000 generated archives, seed 0x5EED")
    func generatedArchives() throws {
        var random = XMLPropertyListTests.SplitMix64(state: 0x5EED)
        var failures = 0
        var shapes = (classes: 0, unions: 0, measurements: 0, namespaced: 0)
        for round in 0..<3_000 {
            let archive = RandomArchive.make(&random)
            let namespace = random.next() % 2 == 0 ? nil : SwiftIdentifier(fixed: "Legacy")
            let access: SwiftEmitter.Access = random.next() % 2 == 0 ? .internal : .public
            let source = RandomArchive.text(&random)
            let view = try KeyedArchiveView(data: archive)
            var inference = SchemaInference(view: view)
            let schema = try inference.infer()
            let declarations = SwiftDeclarations(schema: schema, rootName: SwiftIdentifier(fixed: "Root"), namespace: namespace)
            var emitter = SwiftEmitter(declarations: declarations, access: access, source: source)
            let code = try emitter.emit().text
            shapes.classes += declarations.composites.count { if case .archivedClass = $0.origin { true } else { false } }
            shapes.unions += declarations.unions.count
            shapes.measurements += code.contains("Measurement<") ? 1 : 0
            shapes.namespaced += namespace == nil ? 0 : 1
            let problems = GeneratedFileShape.problems(in: code, planned: declarations)
            if !problems.isEmpty {
                failures += 1
                if failures <= 3 { Issue.record("round \(round): \(problems.joined(separator: "; "))\n\(code)") }
            }
        }
        #expect(failures == 0)
        // The archives cover what matters: archived classes, enums, measurements, namespaces.
        #expect(shapes.classes > 1_000 && shapes.unions > 150 && shapes.measurements > 300 && shapes.namespaced > 1_000,
                "\(shapes)")
    }
}

/// Small keyed archives with hostile names everywhere: objects of a few classes with
/// random fields, arrays, dictionaries, measurements, shared and nil values.
enum RandomArchive {
    static let pool: [String] = HostileCodegenFixtures.breakers + [
        "DecodingError", "Int128", "Data", "URL", "String", "Date", "Measurement", "UnitLength", "Codable", "Root",
        "UnknownValue", "Legacy", "ModA.Item", "ModB.Item", "Item", "NSUnitLength", "NSUnitMass", "NSUnitLength>; x",
        "NSColor", "_TtC5MyApp4Note", "_TtC5MyApp9", "é", "e\u{301}", "\u{301}", "Σ", "日本語", "🙂", "a.b.c", "..",
        "root", "$$tag", "$class", "NS.string", "first name", "value", "value2", "Value", "CodingKeys", "init", "encode",
    ]

    static func text(_ random: inout XMLPropertyListTests.SplitMix64) -> String {
        if random.next() % 3 != 0 { return pool[Int(random.next() % UInt64(pool.count))] }
        let ranges: [ClosedRange<UInt32>] = [0x0...0x7F, 0x80...0x2FF, 0x300...0x36F, 0x2000...0x206F, 0x3040...0x30FF, 0x1F600...0x1F64F, 0xFE00...0xFE2F]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(random.next() % 8) {
            let range = ranges[Int(random.next() % UInt64(ranges.count))]
            if let scalar = Unicode.Scalar(range.lowerBound + UInt32(random.next() % UInt64(range.count))) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    static func make(_ random: inout XMLPropertyListTests.SplitMix64) -> Data {
        var builder = CodegenArchiveBuilder()
        func add(_ value: PropertyListValue) -> PropertyListValue { builder.add(value) }
        func classEntry(_ name: String, _ chain: [String]) -> PropertyListValue { builder.classEntry(name, chain: chain) }
        let entry = CodegenArchiveBuilder.entry
        let arrayClass = classEntry("NSArray", ["NSArray"])
        let dictionaryClass = classEntry("NSDictionary", ["NSDictionary"])
        let measurementClass = classEntry("NSMeasurement", ["NSMeasurement"])
        let classes = (0..<1 + Int(random.next() % 4)).map { _ in
            let name = text(&random)
            return classEntry(name, [name])
        }
        var values: [PropertyListValue] = []
        func value(_ depth: Int) -> PropertyListValue {
            switch random.next() % (depth > 2 ? 5 : 10) {
            case 0: return .integer(Int64(random.next() % 100))
            case 1: return add(.string(text(&random)))
            case 2: return .bool(random.next() % 2 == 0)
            case 3: return .real(0.5)
            case 4: return values.isEmpty ? .uid(0) : values[Int(random.next() % UInt64(values.count))]
            case 5, 6:
                var fields = [entry("$class", classes[Int(random.next() % UInt64(classes.count))])]
                for _ in 0..<Int(random.next() % 4) {
                    let key = text(&random)
                    if !fields.contains(where: { $0.key == key }) { fields.append(entry(key, value(depth + 1))) }
                }
                return add(.dictionary(fields))
            case 7:
                return add(.dictionary([entry("$class", arrayClass), entry("NS.objects", .array((0..<Int(random.next() % 3)).map { _ in value(depth + 1) }))]))
            case 8:
                let count = Int(random.next() % 3)
                return add(.dictionary([entry("$class", dictionaryClass),
                                        entry("NS.keys", .array((0..<count).map { _ in add(.string(text(&random))) })),
                                        entry("NS.objects", .array((0..<count).map { _ in value(depth + 1) }))]))
            default:
                let unitName = text(&random)
                let unit = add(.dictionary([entry("$class", classEntry(unitName, [unitName, "NSDimension", "NSUnit"])), entry("NS.symbol", .string("m"))]))
                return add(.dictionary([entry("$class", measurementClass), entry("NS.value", .real(2)), entry("NS.unit", unit)]))
            }
        }
        var top: [PropertyListEntry] = []
        for _ in 0..<1 + Int(random.next() % 3) {
            let item = value(0)
            values.append(item)
            let key = random.next() % 4 == 0 ? "root" : text(&random)
            if !top.contains(where: { $0.key == key }) { top.append(entry(key, item)) }
        }
        return builder.data(top: top)
    }
}
