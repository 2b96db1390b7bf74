/// Merges the types of many values at one place in time linear in their total size, with
/// the result of folding them with ``InferredType/merged(with:)``: that pairwise fold costs
/// the size of the type built so far at each step, so an array of dictionaries with a
/// different key each (one record that grows) took time quadratic in the archive.
///
/// Each kind of type is gathered on its own (values, objects, one element merger for
/// arrays and sets, key and value mergers for dictionaries, one merger per record key)
/// and put together once in ``result()``. Every part of every type added counts one unit
/// of ``Work``, so that tests can check that the cost is linear.
final class TypeMerger {
    /// Parts of types added, over every merger that shares it, and the ids of the class
    /// names and keys they merge (a long name is hashed once, not once per value).
    final class Work {
        var units = 0
        var names = NameIDs()
    }

    private let work: Work
    private var isOptional = false
    private var values: Set<FoundationType> = []
    /// Archived classes, by name id.
    private var objects: Set<Int> = []
    private var sawArray = false
    private var sawSet = false
    private var elements: TypeMerger?
    private var sawDictionary = false
    private var keys: TypeMerger?
    private var dictionaryValues: TypeMerger?
    private var records = 0
    /// Record fields, by key id.
    private var fields: [Int: Field] = [:]

    private final class Field {
        let merger: TypeMerger
        var present = 0
        var isOptional = false
        init(work: Work) { merger = TypeMerger(work: work) }
    }

    init(work: Work) { self.work = work }

    func add(_ type: InferredType) {
        work.units += 1
        switch type {
        case .unknown: break
        case .optional(let wrapped):
            isOptional = true
            add(wrapped)
        case .oneOf(let members): for member in members { add(member) }
        case .value(let value): values.insert(value)
        case .object(let name): objects.insert(work.names.id(name))
        case .array(let element):
            sawArray = true
            child(&elements).add(element)
        case .set(let element):
            sawSet = true
            child(&elements).add(element)
        case .dictionary(let key, let value):
            sawDictionary = true
            child(&keys).add(key)
            child(&dictionaryValues).add(value)
        case .record(let recordFields):
            records += 1
            for field in recordFields {
                let id = work.names.id(field.key)
                let entry = fields[id] ?? Field(work: work)
                fields[id] = entry
                entry.merger.add(field.type)
                entry.present += 1
                entry.isOptional = entry.isOptional || field.isOptional
            }
        }
    }

    private func child(_ merger: inout TypeMerger?) -> TypeMerger {
        if let merger { return merger }
        let made = TypeMerger(work: work)
        merger = made
        return made
    }

    /// The merged type.
    func result() -> InferredType {
        var members: [InferredType] = []
        // Double reads integer storage; UInt64 holds every Int this archive showed.
        var values = values
        if values.contains(.int), values.contains(.double) || values.contains(.uint64) { values.remove(.int) }
        members += values.map(InferredType.value)
        members += objects.map { InferredType.object(work.names[$0]) }
        if sawArray {
            members.append(.array(elements?.result() ?? .unknown))
        } else if sawSet {
            members.append(.set(elements?.result() ?? .unknown))
        }
        if sawDictionary {
            // Records fold into a dictionary: string keys, every field's type among the values.
            let keyMerger = child(&keys)
            let valueMerger = child(&dictionaryValues)
            if records > 0 {
                keyMerger.add(.string)
                for field in fields.values { valueMerger.add(field.merger.result()) }
            }
            members.append(.dictionary(key: keyMerger.result(), value: valueMerger.result()))
        } else if records > 0 {
            let merged = fields.map { id, field in
                InferredType.RecordField(key: work.names[id], type: field.merger.result(),
                                         isOptional: field.isOptional || field.present < records)
            }
            members.append(.record(merged.sorted { $0.key < $1.key }))
        }
        let type: InferredType
        switch members.count {
        case 0: type = .unknown
        case 1: type = members[0]
        default: type = .oneOf(members.sorted { $0.sortKey < $1.sortKey })
        }
        return isOptional ? .optional(type) : type
    }
}
