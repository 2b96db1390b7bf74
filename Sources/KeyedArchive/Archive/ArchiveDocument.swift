import Foundation

/// A keyed archive opened for reading: a validated envelope over a lazily read binary
/// property list, which every reader in the package opens through
/// ``PropertyListInput`` (the one place that names input that is not a property list and
/// applies the duplicate-key rule).
///
/// XML archives are parsed, then written to binary in memory, so that every reader in
/// this package (typed decoding and the untyped view) works over one representation
/// with one set of bounds checks.
struct ArchiveDocument: Sendable {
    let plist: BinaryPropertyList
    /// The `$objects` array: UID `n` is its `n`-th reference.
    let objects: BinaryPropertyList.RefList
    /// `$top`, in file order, keys unescaped (`$$0` is `$0`): each value's plist reference
    /// (normally a UID; some writers store plain values inline).
    let topEntries: [(key: String, ref: Int)]
    /// The `$top` dictionary itself (decoded as a keyed value when there is no `root`).
    let topRef: Int
    /// The `$top` entries whose values are UIDs, in file order.
    let top: [(key: String, uid: Int)]
    /// `$archiver`: `NSKeyedArchiver`, or the name of a subclass (``ArchiverName``).
    let archiverName: String

    /// Number of entries in `$objects`.
    var objectCount: Int { objects.count }

    /// Calls `body` with `data` opened as an archive. The document borrows `data`'s bytes
    /// (see ``PropertyListInput``): it must not outlive `body`.
    static func read<R>(_ data: Data, maxDepth: Int = 512, _ body: (ArchiveDocument) throws -> R) throws -> R {
        try PropertyListInput.read(data, maxDepth: maxDepth) { try body(ArchiveDocument(plist: $0)) }
    }

    init(plist: BinaryPropertyList) throws {
        self.plist = plist
        guard case .dictionary(let keys, let values) = try plist.object(plist.topObject) else {
            throw KeyedArchiveError.plainPropertyList
        }
        var archiver: Int?
        var version: Int?
        var topRef: Int?
        var objectsRef: Int?
        // Keys compared in place: a root with many long keys makes no strings.
        for i in 0..<keys.count {
            let keyRef = try plist.ref(keys, i)
            let valueRef = try plist.ref(values, i)
            if try plist.stringEquals(keyRef, "$archiver") { archiver = valueRef }
            else if try plist.stringEquals(keyRef, "$version") { version = valueRef }
            else if try plist.stringEquals(keyRef, "$top") { topRef = valueRef }
            else if try plist.stringEquals(keyRef, "$objects") { objectsRef = valueRef }
        }
        guard let archiver else {
            // No envelope key at all: an ordinary property list (settings, Info.plist…).
            guard version != nil || topRef != nil || objectsRef != nil else { throw KeyedArchiveError.plainPropertyList }
            throw KeyedArchiveError("missing $archiver", key: "$archiver")
        }
        let archiverName = try plist.string(archiver)
        guard let archiverName, ArchiverName.isKeyedArchiver(archiverName) else {
            throw KeyedArchiveError("$archiver is \(archiverName.map { "'\($0)'" } ?? "not a string"), expected \(ArchiverName.expectation)", key: "$archiver")
        }
        self.archiverName = archiverName
        guard let version else { throw KeyedArchiveError("missing $version", key: "$version") }
        guard case .integer(let versionNumber) = try plist.object(version), versionNumber == 100_000 else {
            throw KeyedArchiveError("$version is not 100000", key: "$version")
        }
        guard let objectsRef else { throw KeyedArchiveError("missing $objects", key: "$objects") }
        guard case .array(let objectList) = try plist.object(objectsRef), objectList.count > 0 else {
            throw KeyedArchiveError("$objects is not a non-empty array", key: "$objects")
        }
        objects = objectList
        guard let topRef else { throw KeyedArchiveError("missing $top", key: "$top") }
        guard case .dictionary(let topKeys, let topValues) = try plist.object(topRef) else {
            throw KeyedArchiveError("$top is not a dictionary", key: "$top")
        }
        var top: [(key: String, uid: Int)] = []
        var entries: [(key: String, ref: Int)] = []
        entries.reserveCapacity(topKeys.count)
        // Keys made once per string object, their bytes within the default budget.
        var leaves = SharedLeafValues()
        var budget = ArchiveWorkBudget(limits: ArchiveDecoder.Limits(), inputSize: plist.bytes.count)
        for i in 0..<topKeys.count {
            guard let stored = try leaves.string(at: try plist.ref(topKeys, i), in: plist, budget: &budget) else {
                throw KeyedArchiveError("a key of $top is not a string", key: "$top")
            }
            let key = ArchiveKeyEscaping.unescape(stored) ?? stored
            if key.utf8.count != stored.utf8.count, !budget.chargeMade(bytes: key.utf8.count) { throw budget.exhausted(key: "$top") }
            let valueRef = try plist.ref(topValues, i)
            entries.append((key, valueRef))
            guard case .uid(let uid) = try plist.object(valueRef) else { continue }
            guard uid < UInt64(objectList.count) else {
                throw KeyedArchiveError("$top UID \(uid) is out of range (\(objectList.count) objects)", key: key)
            }
            top.append((key, Int(uid)))
        }
        self.top = top
        self.topEntries = entries
        self.topRef = topRef
    }

    /// This document over ``BinaryPropertyList/none``: everything it reads throws. What a
    /// decoder holds once its decode has returned.
    var closed: ArchiveDocument {
        ArchiveDocument(closing: self)
    }

    private init(closing other: ArchiveDocument) {
        plist = .none
        objects = other.objects
        topEntries = other.topEntries
        topRef = other.topRef
        top = other.top
        archiverName = other.archiverName
    }

    /// The plist reference of `$objects[uid]`.
    @inline(__always)
    func objectRef(_ uid: Int) throws -> Int {
        try plist.ref(objects, Self.checkedUID(uid, objectCount: objects.count))
    }

    /// The UID stored at plist reference `ref`, or `nil` when the object there is not a UID.
    @inline(__always)
    func uid(at ref: Int) throws -> Int? {
        guard let value = try plist.uid(ref) else { return nil }
        return try Self.checkedUID(value, objectCount: objects.count)
    }

    /// `uid` when it names an entry of an `$objects` array of `objectCount` entries; throws
    /// otherwise. (The decoder reads UIDs through its own copy of ``objects``: see
    /// `_ArchiveDecoder.uid(at:)`.)
    @inline(__always)
    static func checkedUID<U: BinaryInteger>(_ uid: U, objectCount: Int) throws -> Int {
        guard uid >= 0, uid < objectCount else { throw uidOutOfRange(uid, objectCount: objectCount) }
        return Int(uid)
    }

    @inline(never)
    private static func uidOutOfRange<U: BinaryInteger>(_ uid: U, objectCount: Int) -> KeyedArchiveError {
        KeyedArchiveError("UID \(uid) is out of range (\(objectCount) objects)")
    }

    /// The position of `key` among a dictionary's keys, comparing bytes in place.
    func index(of key: String, in keys: BinaryPropertyList.RefList) throws -> Int? {
        for i in 0..<keys.count where try plist.stringEquals(try plist.ref(keys, i), key) {
            return i
        }
        return nil
    }

    /// Reads the class entry at `classUID`: one unit of `budget` per class listed, the
    /// names made once per string object (`leaves`).
    func classEntry(_ classUID: Int, usedBy uid: Int, leaves: inout SharedLeafValues,
                    budget: inout ArchiveWorkBudget) throws -> (name: String, classes: [String]) {
        guard case .dictionary(let keys, let values) = try plist.object(try objectRef(classUID)) else {
            throw KeyedArchiveError("$class points to object \(classUID), which is not a class entry", objectIndex: uid, key: "$class")
        }
        guard let nameIndex = try index(of: "$classname", in: keys),
              let name = try leaves.string(at: try plist.ref(values, nameIndex), in: plist, budget: &budget)
        else {
            throw KeyedArchiveError("class entry \(classUID) has no $classname string", objectIndex: uid, key: "$class")
        }
        var classes: [String] = []
        if let classesIndex = try index(of: "$classes", in: keys),
           case .array(let list) = try plist.object(try plist.ref(values, classesIndex)) {
            guard budget.charge(list.count) else { throw budget.exhausted(objectIndex: uid, key: "$class") }
            for i in 0..<list.count {
                if let className = try leaves.string(at: try plist.ref(list, i), in: plist, budget: &budget) { classes.append(className) }
            }
        }
        if classes.isEmpty { classes = [name] }
        return (name, classes)
    }
}

/// The `$archiver` names a keyed archive may carry: `NSKeyedArchiver`, or the name of a
/// subclass that keeps its layout, which ends in `KeyedArchiver` (SceneKit writes
/// `SCNKeyedArchiver`). Any other name is not a keyed archive. The one rule for the
/// decoder, ``KeyedArchiveView`` and the command-line tool.
package enum ArchiverName {
    /// What an accepted name looks like, for error messages.
    package static let expectation = "'NSKeyedArchiver' or a name ending in 'KeyedArchiver'"

    /// Whether `name` is read as a keyed archive.
    package static func isKeyedArchiver(_ name: String) -> Bool {
        name.hasSuffix("KeyedArchiver")
    }
}

/// Escaping of user keys that begin with `$`, which the archive reserves: `$weird` is
/// stored as `$$weird`.
enum ArchiveKeyEscaping {
    @inline(__always)
    static func escape(_ key: String) -> String {
        isEscaped(key) ? "$" + key : key
    }

    /// Whether `key` is stored escaped (it begins with `$`).
    @inline(__always)
    static func isEscaped(_ key: String) -> Bool {
        key.utf8.first == 0x24
    }

    /// The user key for a stored key, or `nil` for the reserved `$class`. Other keys that
    /// begin with one `$` are kept as they are: Apple's archiver writes the unkeyed values
    /// of `encodeValue(ofObjCType:at:)` under `$0`, `$1`, … without escaping them.
    @inline(__always)
    static func unescape(_ stored: String) -> String? {
        guard stored.utf8.first == 0x24 else { return stored }
        if stored.utf8.dropFirst().first == 0x24 { return String(stored.dropFirst()) }
        return stored == "$class" ? nil : stored
    }
}
