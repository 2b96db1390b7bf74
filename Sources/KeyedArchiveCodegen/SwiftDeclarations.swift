/// The declarations `keyedarchive swift` writes, planned from an ``ArchiveSchema``: names
/// chosen, types spelled, struct or class decided. Every name is a ``SwiftIdentifier`` and
/// every type a ``SwiftType``; text from the archive is kept as it is, for the emitter's
/// literal and comment builders.
package struct SwiftDeclarations {
    /// Where a record or enum is used, for its doc comment.
    package enum Place: Hashable, Sendable {
        /// The value under a `$top` key.
        case topLevel(key: String)
        /// A property (or enum case) of a declared type.
        case member(owner: SwiftIdentifier, name: SwiftIdentifier)
    }

    /// A struct or final class: an archived class, a record (NSDictionary of mixed
    /// values) or the top-level values.
    package struct Composite {
        package enum Origin {
            case archivedClass(name: String, superclasses: [String], instances: Int)
            /// A Foundation array or set (`$classname` `name`) that contains itself: a
            /// two-phase class whose one property, `items`, holds its elements.
            case list(name: String, instances: Int)
            case record(usedAt: Place)
            /// `$top` without a `root` key: each property decodes under its stored key
            /// (by key: `$0` is stored `$$0` when Foundation escaped it).
            case topLevel(storedKeys: [String: String])
        }
        package struct Property {
            package let name: SwiftIdentifier
            package let key: String
            package let type: SwiftType
            package let isOptional: Bool
            /// `weak var`: the back edge of a cycle, whose object is owned elsewhere on the
            /// graph (``SwiftDeclarations/decideWeakEdges()``).
            package var isWeak = false
            /// Listed in `archiveBackEdges`: a `weak` property, or a strong one through which
            /// the archive refers to an object still being decoded (``SwiftDeclarations/decideBackEdges()``).
            package var isBackEdge = false
        }
        package let name: SwiftIdentifier
        package let origin: Origin
        package var properties: [Property]
        /// Whether the archive shares or cycles through its objects (else a class only
        /// because the type holds itself).
        package var isClass: Bool
        package var holdsItself = false
        package var isPlain = false
        /// A final class that adopts `ArchiveReferenceCodable`: its objects take part in
        /// cycles (``SwiftDeclarations/decideTwoPhase()``).
        package var isTwoPhase = false
        /// A class used as a dictionary key: `Hashable` by identity, as `NSDictionary`
        /// compares the key objects it holds.
        package var isKeyClass = false
    }

    /// An enum with a case per kind of value found at one place.
    package struct Union {
        package struct Case {
            package let name: SwiftIdentifier
            package let type: SwiftType
            /// The `$classname` of an archived-class case, matched against
            /// `decoder.archivedClassNames` before any probing.
            package var archivedClass: String? = nil
            /// Whether the class is matched by its full name: another case's class has the
            /// same name once module prefixes are dropped.
            package var matchesFullName = false
        }
        package let name: SwiftIdentifier
        package let usedAt: Place
        package var cases: [Case]
        package var isIndirect = false
        package var isPlain = false
    }

    package enum RootShape {
        /// `typealias Root = T`, decoded from top-level key `key`.
        case alias(type: SwiftType, key: String)
        /// `struct Root`, declared among ``composites``.
        case composite(key: String?)
        /// `$top` is empty.
        case empty
    }

    package let rootName: SwiftIdentifier
    /// `enum Namespace { … }` around every declaration, or nil.
    package let namespace: SwiftIdentifier?
    package var root: RootShape = .empty
    package var composites: [Composite] = []
    package var unions: [Union] = []
    package var usesUnknown = false
    package static let unknownName = SwiftIdentifier(fixed: "UnknownValue")

    /// The cycle of types each type is on (``decideTwoPhase()``).
    var cycleComponents: [SwiftIdentifier: Int] = [:]
    /// The generated type of each archived class, by the id of its `$classname` in
    /// ``nameIDs`` (a long class name named by many properties is hashed once).
    private var classNames: [Int: SwiftIdentifier] = [:]
    /// Ids of class names and record keys.
    private var nameIDs = NameIDs()
    /// The bytes of class names and record keys hashed so far: linear in the archive.
    var hashedNameBytes: Int { nameIDs.hashedBytes }
    var schema: ArchiveSchema
    private var taken = NameTable()
    /// Records and unions named so far, by ``structuralKey(_:)``.
    private var structuralNames: [[Int]: SwiftIdentifier] = [:]
    private var valueIDs: [FoundationType: Int] = [:]
    /// Records and unions named but not yet declared.
    private var pending: [(InferredType, SwiftIdentifier, Place)] = []

    package init(schema: ArchiveSchema, rootName: SwiftIdentifier, namespace: SwiftIdentifier? = nil) {
        self.schema = schema
        self.rootName = rootName
        self.namespace = namespace
        taken.insert(rootName)
        if let namespace { taken.insert(namespace) }
        for className in schema.classes.keys.sorted() {
            classNames[nameIDs.id(className)] = taken.unique(SwiftNaming.typeName(forClass: className))
        }
        planRoot()
        let byName = classNames.sorted { $0.value < $1.value }
        for (classID, _) in byName {
            guard let classSchema = schema.classes[nameIDs[classID]] else { continue }
            composites.append(composite(for: classSchema))
        }
        var next = 0
        while next < pending.count {
            let (type, name, usedAt) = pending[next]
            next += 1
            declare(type, name: name, usedAt: usedAt)
        }
        pending = []
        decideTwoPhase()
        decideWeakEdges()
        decideBackEdges()
        decideIdentity()
        decidePlainness()
        composites.sort { $0.name < $1.name }
        unions.sort { $0.name < $1.name }
    }

    // MARK: - Root

    private mutating func planRoot() {
        let top = schema.top
        if let entry = schema.rootEntry {
            if case .record(let fields) = entry.type.unwrapped, !entry.type.isOptional {
                composites.append(Composite(name: rootName, origin: .record(usedAt: .topLevel(key: entry.key)),
                                            properties: properties(of: fields, owner: rootName), isClass: false))
                structuralNames[structuralKey(entry.type)] = rootName
                root = .composite(key: entry.key)
            } else {
                root = .alias(type: spell(entry.type, context: rootName.name, place: .topLevel(key: entry.key)), key: entry.key)
            }
            return
        }
        guard !top.isEmpty else { return }
        // Several top-level keys and no `root`: a struct of them. Foundation escapes a key
        // that starts with `$` by doubling it, so `$$0` is the key `$0`.
        var storedKeys: [String: String] = [:]
        let fields = top.map { entry in
            let key = entry.key.hasPrefix("$$") ? String(entry.key.dropFirst()) : entry.key
            storedKeys[key] = entry.key
            return InferredType.RecordField(key: key, type: entry.type.unwrapped, isOptional: entry.type.isOptional)
        }
        composites.append(Composite(name: rootName, origin: .topLevel(storedKeys: storedKeys),
                                    properties: properties(of: fields, owner: rootName, sortedByKey: true), isClass: false))
        root = .composite(key: nil)
    }

    // MARK: - Composites

    private mutating func composite(for classSchema: ClassSchema) -> Composite {
        let name = classNames[nameIDs.id(classSchema.name)] ?? Self.unknownName
        if classSchema.isList {
            let items = classSchema.fields[ClassSchema.listItemsKey]?.type ?? .unknown
            let itemsName = SwiftIdentifier(fixed: "items")
            let property = Composite.Property(name: itemsName, key: ClassSchema.listItemsKey,
                                              type: spell(.array(items), context: name.name + "Item", place: .member(owner: name, name: itemsName)),
                                              isOptional: false)
            return Composite(name: name, origin: .list(name: classSchema.name, instances: classSchema.instanceCount),
                             properties: [property], isClass: true)
        }
        let fields = classSchema.fields.keys.map { key in
            let type = classSchema.propertyType(key)
            return InferredType.RecordField(key: key, type: type.unwrapped, isOptional: type.isOptional)
        }
        return Composite(
            name: name,
            origin: .archivedClass(name: classSchema.name, superclasses: Array(classSchema.chain.dropFirst()),
                                   instances: classSchema.instanceCount),
            properties: properties(of: fields, owner: name), isClass: classSchema.needsIdentity)
    }

    /// Properties named from keys, their types spelled; sorted by name, or by key.
    private mutating func properties(of fields: [InferredType.RecordField], owner: SwiftIdentifier, sortedByKey: Bool = false) -> [Composite.Property] {
        var names = NameTable()
        var named: [(name: SwiftIdentifier, field: InferredType.RecordField)] = []
        for field in fields.sorted(by: { SwiftNaming.naturalLess($0.key, $1.key) }) {
            named.append((names.unique(SwiftNaming.propertyName(forKey: field.key)), field))
        }
        if !sortedByKey { named.sort { $0.name < $1.name } }
        return named.map { entry in
            let context = owner.name + SwiftNaming.upperFirst(entry.name.name)
            return Composite.Property(name: entry.name, key: entry.field.key,
                                      type: spell(entry.field.type, context: context, place: .member(owner: owner, name: entry.name)),
                                      isOptional: entry.field.isOptional)
        }
    }

    // MARK: - Spelling types

    /// The Swift type for `type`; records and enums met for the first time are named
    /// after `context` (the owner and property) and queued for declaration.
    private mutating func spell(_ type: InferredType, context: String, place: Place) -> SwiftType {
        switch type {
        case .unknown:
            usesUnknown = true
            return .declared(Self.unknownName)
        case .value(let foundation): return .foundation(foundation)
        case .object(let className):
            if let name = classNames[nameIDs.id(className)] { return .declared(name) }
            usesUnknown = true
            return .declared(Self.unknownName)
        case .array(let element): return .array(spell(element, context: context + "Element", place: place))
        case .set(let element):
            let spelled = spell(element, context: context + "Element", place: place)
            return isHashable(element) ? .set(spelled) : .array(spelled)
        case .dictionary(let key, let value):
            let keyType = key == .unknown ? .foundation(.string) : spell(key, context: context + "Key", place: place)
            return .dictionary(key: keyType, value: spell(value, context: context + "Value", place: place))
        case .optional(let wrapped): return .optional(spell(wrapped, context: context, place: place))
        case .record, .oneOf:
            let key = structuralKey(type)
            if let known = structuralNames[key] { return .declared(known) }
            let name = taken.unique(SwiftNaming.typeName(composed: context))
            structuralNames[key] = name
            pending.append((type, name, place))
            return .declared(name)
        }
    }

    private mutating func declare(_ type: InferredType, name: SwiftIdentifier, usedAt: Place) {
        switch type {
        case .record(let fields):
            composites.append(Composite(name: name, origin: .record(usedAt: usedAt),
                                        properties: properties(of: fields, owner: name), isClass: false))
        case .oneOf(let members):
            var caseNames = NameTable()
            let ordered = members.sorted { tryOrder($0) < tryOrder($1) }
            var cases: [Union.Case] = []
            var shortNames: [String: Int] = [:]
            for member in ordered {
                if case .object(let className) = member { shortNames[Self.shortName(className), default: 0] += 1 }
            }
            for member in ordered {
                let base = baseCaseName(member)
                let caseName = caseNames.unique(base)
                let spelled = spell(member, context: name.name + SwiftNaming.upperFirst(base.name), place: .member(owner: name, name: caseName))
                var item = Union.Case(name: caseName, type: spelled)
                if case .object(let className) = member {
                    item.archivedClass = className
                    item.matchesFullName = shortNames[Self.shortName(className), default: 0] > 1
                }
                cases.append(item)
            }
            unions.append(Union(name: name, usedAt: usedAt, cases: cases))
        default:
            break
        }
    }

    /// A class name without its module prefix: `MyApp.Note` → `Note`.
    package static func shortName(_ className: String) -> String {
        String(className.split(separator: ".").last ?? Substring(className))
    }

    private mutating func baseCaseName(_ type: InferredType) -> SwiftIdentifier {
        switch type {
        case .value(let foundation): return SwiftNaming.caseName(forType: foundation.baseName)
        case .object(let className): return SwiftNaming.caseName(forType: classNames[nameIDs.id(className)]?.name ?? "object")
        case .array: return SwiftIdentifier(fixed: "array")
        case .set: return SwiftIdentifier(fixed: "set")
        case .dictionary: return SwiftIdentifier(fixed: "dictionary")
        case .record: return SwiftIdentifier(fixed: "record")
        default: return SwiftIdentifier(fixed: "value")
        }
    }

    /// The order in which an enum tries its cases: objects with the most required
    /// properties first, then values whose storage no later case would also read.
    private func tryOrder(_ type: InferredType) -> String {
        switch type {
        case .object(let className):
            let required = schema.classes[className].map { s in s.fields.keys.filter { !s.propertyType($0).isOptional }.count } ?? 0
            return "0" + String(1_000_000 - min(required, 999_999)) + className
        case .record(let fields):
            return "1" + String(1_000_000 - min(fields.filter { !$0.isOptional }.count, 999_999))
        case .dictionary: return "2"
        case .array, .set: return "3" + type.sortKey
        case .value(let foundation):
            switch foundation {
            case .string: return "5"
            case .url, .uuid: return "6" + foundation.spelling
            case .int, .uint64: return "7" + foundation.spelling
            case .double: return "8"
            case .bool: return "9"
            case .decimal: return "A"
            default: return "4" + foundation.spelling  // Foundation objects: Date, Data, IndexSet…
            }
        default: return "B" + type.sortKey
        }
    }

    /// `type` as numbers, equal exactly when the types are equal, with class names and keys
    /// as ids: a long name in a type used at many places is not hashed at each.
    private mutating func structuralKey(_ type: InferredType) -> [Int] {
        var key: [Int] = []
        var stack = [type]
        while let next = stack.popLast() {
            switch next {
            case .unknown: key.append(0)
            case .value(let foundation):
                let id = valueIDs[foundation, default: valueIDs.count]
                valueIDs[foundation] = id
                key += [1, id]
            case .object(let name): key += [2, nameIDs.id(name)]
            case .array(let element): key.append(3); stack.append(element)
            case .set(let element): key.append(4); stack.append(element)
            case .dictionary(let keyType, let value): key.append(5); stack += [value, keyType]
            case .optional(let wrapped): key.append(6); stack.append(wrapped)
            case .record(let fields):
                key += [7, fields.count]
                for field in fields { key += [nameIDs.id(field.key), field.isOptional ? 1 : 0] }
                stack += fields.reversed().map(\.type)
            case .oneOf(let members):
                key += [8, members.count]
                stack += members.reversed()
            }
        }
        return key
    }

    static let plainValueTypes: Set<FoundationType> = [
        .bool, .int, .uint64, .double, .string, .data, .date, .url, .uuid, .decimal, .indexSet, .indexPath, .timeZone, .locale,
    ]

    /// Whether values of `type` can be set elements (before any type is declared).
    private func isHashable(_ type: InferredType) -> Bool {
        switch type {
        case .unknown: return true
        case .value(let foundation): return Self.plainValueTypes.contains(foundation)
        case .object: return false
        case .array(let inner), .set(let inner), .optional(let inner): return isHashable(inner)
        case .dictionary(let key, let value): return isHashable(key) && isHashable(value)
        case .record(let fields): return fields.allSatisfy { isHashable($0.type) }
        case .oneOf(let members): return members.allSatisfy(isHashable)
        }
    }
}
