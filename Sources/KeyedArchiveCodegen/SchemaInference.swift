import Foundation
import KeyedArchive

/// Infers an ``ArchiveSchema`` by walking the object graph from `$top`.
///
/// Each object is visited once (its type is remembered by index), so the walk costs time
/// linear in the archive however objects are shared. Foundation's value classes become
/// the Swift types the decoder reads them as (the library's
/// `KeyedArchiveView.foundationValue(of:)` decides what an object stands for, as it does
/// for `json` and `dump`); every other class becomes a generated
/// type whose properties are the union of the keys of its instances. Nesting deeper than
/// ``ArchiveDecoder/Limits``' default depth is refused: the decoder would refuse it too.
package struct SchemaInference {
    let view: KeyedArchiveView
    let maxDepth: Int
    /// The generated classes met so far, by the id of their name in ``work``'s names.
    private var classes: [Int: GatheredClass] = [:]
    private var memo: [Int: InferredType] = [:]
    /// Objects whose type is being worked out: meeting one again is a cycle.
    private var open: Set<Int> = []
    /// Foundation collections met again while their elements are worked out (a list that
    /// contains itself), with the name of the list class they become.
    private var selfContaining: [Int: String] = [:]
    /// The objects that become generated-class instances, and the collections that contain
    /// themselves (list classes), by index: what ``DecodeOrderWalk`` fills in two phases.
    private var generatedObjects: Set<Int> = []
    private var listObjects: Set<Int> = []
    /// What merging types cost (parts of types added): linear in the archive. Its names
    /// give every class name and key an id, so a long one is hashed once.
    let work = TypeMerger.Work()
    /// ``work``'s units so far.
    package var workUnits: Int { work.units }
    /// The AppKit interpretations of the walk: each object once, within the view's budget.
    package private(set) var appKit: AppKitInterpretations
    /// The bytes of class names and keys hashed so far: linear in the archive however
    /// often one long name is repeated.
    package var hashedNameBytes: Int { work.names.hashedBytes }

    /// One class's schema while the archive is walked: its fields by key id.
    private struct GatheredClass {
        var schema: ClassSchema
        var fields: [Int: ClassSchema.Field] = [:]
    }

    package init(view: KeyedArchiveView, maxDepth: Int = ArchiveDecoder.Limits().maxDepth) {
        self.view = view
        self.maxDepth = maxDepth
        appKit = AppKitInterpretations(view: view)
    }

    package mutating func infer() throws(CodegenError) -> ArchiveSchema {
        var top: [(key: String, type: InferredType)] = []
        for entry in view.topLevel {
            top.append((entry.key, try type(of: entry.value, depth: 0)))
        }
        // Each field's type, merged once from all its instances' values; names replace ids.
        var schemas: [String: ClassSchema] = [:]
        for (nameID, gathered) in classes {
            var schema = gathered.schema
            for (keyID, var field) in gathered.fields {
                field.type = try Self.checked(field.merger.result())
                schema.fields[work.names[keyID]] = field
            }
            schemas[work.names[nameID]] = schema
        }
        return ArchiveSchema(top: top, classes: schemas, view: view, generatedObjects: generatedObjects, listObjects: listObjects)
    }

    private mutating func type(of value: ArchivedValue, depth: Int) throws(CodegenError) -> InferredType {
        guard depth <= maxDepth else {
            throw CodegenError("the object graph is nested more than \(maxDepth) levels deep, more than ArchiveDecoder reads by default (Limits.maxDepth)")
        }
        switch value {
        case .null: return .optional(.unknown)
        case .string: return .string
        case .integer: return .int
        case .unsignedInteger(let number): return number <= UInt64(Int.max) ? .int : .value(.uint64)
        case .wideInteger(let number): return .value(number.isNegative ? .int128 : .uint128)
        case .real: return .double
        case .bool: return .bool
        case .data: return .value(.data)
        case .date: return .value(.date)
        case .array(let items): return .array(try merged(items, depth: depth + 1))
        case .dictionary(let fields):
            return .dictionary(key: .string, value: try merged(fields.map(\.value), depth: depth + 1))
        case .reference(let index): return try object(index, depth: depth)
        }
    }

    /// The merged type of `values`; an object referenced again adds nothing new.
    private mutating func merged(_ values: [ArchivedValue], depth: Int) throws(CodegenError) -> InferredType {
        let merger = TypeMerger(work: work)
        var seen: Set<Int> = []
        for value in values {
            if case .reference(let index) = value, !seen.insert(index).inserted { continue }
            merger.add(try type(of: value, depth: depth))
        }
        return try Self.checked(merger.result())
    }

    /// The most kinds of value one place may hold (enum cases), and the most parts an
    /// inferred type may have: beyond them the archive is refused rather than walked in
    /// time that grows faster than its size.
    static let maxKinds = 256
    static let maxParts = 20_000

    private static func checked(_ type: InferredType) throws(CodegenError) -> InferredType {
        if case .oneOf(let members) = type.unwrapped, members.count > maxKinds {
            throw CodegenError("one place in the archive holds values of more than \(maxKinds) different types")
        }
        if type.partCount(limit: maxParts + 1) > maxParts {
            throw CodegenError("the types inferred for the archive's dictionaries have more than \(maxParts) parts (dictionaries shared at every level?)")
        }
        return type
    }

    private mutating func object(_ index: Int, depth: Int) throws(CodegenError) -> InferredType {
        guard index < view.objects.count else { return .unknown }
        let object = view.objects[index]
        if let known = memo[index] {
            if case .object(let name) = known { classes[work.names.id(name)]?.schema.needsIdentity = true }
            return known
        }
        if open.contains(index) {
            // A cycle. An archived class is a generated class type; a Foundation array or
            // set that contains itself becomes a list class (decoded in two phases); any
            // other collection has no Swift type, so its inner place stays unknown.
            guard let name = object.className else { return .unknown }
            if try FoundationMapping.isGenerated(object, in: view, appKit: &appKit) {
                let id = work.names.id(name)
                classes[id]?.schema.needsIdentity = true
                classes[id]?.schema.closesCycle = true
                return .object(name)
            }
            switch view.foundationValue(of: object) {
            case .array?, .orderedSet?, .set?:
                selfContaining[index] = name
                return .object(name)
            default:
                return .unknown
            }
        }
        open.insert(index)
        defer { open.remove(index) }
        // A plain `$objects` entry (a UID to another entry, an array…) is walked once too,
        // one level deeper, so that UIDs that lead to each other end (found by the fuzzer).
        var result: InferredType
        if let plain = object.plainValue {
            result = try type(of: plain, depth: depth + 1)
        } else {
            result = try classify(object, depth: depth)
            if case .object = result { generatedObjects.insert(index) }
        }
        if let name = selfContaining.removeValue(forKey: index) {
            result = list(name, items: result)
            listObjects.insert(index)
        }
        memo[index] = result
        return result
    }

    private mutating func classify(_ object: ArchivedObject, depth: Int) throws(CodegenError) -> InferredType {
        guard let className = object.className else { return .unknown }  // a class entry used as a value
        // The classes only the decoder reads as Swift values come first: NSCountedSet is
        // an NSSet to the library's interpretation, but a `[T: Int]` to the decoder.
        switch try FoundationMapping.kind(of: object, in: view, appKit: &appKit) {
        case .value(let swiftType)?:
            return .value(swiftType)
        case .countedSet(let items)?:
            return .dictionary(key: try merged(items, depth: depth + 1), value: .int)
        case nil:
            break
        }
        if let special = view.foundationValue(of: object) {
            switch special {
            case .array(let items), .orderedSet(let items): return .array(try merged(items, depth: depth + 1))
            case .set(let items): return .set(try merged(items, depth: depth + 1))
            case .dictionary(let keys, let values):
                return try dictionary(keys: keys, values: values, depth: depth + 1)
            case .string: return .string
            case .data: return .value(.data)
            case .date: return .value(.date)
            case .url: return .value(.url)
            case .uuid: return .value(.uuid)
            case .decimal: return .value(.decimal)
            case .null: return .optional(.unknown)
            }
        }
        let nameID = work.names.id(className)
        classes[nameID, default: GatheredClass(schema: ClassSchema(name: className, chain: object.classes))].schema.instanceCount += 1
        for field in object.fields {
            let keyID = work.names.id(field.key)
            let fieldType = try type(of: field.value, depth: depth + 1)
            // Updated in place, after the walk above (which may have added to this
            // class's schema). The type is merged once all instances are seen (`infer()`).
            let work = work
            classes[nameID]?.fields[keyID, default: ClassSchema.Field(
                type: .unknown, presentCount: 0, merger: TypeMerger(work: work))].record(fieldType)
        }
        return .object(className)
    }

    /// The list class `name` for a collection that contains itself, whose elements have
    /// the element type of `collection`.
    private mutating func list(_ name: String, items collection: InferredType) -> InferredType {
        let nameID = work.names.id(name)
        var gathered = classes[nameID] ?? GatheredClass(schema: ClassSchema(name: name, chain: [name]))
        gathered.schema.isList = true
        gathered.schema.closesCycle = true
        gathered.schema.instanceCount += 1
        let element: InferredType
        switch collection {
        case .array(let inner), .set(let inner): element = inner
        default: element = .unknown
        }
        gathered.fields[work.names.id(ClassSchema.listItemsKey), default: ClassSchema.Field(
            type: .unknown, presentCount: 0, merger: TypeMerger(work: work))].record(element)
        classes[nameID] = gathered
        return .object(name)
    }

    /// `[K: V]`, or a record when every key is a string and the values differ in type.
    private mutating func dictionary(keys: [ArchivedValue], values: [ArchivedValue], depth: Int) throws(CodegenError) -> InferredType {
        // A class that keys a dictionary (Core Data keys one by `XDGraphicID` objects) is
        // declared `Hashable` by identity (see `SwiftEmitter`), so it can key a Swift one.
        let keyType = try merged(keys, depth: depth)
        var valueTypes: [InferredType] = []
        let merger = TypeMerger(work: work)
        for value in values {
            let type = try type(of: value, depth: depth)
            valueTypes.append(type)
            merger.add(type)
        }
        let valueType = try Self.checked(merger.result())
        guard case .oneOf = valueType.unwrapped, keyType == .string else {
            return .dictionary(key: keyType, value: valueType)
        }
        var fields: [Int: InferredType.RecordField] = [:]  // by key id
        for (key, type) in zip(keys, valueTypes) {
            guard let name = FoundationMapping.string(key, in: view) else { return .dictionary(key: keyType, value: valueType) }
            fields[work.names.id(name)] = InferredType.RecordField(key: name, type: type.unwrapped, isOptional: type.isOptional)
        }
        return try Self.checked(.record(fields.values.sorted { $0.key < $1.key }))
    }
}

/// Foundation classes the decoder reads as Swift value types beyond those
/// `KeyedArchiveView.foundationValue(of:)` interprets (IndexSet, Measurement, NSValue's geometry…), and whether an
/// object becomes a generated type.
enum FoundationMapping {
    enum Kind {
        /// A standard-library or Foundation type.
        case value(FoundationType)
        /// NSCountedSet: its distinct objects, read with their counts as `[T: Int]`.
        case countedSet([ArchivedValue])
    }

    static func kind(of object: ArchivedObject, in view: KeyedArchiveView,
                     appKit: inout AppKitInterpretations) throws(CodegenError) -> Kind? {
        switch object.className {
        case "NSIndexSet", "NSMutableIndexSet": return .value(.indexSet)
        case "NSIndexPath": return .value(.indexPath)
        case "NSAttributedString", "NSMutableAttributedString": return .value(.string)
        case "NSTimeZone": return .value(.timeZone)
        case "NSLocale": return .value(.locale)
        case "NSMeasurement":
            var unitClass: String?
            if case .reference(let index)? = object["NS.unit"], index < view.objects.count {
                unitClass = view.objects[index].className
            }
            return .value(.measurement(unitClass: unitClass))
        case "NSValue":
            // NS.special: which C struct the value holds (Foundation's NSValue coding).
            switch view.plainValue(object["NS.special"]) {
            case .integer(1)?, .unsignedInteger(1)?: return .value(.cgPoint)
            case .integer(2)?, .unsignedInteger(2)?: return .value(.cgSize)
            case .integer(3)?, .unsignedInteger(3)?: return .value(.cgRect)
            case .integer(4)?, .unsignedInteger(4)?: return .value(.nsRange)
            default: return nil
            }
        case "NSCountedSet":
            var items: [ArchivedValue] = []
            for field in object.fields where field.key.hasPrefix("NS.object") && Int(field.key.dropFirst(9)) != nil {
                items.append(field.value)
            }
            return .countedSet(items)
        default:
            // Colours, fonts and paragraph styles, as the library interprets them (each
            // object once, within one budget for the whole inference).
            let value: ArchivedAppKitValue?
            do { value = try appKit.value(of: object, in: view) } catch { throw CodegenError(error.message) }
            switch value {
            case .color?: return .value(.archivedColor)
            case .font?: return .value(.archivedFont)
            case .paragraphStyle?: return .value(.archivedParagraphStyle)
            default: return nil
            }
        }
    }

    /// Whether `object` becomes a generated type (it is no Foundation value).
    static func isGenerated(_ object: ArchivedObject, in view: KeyedArchiveView,
                            appKit: inout AppKitInterpretations) throws(CodegenError) -> Bool {
        guard object.className != nil, try kind(of: object, in: view, appKit: &appKit) == nil else { return false }
        return view.foundationValue(of: object) == nil
    }

    /// A string: plain, or an NSString object behind a UID (as a dictionary key).
    static func string(_ value: ArchivedValue, in view: KeyedArchiveView) -> String? {
        switch view.plainValue(value) {
        case .string(let text)?: return text
        case nil:
            guard case .reference(let index) = value, index < view.objects.count,
                  case .string(let text)? = view.foundationValue(of: view.objects[index]) else { return nil }
            return text
        default: return nil
        }
    }
}
