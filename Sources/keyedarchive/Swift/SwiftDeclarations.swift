/// The declarations `keyedarchive swift` writes, planned from an ``ArchiveSchema``: names
/// chosen, types spelled, struct or class decided.
struct SwiftDeclarations {
    /// A struct or final class: an archived class, a record (NSDictionary of mixed
    /// values) or the top-level values.
    struct Composite {
        enum Origin {
            case archivedClass(name: String, superclasses: [String], instances: Int)
            case record(usedAt: String)
            /// `$top` without a `root` key: each property decodes under its stored key
            /// (by key: `$0` is stored `$$0` when Foundation escaped it).
            case topLevel(storedKeys: [String: String])
        }
        struct Property {
            let name: String
            let key: String
            let type: String
            let isOptional: Bool
        }
        let name: String
        let origin: Origin
        var properties: [Property]
        /// Whether the archive shares or cycles through its objects (else a class only
        /// because the type holds itself).
        var isClass: Bool
        var holdsItself = false
        var isPlain = false
    }

    /// An enum with a case per kind of value found at one place.
    struct Union {
        struct Case {
            let name: String
            let type: String
            /// The `$classname` of an archived-class case, matched against
            /// `decoder.archivedClassNames` before any probing.
            var archivedClass: String? = nil
        }
        let name: String
        let usedAt: String
        var cases: [Case]
        var isIndirect = false
        var isPlain = false
    }

    enum RootShape {
        /// `typealias Root = T`, decoded from top-level key `key`.
        case alias(type: String, key: String)
        /// `struct Root`, declared among ``composites``.
        case composite(key: String?)
        /// `$top` is empty.
        case empty
    }

    let rootName: String
    var root: RootShape = .empty
    var composites: [Composite] = []
    var unions: [Union] = []
    var usesUnknown = false

    private var classNames: [String: String] = [:]
    private var schema: ArchiveSchema
    private var taken: Set<String> = []
    private var structuralNames: [InferredType: String] = [:]
    /// Records and unions named but not yet declared.
    private var pending: [(InferredType, String, String)] = []

    init(schema: ArchiveSchema, rootName: String) {
        self.schema = schema
        self.rootName = rootName
        taken.insert(rootName)
        for className in schema.classes.keys.sorted() {
            classNames[className] = SwiftNaming.unique(SwiftNaming.typeName(forClass: className), in: &taken)
        }
        planRoot()
        for className in schema.classes.keys.sorted(by: { (classNames[$0] ?? $0) < (classNames[$1] ?? $1) }) {
            guard let classSchema = schema.classes[className] else { continue }
            composites.append(composite(for: classSchema))
        }
        while !pending.isEmpty {
            let (type, name, usedAt) = pending.removeFirst()
            declare(type, name: name, usedAt: usedAt)
        }
        decideIdentity()
        decidePlainness()
        composites.sort { $0.name < $1.name }
        unions.sort { $0.name < $1.name }
    }

    // MARK: - Root

    private mutating func planRoot() {
        let top = schema.top
        if let entry = top.first(where: { $0.key == "root" }) ?? (top.count == 1 ? top.first : nil) {
            if case .record(let fields) = entry.type.unwrapped, !entry.type.isOptional {
                composites.append(Composite(name: rootName, origin: .record(usedAt: "`$top.\(entry.key)`"),
                                            properties: properties(of: fields, owner: rootName), isClass: false))
                structuralNames[entry.type] = rootName
                root = .composite(key: entry.key)
            } else {
                root = .alias(type: spell(entry.type, context: rootName, place: "the top-level value"), key: entry.key)
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
        let name = classNames[classSchema.name] ?? classSchema.name
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
    private mutating func properties(of fields: [InferredType.RecordField], owner: String, sortedByKey: Bool = false) -> [Composite.Property] {
        var names: Set<String> = []
        var named: [(name: String, field: InferredType.RecordField)] = []
        for field in fields.sorted(by: { SwiftNaming.naturalLess($0.key, $1.key) }) {
            named.append((SwiftNaming.unique(SwiftNaming.propertyName(forKey: field.key), in: &names), field))
        }
        if !sortedByKey { named.sort { SwiftNaming.naturalLess($0.name, $1.name) } }
        return named.map { entry in
            let context = owner + SwiftNaming.upperFirst(entry.name)
            return Composite.Property(name: entry.name, key: entry.field.key,
                                      type: spell(entry.field.type, context: context, place: "`\(owner).\(entry.name)`"), isOptional: entry.field.isOptional)
        }
    }

    // MARK: - Spelling types

    /// The Swift spelling of `type`; records and enums met for the first time are named
    /// after `context` (the owner and property) and queued for declaration.
    private mutating func spell(_ type: InferredType, context: String, place: String) -> String {
        switch type {
        case .unknown:
            usesUnknown = true
            return "UnknownValue"
        case .value(let name): return name
        case .object(let className): return classNames[className] ?? "UnknownValue"
        case .array(let element): return "[\(spell(element, context: context + "Element", place: place))]"
        case .set(let element):
            let spelled = spell(element, context: context + "Element", place: place)
            return isHashable(element) ? "Set<\(spelled)>" : "[\(spelled)]"
        case .dictionary(let key, let value):
            let keyText = key == .unknown ? "String" : spell(key, context: context + "Key", place: place)
            return "[\(keyText): \(spell(value, context: context + "Value", place: place))]"
        case .optional(let wrapped): return spell(wrapped, context: context, place: place) + "?"
        case .record, .oneOf:
            if let known = structuralNames[type] { return known }
            let name = SwiftNaming.unique(context, in: &taken)
            structuralNames[type] = name
            pending.append((type, name, place))
            return name
        }
    }

    private mutating func declare(_ type: InferredType, name: String, usedAt: String) {
        switch type {
        case .record(let fields):
            composites.append(Composite(name: name, origin: .record(usedAt: usedAt),
                                        properties: properties(of: fields, owner: name), isClass: false))
        case .oneOf(let members):
            var caseNames: Set<String> = []
            let ordered = members.sorted { tryOrder($0) < tryOrder($1) }
            var cases: [Union.Case] = []
            for member in ordered {
                let spelled = spell(member, context: name + SwiftNaming.upperFirst(baseCaseName(member)), place: "`\(name).\(baseCaseName(member))`")
                var archivedClass: String?
                if case .object(let className) = member { archivedClass = className }
                cases.append(Union.Case(name: SwiftNaming.unique(baseCaseName(member), in: &caseNames), type: spelled,
                                        archivedClass: archivedClass))
            }
            unions.append(Union(name: name, usedAt: usedAt, cases: cases))
        default:
            break
        }
    }

    private func baseCaseName(_ type: InferredType) -> String {
        switch type {
        case .value(let name): return SwiftNaming.caseName(forType: String(name.prefix(while: { $0 != "<" })))
        case .object(let className): return SwiftNaming.caseName(forType: classNames[className] ?? "object")
        case .array: return "array"
        case .set: return "set"
        case .dictionary: return "dictionary"
        case .record: return "record"
        default: return "value"
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
        case .value(let name):
            switch name {
            case "String": return "5"
            case "URL", "UUID": return "6" + name
            case "Int", "UInt64": return "7" + name
            case "Double": return "8"
            case "Bool": return "9"
            case "Decimal": return "A"
            default: return "4" + name  // Foundation objects: Date, Data, IndexSet…
            }
        default: return "B" + type.sortKey
        }
    }

    // MARK: - Struct or class, conformances

    /// Types that contain themselves without a collection in between cannot be structs
    /// (or plain enums): they become final classes (or `indirect` enums).
    private mutating func decideIdentity() {
        var edges: [String: Set<String>] = [:]
        for composite in composites {
            edges[composite.name] = Set(composite.properties.compactMap { directTarget($0.type) })
        }
        for union in unions {
            edges[union.name] = Set(union.cases.compactMap { directTarget($0.type) })
        }
        // Peel off nodes without outgoing edges, then nodes without incoming ones (each
        // once, by counting): what remains is on (or between) cycles.
        var remaining = Set(edges.keys)
        var incoming: [String: [String]] = [:]
        for (node, targets) in edges {
            for target in targets where edges[target] != nil { incoming[target, default: []].append(node) }
        }
        var outDegree = edges.mapValues { $0.filter { edges[$0] != nil }.count }
        var queue = outDegree.filter { $0.value == 0 }.map(\.key)
        while let node = queue.popLast() {
            remaining.remove(node)
            for source in incoming[node] ?? [] {
                outDegree[source, default: 1] -= 1
                if outDegree[source] == 0 { queue.append(source) }
            }
        }
        var inDegree: [String: Int] = [:]
        for node in remaining { inDegree[node] = (incoming[node] ?? []).filter { remaining.contains($0) }.count }
        queue = inDegree.filter { $0.value == 0 }.map(\.key)
        while let node = queue.popLast() {
            remaining.remove(node)
            for target in edges[node] ?? [] where remaining.contains(target) {
                inDegree[target, default: 1] -= 1
                if inDegree[target] == 0 { queue.append(target) }
            }
        }
        for index in composites.indices where remaining.contains(composites[index].name) {
            composites[index].holdsItself = true
        }
        for index in unions.indices where remaining.contains(unions[index].name) {
            unions[index].isIndirect = true
        }
    }

    /// The declared type a property holds directly (no collection in between).
    private func directTarget(_ spelled: String) -> String? {
        let name = spelled.hasSuffix("?") ? String(spelled.dropLast()) : spelled
        guard !name.hasPrefix("["), !name.contains("<") else { return nil }
        return name
    }

    /// Plain types (structs and enums of plain values) are `Hashable` and `Sendable`;
    /// classes, and anything holding a class or a Foundation type that is not both, are not.
    private mutating func decidePlainness() {
        var plain: [String: Bool] = [:]
        for composite in composites { plain[composite.name] = !composite.isClass && !composite.holdsItself }
        for union in unions { plain[union.name] = true }
        if usesUnknown { plain["UnknownValue"] = true }
        var changed = true
        while changed {
            changed = false
            for composite in composites where plain[composite.name] == true {
                if !composite.properties.allSatisfy({ isPlain($0.type, plain) }) {
                    plain[composite.name] = false
                    changed = true
                }
            }
            for union in unions where plain[union.name] == true {
                if !union.cases.allSatisfy({ isPlain($0.type, plain) }) {
                    plain[union.name] = false
                    changed = true
                }
            }
        }
        for index in composites.indices { composites[index].isPlain = plain[composites[index].name] == true }
        for index in unions.indices { unions[index].isPlain = plain[unions[index].name] == true }
    }

    static let plainValueTypes: Set<String> = [
        "Bool", "Int", "UInt64", "Double", "String", "Data", "Date", "URL", "UUID", "Decimal", "IndexSet", "IndexPath",
        "TimeZone", "Locale",
    ]

    /// Whether a spelled type is plain, given what is known of the declared ones.
    private func isPlain(_ spelled: String, _ declared: [String: Bool]) -> Bool {
        var text = Substring(spelled)
        if text.hasSuffix("?") { text = text.dropLast() }
        if text.hasPrefix("Set<"), text.hasSuffix(">") { return isPlain(String(text.dropFirst(4).dropLast()), declared) }
        if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = text.dropFirst().dropLast()
            // `[K: V]`: the first ": " at bracket depth 0 splits key and value.
            var depth = 0
            for index in inner.indices {
                switch inner[index] {
                case "[", "<": depth += 1
                case "]", ">": depth -= 1
                case ":" where depth == 0:
                    return isPlain(String(inner[..<index]), declared)
                        && isPlain(String(inner[inner.index(after: index)...].drop(while: { $0 == " " })), declared)
                default: break
                }
            }
            return isPlain(String(inner), declared)
        }
        let name = String(text)
        return Self.plainValueTypes.contains(name) || declared[name] == true
    }

    /// Whether values of `type` can be set elements (before any type is declared).
    private func isHashable(_ type: InferredType) -> Bool {
        switch type {
        case .unknown: return true
        case .value(let name): return Self.plainValueTypes.contains(name)
        case .object: return false
        case .array(let inner), .set(let inner), .optional(let inner): return isHashable(inner)
        case .dictionary(let key, let value): return isHashable(key) && isHashable(value)
        case .record(let fields): return fields.allSatisfy { isHashable($0.type) }
        case .oneOf(let members): return members.allSatisfy(isHashable)
        }
    }
}
