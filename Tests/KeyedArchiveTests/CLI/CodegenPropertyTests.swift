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

/// What the emitted file must look like, given the plan.
enum GeneratedFileShape {
    /// Identifiers the generator writes itself (besides declared names and Foundation types).
    static let vocabulary: Set<String> = [
        "Foundation", "KeyedArchive", "Codable", "Hashable", "Sendable", "ArchivedClass", "archivedClassName",
        "archivedSuperclassNames", "CodingKeys", "CodingKey", "Decoder", "Encoder", "decoder", "encoder", "container",
        "singleValueContainer", "decode", "encode", "value", "archivedClassNames", "first", "map", "split", "separator",
        "last", "DecodingError", "dataCorruptedError", "dataCorrupted", "Context", "codingPath", "debugDescription",
        "to", "from", "data", "ArchiveDecoder", "forKey", "archive", "Set", "$0", "String",
    ]

    /// Members every declared type may have besides its properties and cases.
    static let helperMembers: Set<String> = [
        "let archivedClassName", "let archivedSuperclassNames", "init init", "func encode", "enum CodingKeys",
    ]

    static func problems(in code: String, planned: SwiftDeclarations) -> [String] {
        let tokens: [SwiftSourceScanner.Token]
        do {
            tokens = try SwiftSourceScanner.tokens(code)
        } catch {
            return ["does not tokenize: \(error)"]
        }
        var problems: [String] = []
        var allowed = vocabulary.union(FoundationType.names).union(FoundationType.unitNames)
        let prefix = planned.namespace.map { [$0.name] } ?? []
        var expectedTypes: Set<SwiftSourceScanner.Declaration> = []
        var members: [String: Set<String>] = [:]  // type path -> "keyword name"
        if let namespace = planned.namespace {
            expectedTypes.insert(.init(keyword: "enum", path: [namespace.name]))
            allowed.insert(namespace.name)
        }
        allowed.insert(planned.rootName.name)
        switch planned.root {
        case .alias: expectedTypes.insert(.init(keyword: "typealias", path: prefix + [planned.rootName.name]))
        case .composite(nil) where planned.namespace == nil:
            expectedTypes.insert(.init(keyword: "extension", path: [planned.rootName.name]))
        default: break
        }
        for composite in planned.composites {
            let path = prefix + [composite.name.name]
            expectedTypes.insert(.init(keyword: composite.isClass || composite.holdsItself ? "class" : "struct", path: path))
            allowed.insert(composite.name.name)
            var names: Set<String> = []
            for property in composite.properties {
                names.insert("var " + property.name.name)
                allowed.insert(property.name.name)
            }
            members[path.joined(separator: "."), default: []].formUnion(names)
            members[(path + ["CodingKeys"]).joined(separator: "."), default: []]
                .formUnion(composite.properties.map { "case " + $0.name.name })
        }
        for union in planned.unions {
            let path = prefix + [union.name.name]
            expectedTypes.insert(.init(keyword: "enum", path: path))
            allowed.insert(union.name.name)
            for item in union.cases { allowed.insert(item.name.name) }
            members[path.joined(separator: "."), default: []].formUnion(union.cases.map { "case " + $0.name.name })
        }
        if planned.usesUnknown {
            expectedTypes.insert(.init(keyword: "enum", path: prefix + [SwiftDeclarations.unknownName.name]))
            allowed.insert(SwiftDeclarations.unknownName.name)
        }
        // Declarations: the planned types, and in each only its planned members and helpers.
        let declared = SwiftSourceScanner.declarations(tokens)
        let typeKeywords: Set<String> = ["struct", "class", "enum", "typealias", "extension"]
        var seenTypes: Set<SwiftSourceScanner.Declaration> = []
        var seenMembers: Set<String> = []
        for declaration in declared {
            let owner = declaration.path.dropLast().joined(separator: ".")
            let member = declaration.keyword + " " + (declaration.path.last ?? "")
            if typeKeywords.contains(declaration.keyword), expectedTypes.contains(declaration) {
                if !seenTypes.insert(declaration).inserted { problems.append("declared twice: \(declaration)") }
            } else if members[owner]?.contains(member) == true {
                if !seenMembers.insert(owner + " " + member).inserted { problems.append("declared twice: \(declaration)") }
            } else if !helperMembers.contains(member) || owner.isEmpty {
                problems.append("unplanned declaration: \(declaration)")
            }
        }
        for missing in expectedTypes.subtracting(seenTypes) { problems.append("missing: \(missing)") }
        // Every identifier is the generator's; every comment stays on its line.
        for token in tokens {
            switch token {
            case .identifier(let name) where !allowed.contains(name):
                problems.append("unexpected identifier \(name.debugDescription)")
            case .comment(let text) where text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format || $0.properties.generalCategory == .lineSeparator || $0.properties.generalCategory == .paragraphSeparator }):
                problems.append("comment with an invisible or line-breaking character: \(text.debugDescription)")
            default: break
            }
        }
        return problems
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
