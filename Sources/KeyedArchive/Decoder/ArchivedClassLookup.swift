import Foundation

/// The class of an archived object: its `$classname` and `$classes` chain (most specific
/// first), read once per class entry and decode.
final class ArchivedClassChain: Sendable {
    let name: String
    let classes: [String]
    /// How a keyed container reads the object, worked out once per class entry: the
    /// entries of an NSDictionary (or subclass), its fields (for NSString, NSData and NSDate
    /// only through `container(keyedBy:)`, never as a `Dictionary`), or not at all (the
    /// other collections).
    let keyedLayout: KeyedLayout

    enum KeyedLayout: Sendable { case fields, dictionary, notKeyed, foundationValue }

    /// How an unkeyed container reads the object, worked out once per class entry (NSCountedSet
    /// is an NSMutableSet subclass with a layout of its own, so it comes first).
    let unkeyedLayout: UnkeyedLayout

    enum UnkeyedLayout: Sendable { case countedSet, list, orderedSet, none }

    init(name: String, classes: [String]) {
        self.name = name
        self.classes = classes
        if classes.contains(where: FoundationClassNames.dictionary.contains) {
            keyedLayout = .dictionary
        } else if classes.contains(where: { FoundationClassNames.list.contains($0) || FoundationClassNames.orderedSet.contains($0)
                                            || FoundationClassNames.countedSet.contains($0) }) {
            keyedLayout = .notKeyed
        } else if classes.contains(where: FoundationClassNames.scalarValues.contains) {
            keyedLayout = .foundationValue
        } else {
            keyedLayout = .fields
        }
        let countedSet = classes.contains(where: FoundationClassNames.countedSet.contains)
        if countedSet {
            unkeyedLayout = .countedSet
        } else if classes.contains(where: FoundationClassNames.list.contains) {
            unkeyedLayout = .list
        } else if classes.contains(where: FoundationClassNames.orderedSet.contains) {
            unkeyedLayout = .orderedSet
        } else {
            unkeyedLayout = .none
        }
    }

    /// Whether the chain contains any of `names` (a Foundation class and its subclasses:
    /// `NSMutableData` lists `NSData`).
    @inline(__always)
    func contains(anyOf names: [String]) -> Bool {
        for name in names where classes.contains(name) { return true }
        return false
    }
}

extension _ArchiveDecoder {
    /// The class of the object whose fields are `keys`/`values`, or nil for a dictionary
    /// without `$class` (an inline dictionary, or a plain value). Class entries are read
    /// and validated once per decode.
    func archivedClass(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList,
                       slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedClassChain? {
        try reading(slot, path()) {
            guard let position = try classFieldIndex(keys: keys) else { return nil }
            guard let classUID = try uid(at: try plist.ref(values, position)), classUID != 0 else {
                throw KeyedArchiveError("$class is not a UID of a class entry", objectIndex: slot.objectIndex, key: "$class")
            }
            if let known = state.classChains.ref(for: UInt64(classUID)) { return state.classChainList[known] }
            let entry = try document.classEntry(classUID, usedBy: slot.objectIndex, leaves: &state.leaves, budget: &state.budget)
            let chain = ArchivedClassChain(name: entry.name, classes: entry.classes)
            state.classChains.insert(UInt64(classUID), state.classChainList.count)
            state.classChainList.append(chain)
            return chain
        }
    }

    /// The class of the object at `slot`, or nil when it is not an archived object.
    func archivedClass(of slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedClassChain? {
        guard case .uid(let uid) = slot, uid != 0 else { return nil }
        let object = try reading(slot, path()) { try readObject(try objectRef(uid)) }
        guard case .dictionary(let keys, let values) = object else { return nil }
        return try archivedClass(keys: keys, values: values, slot: slot, at: path())
    }

    /// Opens the object at `slot` as an instance of one of the Foundation classes `classes`
    /// (its `$classes` chain must list one of them) and returns its fields.
    ///
    /// A Foundation layout applies only to its own classes: any other object, plain value
    /// or inline dictionary throws `typeMismatch` naming what was found, never a wrong value.
    func foundationObject<T>(_ type: T.Type, classes: [String], at slot: ArchiveSlot, path: @autoclosure () -> CodingPathNode)
        throws -> (keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList) {
        try foundationObject(T.self, classes: classes, object: try self.object(in: slot, expecting: T.self, at: path()), at: slot, path: path())
    }

    /// ``foundationObject(_:classes:at:path:)`` for an `object` already read from `slot`.
    func foundationObject<T>(_ type: T.Type, classes: [String], object: BinaryPropertyList.Object, at slot: ArchiveSlot,
                             path: @autoclosure () -> CodingPathNode) throws -> (keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList) {
        guard case .dictionary(let keys, let values) = object,
              let chain = try archivedClass(keys: keys, values: values, slot: slot, at: path()),
              chain.contains(anyOf: classes)
        else { throw typeMismatch(T.self, found: object, slot: slot, at: path()) }
        return (keys, values)
    }
}
