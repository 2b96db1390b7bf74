import KeyedArchive

/// The keys through which the generated code meets an object still being filled, found by
/// walking the archive in the order the generated code decodes it: the back edges each
/// two-phase class must declare (`archiveBackEdges`), as the decoder accepts no other.
///
/// Decoding goes depth first and fills each object once, reading a generated class's
/// properties in the order of ``SwiftDeclarations/Composite/properties`` (the order its
/// `decodeFields(from:)` and `CodingKeys` are written in) and a collection's elements in
/// archive order. Which references reach an object still being filled depends on that
/// order (`NSNextResponder` read before `NSSubviews` reaches a view before its owner lists
/// it), so this walk takes the same order rather than the schema walk's. Each object is
/// filled once and each reference followed once: linear in the archive.
struct DecodeOrderWalk {
    /// A back edge: a property of an archived class, by `$classname` and key.
    typealias Edge = WeakEdgeProof.Edge

    let view: KeyedArchiveView
    /// The generated-class and list objects, by index (``ArchiveSchema``).
    let generatedObjects: Set<Int>
    let listObjects: Set<Int>
    /// Nesting beyond which the decoder refuses the archive: the walk goes no deeper.
    let maxDepth: Int

    private var names = NameIDs()
    /// The position of each key in its class's decode order, by the ids of class name and key.
    private var ranks: [Int: [Int: Int]] = [:]
    /// Per object: 0 not met, 1 being filled, 2 filled.
    private var state: [UInt8]
    /// The generated-class or list objects being filled, innermost last: the id of the
    /// class name (-1 for a list, whose elements are its declared back edge) and the key read.
    private var frames: [(classID: Int, key: String)] = []
    private(set) var closing: Set<Edge> = []

    /// `order`: the properties' keys of each archived class, in the order they are decoded.
    init(schema: ArchiveSchema, order: [String: [String]], maxDepth: Int = ArchiveDecoder.Limits().maxDepth) {
        view = schema.view
        generatedObjects = schema.generatedObjects
        listObjects = schema.listObjects
        self.maxDepth = maxDepth
        state = [UInt8](repeating: 0, count: schema.view.objects.count)
        for (className, keys) in order {
            var rank: [Int: Int] = [:]
            for (position, key) in keys.enumerated() { rank[names.id(key)] = position }
            ranks[names.id(className)] = rank
        }
    }

    /// Walks `roots` in the order they are decoded; ``closing`` then holds the back edges met.
    mutating func walk(_ roots: [ArchivedValue]) {
        for root in roots { visit(root, depth: 0) }
    }

    private mutating func visit(_ value: ArchivedValue, depth: Int) {
        guard depth <= maxDepth else { return }  // the decoder refuses it
        switch value {
        case .array(let items):
            for item in items { visit(item, depth: depth + 1) }
        case .dictionary(let fields):
            for field in fields { visit(field.value, depth: depth + 1) }
        case .reference(let index):
            object(index, depth: depth)
        default:
            break
        }
    }

    private mutating func object(_ index: Int, depth: Int) {
        guard index >= 0, index < state.count else { return }
        switch state[index] {
        case 2: return
        case 1:
            // Reached while being filled: a back edge of the innermost object being filled.
            guard generatedObjects.contains(index) || listObjects.contains(index),
                  let frame = frames.last, frame.classID >= 0 else { return }
            closing.insert(Edge(className: names[frame.classID], key: frame.key))
            return
        default: break
        }
        state[index] = 1
        defer { state[index] = 2 }
        let object = view.objects[index]
        if let plain = object.plainValue {
            visit(plain, depth: depth + 1)
        } else if generatedObjects.contains(index), let className = object.className {
            let classID = names.id(className)
            let rank = ranks[classID] ?? [:]
            var fields: [(rank: Int, position: Int)] = []
            for (position, field) in object.fields.enumerated() {
                fields.append((rank[names.id(field.key)] ?? Int.max, position))
            }
            fields.sort { ($0.rank, $0.position) < ($1.rank, $1.position) }
            frames.append((classID, ""))
            defer { frames.removeLast() }
            for entry in fields {
                let field = object.fields[entry.position]
                frames[frames.count - 1].key = field.key
                visit(field.value, depth: depth + 1)
            }
        } else {
            let isList = listObjects.contains(index)
            if isList { frames.append((-1, "")) }
            defer { if isList { frames.removeLast() } }
            switch view.foundationValue(of: object) {
            case .array(let items)?, .orderedSet(let items)?, .set(let items)?:
                for item in items { visit(item, depth: depth + 1) }
            case .dictionary(let keys, let values)?:
                for (key, value) in zip(keys, values) {
                    visit(key, depth: depth + 1)
                    visit(value, depth: depth + 1)
                }
            default:
                break  // a Foundation value: its fields hold no generated object
            }
        }
    }
}
