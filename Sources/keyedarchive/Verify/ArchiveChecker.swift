import Foundation
import KeyedArchive

/// The structural checks of `verify`, made on the raw property list so that every
/// problem is found and reported, not only the first.
///
/// The envelope (`$archiver`, `$version`, `$top`, `$objects`) comes first; then each
/// object: its `$class`, every UID in range, class entries well formed, and the fields
/// Foundation's own classes need (``checkFoundationFields(_:of:className:)``); then the
/// graph from `$top`: reachability and cycles (``checkGraph()``).
struct ArchiveChecker {
    private(set) var diagnostics: [Diagnostic] = []
    /// `$objects`, once the envelope has been read.
    private(set) var objects: [PropertyListValue] = []
    /// `$top`, as key and UID, for entries that are UIDs in range.
    private(set) var top: [(key: String, uid: Int)] = []
    /// The class name of each object that has a valid `$class`.
    private(set) var classNames: [Int: String] = [:]
    /// The `$classname` of each object that is a class entry (`nil` for the others),
    /// found once so that every lookup by UID costs O(1).
    private(set) var classEntryNames: [String?] = []
    /// How many references close a cycle (``checkGraph()``), listed or not.
    var cycleCount = 0

    mutating func report(_ severity: Diagnostic.Severity, object: Int? = nil, _ path: String, _ message: String,
                         isCycle: Bool = false) {
        diagnostics.append(Diagnostic(severity: severity, object: object, path: path, message: message, isCycle: isCycle))
    }

    /// Runs every check on a property list.
    mutating func check(_ root: PropertyListValue) {
        guard readEnvelope(root) else { return }
        classEntryNames = objects.map(Self.classEntryName)
        for index in objects.indices.dropFirst() { checkObject(index) }
        checkGraph()
    }

    // MARK: Envelope

    /// Reads `$objects` and `$top`, reporting what is wrong; `false` when the objects
    /// cannot be examined at all.
    private mutating func readEnvelope(_ root: PropertyListValue) -> Bool {
        guard case .dictionary = root else {
            report(.error, "", "the property list's root is a \(Self.kind(root)), not a dictionary, so it is not a keyed archive")
            return false
        }
        switch root["$archiver"] {
        case nil: report(.error, "$archiver", "missing")
        case .string("NSKeyedArchiver")?: break
        case .string(let name)? where ArchiverName.isKeyedArchiver(name):
            report(.note, "$archiver", "is '\(name)', a subclass of NSKeyedArchiver: read with NSKeyedArchiver's layout")
        case .string(let name)?: report(.error, "$archiver", "is '\(name)', expected \(ArchiverName.expectation)")
        case let value?: report(.error, "$archiver", "is a \(Self.kind(value)), expected the string 'NSKeyedArchiver'")
        }
        switch root["$version"] {
        case nil: report(.error, "$version", "missing")
        case .integer(100_000)?: break
        case let value?: report(.error, "$version", "is \(Self.describe(value)), expected 100000")
        }
        switch root["$objects"] {
        case nil:
            report(.error, "$objects", "missing")
        case .array(let list)? where list.isEmpty:
            report(.error, "$objects", "is empty (index 0 must be '$null')")
        case .array(let list)?:
            objects = list
            if list[0] != .string("$null") {
                report(.warning, "$objects[0]", "is \(Self.describe(list[0])), expected the string '$null'")
            }
        case let value?:
            report(.error, "$objects", "is a \(Self.kind(value)), expected an array")
        }
        readTop(root["$top"])
        return !objects.isEmpty
    }

    private mutating func readTop(_ value: PropertyListValue?) {
        guard let value else { return report(.error, "$top", "missing") }
        guard case .dictionary(let entries) = value else {
            return report(.error, "$top", "is a \(Self.kind(value)), expected a dictionary of top-level keys")
        }
        if entries.isEmpty { report(.warning, "$top", "has no top-level keys") }
        for entry in entries {
            // A value of any kind is sound here: `encodeInt(_:forKey:)` and its kin at the top
            // level store numbers and booleans inline, as in any object. Only UIDs lead on.
            guard case .uid(let uid) = entry.value else { continue }
            guard objects.isEmpty || uid < UInt64(objects.count) else {
                report(.error, "$top.\(entry.key)", "UID \(uid) is out of range (\(objects.count) objects)")
                continue
            }
            top.append((entry.key, Int(uid)))
        }
    }

    // MARK: Objects

    private mutating func checkObject(_ index: Int) {
        let object = objects[index]
        guard case .dictionary(let entries) = object else {
            if case .uid = object {
                report(.warning, object: index, "", "is a bare UID, which no archiver writes")
            }
            checkUIDs(in: object, object: index, path: "")
            return
        }
        if let classValue = object["$class"] {
            checkClassReference(classValue, of: index)
        } else if object["$classname"] != nil {
            checkClassEntry(object, index: index)
            return
        } else {
            report(.error, object: index, "$class", "missing: the object has no class (and is not a class entry)")
        }
        for entry in entries where entry.key != "$class" {
            checkUIDs(in: entry.value, object: index, path: entry.key)
        }
        if let name = classNames[index] {
            checkFoundationFields(object, of: index, className: name)
        }
    }

    private mutating func checkClassReference(_ value: PropertyListValue, of index: Int) {
        guard case .uid(let uid) = value else {
            return report(.error, object: index, "$class", "is a \(Self.kind(value)), expected the UID of a class entry")
        }
        guard uid > 0, uid < UInt64(objects.count) else {
            return report(.error, object: index, "$class", "UID \(uid) does not point at a class entry (\(objects.count) objects)")
        }
        guard let name = classEntryNames[Int(uid)] else {
            return report(.error, object: index, "$class", "points at object #\(uid), which is not a class entry with a $classname")
        }
        classNames[index] = name
    }

    private mutating func checkClassEntry(_ entry: PropertyListValue, index: Int) {
        if case .string = entry["$classname"] {} else {
            report(.error, object: index, "$classname", "is \(Self.describe(entry["$classname"]!)), expected a string")
        }
        if let classes = entry["$classes"] {
            guard case .array(let names) = classes, names.allSatisfy({ if case .string = $0 { true } else { false } }) else {
                return report(.error, object: index, "$classes", "is not an array of class names")
            }
        }
    }

    /// Every UID inside `value` must index `$objects`.
    private mutating func checkUIDs(in value: PropertyListValue, object: Int, path: String) {
        switch value {
        case .uid(let uid):
            if uid >= UInt64(objects.count) {
                report(.error, object: object, path, "UID \(uid) is out of range (\(objects.count) objects)")
            } else if uid > 0, classEntryNames[Int(uid)] != nil {
                report(.warning, object: object, path, "refers to class entry #\(uid) as a value")
            }
        case .array(let items):
            for (position, item) in items.enumerated() { checkUIDs(in: item, object: object, path: "\(path)[\(position)]") }
        case .dictionary(let entries):
            for entry in entries { checkUIDs(in: entry.value, object: object, path: path.isEmpty ? entry.key : "\(path).\(entry.key)") }
        default:
            break
        }
    }

    /// The `$classname` of a class entry (a dictionary with a string `$classname` and
    /// no `$class`), `nil` for anything else.
    static func classEntryName(_ object: PropertyListValue) -> String? {
        guard case .dictionary(let entries) = object else { return nil }
        var name: String?
        for entry in entries {
            if entry.key == "$class" { return nil }
            if name == nil, entry.key == "$classname", case .string(let text) = entry.value { name = text }
        }
        return name
    }

    /// The class name of object `uid` from its `$class`, when that points at a class entry.
    func className(ofObject uid: Int) -> String? {
        guard uid < objects.count, case .uid(let classUID)? = objects[uid]["$class"], classUID < UInt64(objects.count) else { return nil }
        return classEntryNames[Int(classUID)]
    }

    // MARK: Describing values

    /// `string`, `integer`, `UID`…, for messages.
    static func kind(_ value: PropertyListValue) -> String { value.typeName }

    /// A short description: the value itself for scalars, the kind for containers.
    static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return "the string '\(text.count > 40 ? text.prefix(40) + "…" : text)'"
        case .integer(let number): return "\(number)"
        case .unsignedInteger(let number): return "\(number)"
        case .wideInteger(let number): return "\(number)"
        case .real(let number): return "\(number)"
        case .float(let number): return "\(number)"
        case .bool(let flag): return "\(flag)"
        case .uid(let uid): return "UID \(uid)"
        default: return "a \(kind(value))"
        }
    }
}
