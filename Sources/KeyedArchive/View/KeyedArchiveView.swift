import Foundation

/// An untyped view of any keyed archive, for archives whose types you do not have.
///
/// Opening one validates the whole object table: every UID in range, every `$class`
/// pointing at a class entry with a `$classname`. The view is a graph (objects refer to
/// each other by index); ``render(options:)`` prints it as a tree in which a shared
/// object is shown once and then referred to, and a cycle is marked instead of followed.
///
/// ```swift
/// let view = try KeyedArchiveView(data: data)
/// print(view.topLevelKeys)                 // ["root"]
/// if case .reference(let index) = view.topLevel[0].value {
///     print(view.objects[index].className ?? "plain value")
/// }
/// print(view.render())
/// ```
public struct KeyedArchiveView: Sendable, CustomStringConvertible {
    /// A `$top` entry.
    public struct TopLevelEntry: Sendable, Hashable {
        /// The `$top` key (`root` for a single value).
        public var key: String
        /// Its value: a reference into ``KeyedArchiveView/objects``, or `.null`.
        public var value: ArchivedValue
    }

    /// The `$top` entries, in file order.
    public let topLevel: [TopLevelEntry]
    /// Every entry of `$objects`, indexed by UID (index 0 is `$null`).
    public let objects: [ArchivedObject]

    /// `$archiver`: `NSKeyedArchiver`, or the name of a subclass of it that keeps its
    /// layout (a name ending in `KeyedArchiver`, such as SceneKit's `SCNKeyedArchiver`);
    /// empty in the tool's view of a plain property list.
    ///
    /// ```swift
    /// let view = try KeyedArchiveView(data: data)
    /// if view.archiverName != "NSKeyedArchiver" { print("written by \(view.archiverName)") }
    /// ```
    public let archiverName: String

    /// The top-level keys, in file order.
    public var topLevelKeys: [String] { topLevel.map(\.key) }

    /// The value under a top-level key.
    public func value(forKey key: String) -> ArchivedValue? {
        topLevel.first(where: { $0.key == key })?.value
    }

    /// The limits the view was opened with; rendering uses the same ones.
    public let limits: ArchiveDecoder.Limits
    /// The size in bytes of the archive, which sets the default visit budget.
    public let inputSize: Int
    /// The work opening the view did (for tests of the accounting).
    let openingWork: ArchiveWorkBudget

    /// The visits one walk over this document may make (``ArchiveDecoder/Limits``):
    /// opening the view, and each rendering, stay within it.
    ///
    /// ```swift
    /// let view = try KeyedArchiveView(data: data, limits: .init(maxObjectVisits: 10_000))
    /// print(view.visitBudget)   // 10000
    /// ```
    public var visitBudget: Int { limits.visitBudget(forInputSize: inputSize) }

    /// Opens and validates an archive (binary or XML).
    ///
    /// - Throws: ``PropertyListError`` when the data is not a property list,
    ///   ``KeyedArchiveError`` (with object index and key) when it is not a sound archive.
    public init(data: Data, maxDepth: Int = 512) throws {
        try self.init(data: data, limits: ArchiveDecoder.Limits(maxDepth: maxDepth))
    }

    /// Opens and validates an archive (binary or XML) under `limits`, the limits of
    /// ``ArchiveDecoder``: every object's inline values are read through one depth limit,
    /// one cycle check and one visit budget for the whole document, so a hostile graph
    /// throws in time linear in its size.
    ///
    /// ```swift
    /// let view = try KeyedArchiveView(data: data, limits: .init(maxDepth: 64))
    /// ```
    ///
    /// - Throws: ``PropertyListError`` when the data is not a property list,
    ///   ``KeyedArchiveError`` (with object index and key, or naming the limit reached)
    ///   when it is not a sound archive.
    public init(data: Data, limits: ArchiveDecoder.Limits) throws {
        self = try ArchiveDocument.read(data, maxDepth: limits.maxDepth) { try KeyedArchiveView(document: $0, inputSize: data.count, limits: limits) }
    }

    /// Opens the archive in `bytes`, which the caller keeps valid during the call (a
    /// memory-mapped file's, say): the view copies out what it keeps.
    package init(bytes: UnsafeRawBufferPointer, limits: ArchiveDecoder.Limits) throws {
        self = try PropertyListInput.read(bytes, maxDepth: limits.maxDepth) {
            try KeyedArchiveView(document: ArchiveDocument(plist: $0), inputSize: bytes.count, limits: limits)
        }
    }

    /// Reads every object of `document`; the view keeps no reference to its bytes.
    private init(document: ArchiveDocument, inputSize: Int, limits: ArchiveDecoder.Limits) throws {
        var budget = ArchiveWorkBudget(limits: limits, inputSize: inputSize)
        let count = document.objectCount
        var objects: [ArchivedObject] = []
        objects.reserveCapacity(count)
        var classes = ArchivedObject.ClassCache()
        var subtrees = BoundedTreeReader<ArchivedValueBuilder>.Cache()
        // Entries that are the same property-list object are read once and shared (fields
        // and all), so many entries naming one object cost one unit each, not its size.
        var byRef: [Int: Int] = [:]
        for uid in 0..<count {
            let ref = try document.objectRef(uid)
            if let first = byRef[ref] {
                guard budget.charge() else { throw budget.exhausted(objectIndex: uid) }
                objects.append(ArchivedObject(objects[first], index: uid))
                continue
            }
            let builder = ArchivedValueBuilder(plist: document.plist, objectCount: count, objectIndex: uid)
            let reader = BoundedTreeReader(plist: document.plist, builder: builder, objectIndex: uid)
            let tree = try reader.read(ref, budget: &budget, cache: &subtrees)
            objects.append(try ArchivedObject(index: uid, tree: tree, document: document, classes: &classes,
                                              leaves: &subtrees.leaves, budget: &budget))
            byRef[ref] = uid
        }
        self.objects = objects
        self.limits = limits
        archiverName = document.archiverName
        self.inputSize = inputSize
        // Values under `$top` are usually references, but an archiver may write numbers,
        // strings or containers there inline (Foundation does for `encode(_: Int, forKey:)`
        // on the archiver itself): they are read as inline values of no object.
        let topBuilder = ArchivedValueBuilder(plist: document.plist, objectCount: count, objectIndex: nil)
        let topReader = BoundedTreeReader(plist: document.plist, builder: topBuilder, objectIndex: nil)
        var entries: [TopLevelEntry] = []
        entries.reserveCapacity(document.topEntries.count)
        for entry in document.topEntries {
            entries.append(TopLevelEntry(key: entry.key,
                                         value: try topReader.read(entry.ref, key: entry.key, budget: &budget, cache: &subtrees)))
        }
        openingWork = budget
        topLevel = entries
    }

    /// A view of a plain property list (one without the keyed-archive envelope), for the
    /// tool's `dump` and `json`: no objects, and the whole tree under the top-level key
    /// `plist`, read under `limits` (depth, cycles and one visit budget).
    package init(plainPropertyList data: Data, limits: ArchiveDecoder.Limits) throws {
        let tree = try PropertyListValue(propertyList: data, limits: limits)
        objects = []
        // Read by PropertyListValue's own budget; the view holds no objects to charge.
        openingWork = ArchiveWorkBudget(limits: limits, inputSize: data.count)
        self.limits = limits
        archiverName = ""
        inputSize = data.count
        topLevel = [TopLevelEntry(key: "plist", value: NestedPropertyList.plain(tree))]
    }

    /// The rendered tree (``render(options:)`` with default options).
    public var description: String { render() }
}

/// A value inside a keyed archive, with references left as object indices.
public indirect enum ArchivedValue: Sendable, Hashable {
    /// UID 0.
    case null
    /// A UID: the index of an object in ``KeyedArchiveView/objects``.
    case reference(Int)
    case string(String)
    case integer(Int64)
    case unsignedInteger(UInt64)
    /// An integer outside `Int64.min...UInt64.max` (a 16- or 32-byte integer).
    case wideInteger(PropertyListWideInteger)
    case real(Double)
    case bool(Bool)
    case data(Data)
    /// A property-list date. One whose time is NaN or infinite is no point in time (and
    /// Foundation traps printing such a `Date`): the view shows it as ``real(_:)``, its
    /// seconds since 2001-01-01.
    case date(Date)
    /// An inline array (such as `NS.objects`, a list of references).
    case array([ArchivedValue])
    /// An inline dictionary (rare: archives nest objects by reference).
    case dictionary([ArchivedField])

    /// A property-list date `seconds` after 2001-01-01: ``date(_:)``, or ``real(_:)`` when
    /// the time is NaN or infinite.
    init(propertyListDate seconds: Double) {
        self = Date(finiteSecondsSinceReferenceDate: seconds).map(ArchivedValue.date) ?? .real(seconds)
    }
}

/// A key and its value inside an archived object.
public struct ArchivedField: Sendable, Hashable {
    /// The field's key, unescaped (`$$x` is shown as `$x`).
    public var key: String
    /// Its value.
    public var value: ArchivedValue

    /// Creates a field.
    public init(key: String, value: ArchivedValue) {
        self.key = key
        self.value = value
    }
}

/// One entry of `$objects`: an object with a class and fields, a class entry, or a plain
/// value (string, number, data) stored directly.
public struct ArchivedObject: Sendable, Hashable {
    /// Its UID.
    public let index: Int
    /// `$classname` of its class, or `nil` for plain values and class entries.
    public let className: String?
    /// `$classes` of its class, most specific first.
    public let classes: [String]
    /// Its fields (without `$class`), keys unescaped; empty for plain values.
    public let fields: [ArchivedField]
    /// The value itself, for plain values (strings, numbers, data).
    public let plainValue: ArchivedValue?
    /// Whether this entry is a class entry (`{$classname, $classes}`).
    public let isClassEntry: Bool

    /// The value of field `key`.
    public subscript(key: String) -> ArchivedValue? {
        fields.first(where: { $0.key == key })?.value
    }

    /// Class entries already read while opening a view: `$classes` lists are read once.
    struct ClassCache {
        var entries: [Int: (name: String, classes: [String])] = [:]
    }

    /// `other` as entry `index` (an entry that is the same property-list object).
    init(_ other: ArchivedObject, index: Int) {
        self.index = index
        className = other.className
        classes = other.classes
        fields = other.fields
        plainValue = other.plainValue
        isClassEntry = other.isClassEntry
    }

    init(index: Int, tree: ArchivedValue, document: ArchiveDocument, classes cache: inout ClassCache,
         leaves: inout SharedLeafValues, budget: inout ArchiveWorkBudget) throws {
        self.index = index
        guard case .dictionary(let entries) = tree else {
            className = nil
            classes = []
            fields = []
            isClassEntry = false
            plainValue = tree
            return
        }
        plainValue = nil
        var classValue: ArchivedValue?, classNameValue: ArchivedValue?, classesValue: ArchivedValue?
        for entry in entries {
            switch entry.key {
            case "$class": if classValue == nil { classValue = entry.value }
            case "$classname": if classNameValue == nil { classNameValue = entry.value }
            case "$classes": if classesValue == nil { classesValue = entry.value }
            default: break
            }
        }
        if let classValue {
            guard case .reference(let classUID) = classValue else {
                throw KeyedArchiveError("$class is not a UID of a class entry", objectIndex: index, key: "$class")
            }
            let info: (name: String, classes: [String])
            if let known = cache.entries[classUID] {
                info = known
            } else {
                info = try document.classEntry(classUID, usedBy: index, leaves: &leaves, budget: &budget)
                cache.entries[classUID] = info
            }
            className = info.name
            classes = info.classes
            isClassEntry = false
            var fields: [ArchivedField] = []
            fields.reserveCapacity(entries.count)
            for entry in entries {
                guard let key = ArchiveKeyEscaping.unescape(entry.key) else { continue }
                // An escaped key (`$$x`) is a new string: charged as one.
                if key.utf8.count != entry.key.utf8.count, !budget.chargeMade(bytes: key.utf8.count) {
                    throw budget.exhausted(objectIndex: index, key: key)
                }
                fields.append(ArchivedField(key: key, value: entry.value))
            }
            self.fields = fields
        } else if case .string(let name)? = classNameValue {
            className = nil
            var names: [String] = []
            if case .array(let list)? = classesValue {
                for case .string(let n) in list { names.append(n) }
            }
            classes = names.isEmpty ? [name] : names
            fields = [ArchivedField(key: "$classname", value: .string(name))]
            isClassEntry = true
        } else {
            throw KeyedArchiveError("object has no $class (and is not a class entry)", objectIndex: index, key: "$class")
        }
    }
}

/// Builds ``ArchivedValue`` trees, checking every UID against the object table.
struct ArchivedValueBuilder: BoundedTreeBuilder {
    let plist: BinaryPropertyList
    let objectCount: Int
    /// The `$objects` index being read, for messages; nil for inline `$top` values.
    let objectIndex: Int?

    func leaf(_ object: BinaryPropertyList.Object, ref: Int, key: String?) throws -> ArchivedValue {
        switch object {
        case .uid(let uid):
            guard uid < UInt64(objectCount) else {
                throw KeyedArchiveError("UID \(uid) is out of range (\(objectCount) objects)", objectIndex: objectIndex, key: key)
            }
            return uid == 0 ? .null : .reference(Int(uid))
        case .asciiString(let range): return .string(plist.asciiString(range))
        case .utf16String(let range): return .string(try plist.utf16String(range, ref: ref))
        case .integer(let i): return .integer(i)
        case .unsignedInteger(let u): return .unsignedInteger(u)
        case .wideInteger(let w): return .wideInteger(w)
        case .real(let d): return .real(d)
        case .float(let f): return .real(Double(f))
        case .bool(let b): return .bool(b)
        case .data(let range): return .data(Data(plist.bytes[range]))
        case .date(let d): return ArchivedValue(propertyListDate: d)
        case .array, .dictionary: return .array([])  // not reached: the reader opens containers
        }
    }

    func array(_ items: [ArchivedValue]) -> ArchivedValue { .array(items) }

    func dictionary(keys: [String], values: [ArchivedValue]) -> ArchivedValue {
        .dictionary(zip(keys, values).map { ArchivedField(key: $0, value: $1) })
    }
}

