import Foundation
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
        var objects: [PropertyListValue] = [.string("$null")]
        func add(_ value: PropertyListValue) -> PropertyListValue {
            objects.append(value)
            return .uid(UInt64(objects.count - 1))
        }
        func entry(_ key: String, _ value: PropertyListValue) -> PropertyListEntry { PropertyListEntry(key: key, value: value) }
        func classEntry(_ name: String) -> PropertyListValue {
            add(.dictionary([entry("$classname", .string(name)), entry("$classes", .array([.string(name), .string("NSObject")]))]))
        }
        let arrayClass = classEntry("NSArray")
        let dictionaryClass = classEntry("NSDictionary")
        let itemClass = classEntry("Item")
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
        return PropertyListValue.dictionary([
            entry("$archiver", .string("NSKeyedArchiver")), entry("$version", .integer(100_000)),
            entry("$top", .dictionary([entry("root", root)])), entry("$objects", .array(objects)),
        ]).propertyListData(format: .binary)
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

    @Test("merging many types at once gives the pairwise fold's result, 2,000 random lists")
    func mergeAgreesWithFold() {
        var random = SplitMix64(seed: 0xF01D)
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
            let fold = types.reduce(InferredType.unknown) { $0.merged(with: $1) }
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
