import Foundation
import HostileArchives
import KeyedArchive
@testable import KeyedArchiveCodegen
import Testing

/// `keyedarchive swift`'s type inference costs work linear in the archive, counted (parts
/// of types merged), not timed; and the linear merge gives what the pairwise fold gives.
@Suite("Codegen: linear type inference")
struct CodegenLinearityTests {
    /// Sized families of valid shallow archives that the pairwise fold made quadratic.
    enum Family: String, CaseIterable {
        /// An array of dictionaries, each with a key of its own and a shared one: one record that grows.
        case recordKeys
        /// The same dictionaries, each in an array of its own.
        case nestedRecordKeys
        /// Objects of one class, each with a field of its own.
        case classFields
        /// One object referenced from every array slot.
        case sharedObject
    }

    static func archive(_ family: Family, count: Int) -> Data {
        var builder = CodegenArchiveBuilder()
        func add(_ value: PropertyListValue) -> PropertyListValue { builder.add(value) }
        let entry = CodegenArchiveBuilder.entry
        let arrayClass = builder.classEntry("NSArray")
        let dictionaryClass = builder.classEntry("NSDictionary")
        let itemClass = builder.classEntry("Item")
        let shared = add(.string("shared"))
        var items: [PropertyListValue] = []
        for index in 0..<count {
            let record = add(.dictionary([entry("$class", dictionaryClass),
                                          entry("NS.keys", .array([add(.string("k\(index)")), shared])),
                                          entry("NS.objects", .array([.integer(Int64(index)), shared]))]))
            switch family {
            case .recordKeys: items.append(record)
            case .nestedRecordKeys: items.append(add(.dictionary([entry("$class", arrayClass), entry("NS.objects", .array([record]))])))
            case .classFields: items.append(add(.dictionary([entry("$class", itemClass), entry("f\(index)", .integer(1)), entry("name", shared)])))
            case .sharedObject: items.append(items.first ?? record)
            }
        }
        let root = add(.dictionary([entry("$class", arrayClass), entry("NS.objects", .array(items))]))
        return builder.data(top: [entry("root", root)])
    }

    static func work(_ data: Data) throws -> Int {
        var inference = SchemaInference(view: try KeyedArchiveView(data: data))
        _ = try inference.infer()
        return inference.workUnits
    }

    @Test("work grows with the archive, not its square", arguments: Family.allCases)
    func linear(family: Family) throws {
        let small = Self.archive(family, count: 1_000), large = Self.archive(family, count: 4_000)
        let smallWork = try Self.work(small), largeWork = try Self.work(large)
        #expect(smallWork > 0)
        // 4× the input: at most 4.5× the work (quadratic would be 16×).
        #expect(Double(largeWork) <= 4.5 * Double(smallWork), "\(smallWork) → \(largeWork)")
        #expect(largeWork <= large.count, "\(largeWork) units for \(large.count) bytes")
    }

    /// Records (NSDictionaries whose values differ in type) that all name one long key, a
    /// string object of the archive: the dictionary-key counterpart of `sharedFieldName`.
    static func sharedRecordKey(count: Int, length: Int) -> Data {
        var builder = CodegenArchiveBuilder()
        let entry = CodegenArchiveBuilder.entry
        let arrayClass = builder.classEntry("NSArray"), dictionaryClass = builder.classEntry("NSDictionary")
        let key = builder.add(.string(String(repeating: "k", count: length))), other = builder.add(.string("b"))
        let text = builder.add(.string("v"))
        let items = (0..<count).map { index in
            builder.add(.dictionary([entry("$class", dictionaryClass), entry("NS.keys", .array([key, other])),
                                     entry("NS.objects", .array([.integer(Int64(index)), text]))]))
        }
        let root = builder.add(.dictionary([entry("$class", arrayClass), entry("NS.objects", .array(items))]))
        return builder.data(top: [entry("root", root)])
    }

    /// The bytes of class names and keys that inferring `data`'s schema hashed.
    static func hashedNameBytes(_ data: Data) throws -> Int {
        var inference = SchemaInference(view: try KeyedArchiveView(data: data))
        _ = try inference.infer()
        return inference.hashedNameBytes
    }

    @Test("one long class name or key named by every object is hashed once, not once per object",
          arguments: ["sharedClassName", "sharedFieldName", "sharedRecordKey"])
    func sharedLongName(family: String) throws {
        let length = 10_000
        func archive(_ count: Int) -> Data {
            switch family {
            case "sharedClassName": return AmplificationFamily.sharedClassName.archive(references: count, length: length)
            case "sharedFieldName": return AmplificationFamily.sharedFieldName.archive(references: count, length: length)
            default: return Self.sharedRecordKey(count: count, length: length)
            }
        }
        let small = archive(100), large = archive(400)
        let smallBytes = try Self.hashedNameBytes(small), largeBytes = try Self.hashedNameBytes(large)
        // The name is hashed (at least once), but not again for each of the 300 more objects
        // (once per object was 100 × 10,000 bytes → 400 × 10,000).
        #expect(smallBytes >= length)
        #expect(largeBytes < smallBytes + length, "\(smallBytes) → \(largeBytes)")
        #expect(largeBytes <= large.count, "\(largeBytes) bytes hashed for a \(large.count)-byte archive")
    }

    /// The declarations for the archive whose `root` `build` adds, given one object of a
    /// class named by 10,000 bytes.
    static func declarations(_ build: (inout CodegenArchiveBuilder, PropertyListValue) -> PropertyListValue) throws -> SwiftDeclarations {
        var builder = CodegenArchiveBuilder()
        let shared = builder.add(.dictionary([CodegenArchiveBuilder.entry("$class", builder.classEntry(String(repeating: "Long", count: 2_500)))]))
        let root = build(&builder, shared)
        var inference = SchemaInference(view: try KeyedArchiveView(data: builder.data(top: [CodegenArchiveBuilder.entry("root", root)])))
        return SwiftDeclarations(schema: try inference.infer(), rootName: SwiftIdentifier(fixed: "Root"))
    }

    @Test("properties that hold one long-named class find its type without hashing the name each time")
    func longClassNameProperties() throws {
        func declarations(fields: Int) throws -> SwiftDeclarations {
            try Self.declarations { builder, shared in
                let entry = CodegenArchiveBuilder.entry
                return builder.add(.dictionary([entry("$class", builder.classEntry("Owner"))] + (0..<fields).map { entry("f\($0)", shared) }))
            }
        }
        let small = try declarations(fields: 10), large = try declarations(fields: 400)
        #expect(small.hashedNameBytes >= 10_000)
        // Once per property was 400 × 10,000 bytes.
        #expect(large.hashedNameBytes == small.hashedNameBytes)
        #expect(large.composites.contains { $0.properties.count == 400 })
    }

    @Test("one union of a long-named class used by many classes is named without hashing the name each time")
    func longClassNameUnions() throws {
        func declarations(classes: Int) throws -> SwiftDeclarations {
            try Self.declarations { builder, shared in
                let entry = CodegenArchiveBuilder.entry
                var items: [PropertyListValue] = []
                for index in 0..<classes {
                    let itemClass = builder.classEntry("C\(index)")
                    items.append(builder.add(.dictionary([entry("$class", itemClass), entry("v", shared)])))
                    items.append(builder.add(.dictionary([entry("$class", itemClass), entry("v", .integer(1))])))
                }
                return builder.add(.dictionary([entry("$class", builder.classEntry("NSArray")), entry("NS.objects", .array(items))]))
            }
        }
        let small = try declarations(classes: 10), large = try declarations(classes: 100)
        #expect(small.hashedNameBytes >= 10_000)
        // Short class names are hashed as text; the long one once (each place was 10,000 bytes).
        #expect(large.hashedNameBytes < small.hashedNameBytes + 10_000, "\(small.hashedNameBytes) → \(large.hashedNameBytes)")
        #expect(large.unions.count == small.unions.count)
    }

    /// An NSDictionary of `count` objects, each of a class of its own, each holding under
    /// `key` one shared object of class `className`.
    static func sharedNames(count: Int, key: String, className: String) -> Data {
        var builder = CodegenArchiveBuilder()
        func add(_ value: PropertyListValue) -> PropertyListValue { builder.add(value) }
        let entry = CodegenArchiveBuilder.entry
        let dictionaryClass = builder.classEntry("NSDictionary")
        let shared = add(.dictionary([entry("$class", builder.classEntry(className))]))
        let items = (0..<count).map { index in
            add(.dictionary([entry("$class", builder.classEntry("C\(index)")), entry(key, shared)]))
        }
        let keys = (0..<count).map { add(.string("k\($0)")) }
        let root = add(.dictionary([entry("$class", dictionaryClass), entry("NS.keys", .array(keys)), entry("NS.objects", .array(items))]))
        return builder.data(top: [entry("root", root)])
    }

    static func emit(_ data: Data) throws(CodegenError) -> String {
        var inference = SchemaInference(view: (try? KeyedArchiveView(data: data))!)
        let declarations = SwiftDeclarations(schema: try inference.infer(), rootName: SwiftIdentifier(fixed: "Root"))
        var emitter = SwiftEmitter(declarations: declarations, access: .internal, source: "input",
                                   outputLimit: SwiftEmitter.outputLimit(forInputSize: data.count))
        return try emitter.emit().text
    }

    @Test("a long class name used by many types is written at most 100 characters long each time")
    func longClassName() throws {
        let data = Self.sharedNames(count: 200, key: "item", className: String(repeating: "Long", count: 5_000))
        let code = try Self.emit(data)
        #expect(code.contains("    var item: " + String(repeating: "Long", count: 25) + "\n"))
        #expect(code.utf8.count <= SwiftEmitter.outputLimit(forInputSize: data.count))
    }

    @Test("a long key shared by many classes stops at the output limit with an error")
    func outputLimit() throws {
        let data = Self.sharedNames(count: 150, key: String(repeating: "k", count: 40_000), className: "Item")
        #expect(throws: CodegenError.self) { try Self.emit(data) }
        do {
            _ = try Self.emit(data)
        } catch {
            #expect(error.message.contains("would be larger than"))
        }
    }

    @Test("merging many types at once gives the pairwise fold's result, 2,000 random lists")
    func mergeAgreesWithFold() {
        var random = XMLPropertyListTests.SplitMix64(state: 0xF01D)
        func type(_ depth: Int) -> InferredType {
            switch random.next() % (depth > 2 ? 6 : 11) {
            case 0: return .int
            case 1: return .double
            case 2: return .string
            case 3: return .unknown
            case 4: return .object(["A", "B"][Int(random.next() % 2)])
            case 5: return .optional(.unknown)
            case 6: return .array(type(depth + 1))
            case 7: return .set(type(depth + 1))
            case 8: return .dictionary(key: .string, value: type(depth + 1))
            case 9: return .optional(type(depth + 1).unwrapped)
            default:
                let keys = ["a", "b", "c"].filter { _ in random.next() % 2 == 0 }
                return .record(keys.map { InferredType.RecordField(key: $0, type: type(depth + 1).unwrapped, isOptional: random.next() % 3 == 0) })
            }
        }
        var disagreements = 0
        for _ in 0..<2_000 {
            let types = (0..<Int(random.next() % 5)).map { _ in type(0) }
            let fold = types.reduce(InferredType.unknown) { $0.pairwiseMerged(with: $1) }
            let merger = TypeMerger(work: TypeMerger.Work())
            for type in types { merger.add(type) }
            if merger.result() != fold {
                disagreements += 1
                if disagreements <= 3 { Issue.record("\(types) → fold \(fold), merger \(merger.result())") }
            }
        }
        #expect(disagreements == 0)
    }
}

/// The pairwise merge `keyedarchive swift` used before ``TypeMerger`` (and the rules it
/// must still give): the oracle for `mergeAgreesWithFold`.
extension InferredType {
    /// The type of a place that holds values of both types.
    func pairwiseMerged(with other: InferredType) -> InferredType {
        switch (self, other) {
        case (.unknown, _): return other
        case (_, .unknown): return self
        case (.optional(let a), _): return .optional(a.pairwiseMerged(with: other.unwrapped).unwrapped)
        case (_, .optional(let b)): return .optional(pairwiseMerged(with: b).unwrapped)
        default: break
        }
        if self == other { return self }
        if let combined = Self.combine(self, other) { return combined }
        return Self.union(members + other.members)
    }

    /// The members of a `oneOf`, or the type alone.
    private var members: [InferredType] {
        if case .oneOf(let members) = self { return members }
        return [self]
    }

    /// Two types that one Swift type holds, or `nil` when they need an enum.
    private static func combine(_ a: InferredType, _ b: InferredType) -> InferredType? {
        switch (a, b) {
        case (.value(.int), .value(.double)), (.value(.double), .value(.int)):
            // Double reads integer storage; every archived integer below 2^53 is exact.
            return .double
        case (.value(.int), .value(.uint64)), (.value(.uint64), .value(.int)):
            return .value(.uint64)
        case (.array(let x), .array(let y)), (.array(let x), .set(let y)), (.set(let x), .array(let y)):
            return .array(x.pairwiseMerged(with: y))
        case (.set(let x), .set(let y)):
            return .set(x.pairwiseMerged(with: y))
        case (.dictionary(let k1, let v1), .dictionary(let k2, let v2)):
            return .dictionary(key: k1.pairwiseMerged(with: k2), value: v1.pairwiseMerged(with: v2))
        case (.record(let x), .record(let y)):
            return .record(mergeRecords(x, y))
        case (.record(let fields), .dictionary(let key, let value)), (.dictionary(let key, let value), .record(let fields)):
            return .dictionary(key: key.pairwiseMerged(with: .string), value: fields.reduce(value) { $0.pairwiseMerged(with: $1.type) })
        default:
            return nil
        }
    }

    /// The keys of both records; a key missing from one becomes optional.
    static func mergeRecords(_ x: [RecordField], _ y: [RecordField]) -> [RecordField] {
        var byKey: [String: RecordField] = [:]
        for field in x { byKey[field.key] = field }
        var seen: Set<String> = []
        for field in y {
            seen.insert(field.key)
            if let existing = byKey[field.key] {
                byKey[field.key] = RecordField(key: field.key, type: existing.type.pairwiseMerged(with: field.type),
                                               isOptional: existing.isOptional || field.isOptional)
            } else {
                byKey[field.key] = RecordField(key: field.key, type: field.type, isOptional: true)
            }
        }
        for field in x where !seen.contains(field.key) { byKey[field.key]?.isOptional = true }
        return byKey.values.sorted { $0.key < $1.key }
    }

    /// A `oneOf` of `candidates`, each folded into a member it combines with.
    private static func union(_ candidates: [InferredType]) -> InferredType {
        var result: [InferredType] = []
        for candidate in candidates {
            if let index = result.firstIndex(where: { $0 == candidate || combine($0, candidate) != nil }) {
                result[index] = result[index] == candidate ? candidate : combine(result[index], candidate) ?? candidate
            } else {
                result.append(candidate)
            }
        }
        guard result.count > 1 else { return result.first ?? .unknown }
        return .oneOf(result.sorted { $0.sortKey < $1.sortKey })
    }

}
