import Foundation

/// Where a value to decode lives: inline in its owner's dictionary (numbers and booleans
/// written by `encode(_:forKey:)`), or in `$objects` by UID (UID 0 is nil).
enum ArchiveSlot {
    case inline(ref: Int, owner: Int)
    case uid(Int)

    /// The `$objects` index to name in error messages.
    var objectIndex: Int {
        switch self {
        case .inline(_, let owner): return owner
        case .uid(let uid): return uid
        }
    }
}

/// State shared by every decoder of one `decode` call: limits, the cycle check and the
/// instances already decoded (identity).
final class ArchiveDecodingState {
    let maxDepth: Int
    /// Classes the caller allowed, and names for strict class-name checking.
    let registry: ArchiveClassRegistry
    /// Whether an object's `$classname` must match the type it is decoded as.
    let strictClassNames: Bool
    @exclusivity(unchecked) var remainingObjects: Int
    @exclusivity(unchecked) var depth = 0
    /// UIDs whose value is being decoded right now; meeting one again is a cycle.
    @exclusivity(unchecked) private var open: [Bool] = []
    /// Class instances already decoded, by UID, so a shared object decodes to one instance.
    @exclusivity(unchecked) var instances: [Int: AnyObject] = [:]
    /// Class entries already checked (UIDs), so each is validated once per decode.
    @exclusivity(unchecked) var checkedClassEntries: Set<Int> = []
    /// Long strings and data already decoded, by plist reference: an object referenced from
    /// many places is one shared copy, not one copy per place.
    @exclusivity(unchecked) var sharedStrings: [Int: String] = [:]
    @exclusivity(unchecked) var sharedData: [Int: Data] = [:]
    /// Class chains already read, by class-entry UID.
    @exclusivity(unchecked) var classChains: [Int: ArchivedClassChain] = [:]
    /// Key indexes of large objects, by the byte offset of their key list: built once,
    /// so each lookup is O(1) however many keys an object has and however often it is shared.
    @exclusivity(unchecked) var fieldIndexes: [Int: [String: Int]] = [:]

    /// Values this long or longer are shared through the caches above.
    static let sharingThreshold = 64

    init(maxDepth: Int, maxObjects: Int, registry: ArchiveClassRegistry = ArchiveClassRegistry(), strictClassNames: Bool = false) {
        self.maxDepth = maxDepth
        self.remainingObjects = maxObjects
        self.registry = registry
        self.strictClassNames = strictClassNames
    }

    /// Marks `uid` open; false when it already is (a cycle).
    func enter(_ uid: Int, objectCount: Int) -> Bool {
        if open.isEmpty { open = [Bool](repeating: false, count: objectCount) }
        guard uid < open.count, !open[uid] else { return false }
        open[uid] = true
        return true
    }

    func leave(_ uid: Int) {
        if uid < open.count { open[uid] = false }
    }
}

/// The `Decoder` handed to `init(from:)`. One instance serves a whole decode: descending
/// into a value saves the current slot and path, decodes, and restores them.
final class _ArchiveDecoder: Decoder {
    let document: ArchiveDocument
    let state: ArchiveDecodingState
    let userInfo: [CodingUserInfoKey: Any]
    @exclusivity(unchecked) var slot: ArchiveSlot
    @exclusivity(unchecked) var pathNode: CodingPathNode
    /// Where the next keyed lookup starts scanning (the position after the last match).
    @exclusivity(unchecked) var fieldHint = 0

    var codingPath: [any CodingKey] { pathNode.path }
    var plist: BinaryPropertyList { document.plist }

    init(document: ArchiveDocument, state: ArchiveDecodingState, userInfo: [CodingUserInfoKey: Any],
         slot: ArchiveSlot, path: CodingPathNode) {
        self.document = document
        self.state = state
        self.userInfo = userInfo
        self.slot = slot
        self.pathNode = path
    }

    /// A separate decoder over the same archive (for `superDecoder`).
    func subDecoder(slot: ArchiveSlot, path: CodingPathNode) -> _ArchiveDecoder {
        _ArchiveDecoder(document: document, state: state, userInfo: userInfo, slot: slot, path: path)
    }

    // MARK: - Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try ArchiveKeyedDecodingContainer<Key>(decoder: self, slot: slot, path: pathNode))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try ArchiveUnkeyedDecodingContainer(decoder: self, slot: slot, path: pathNode)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: - Slots

    /// The slot for a value stored at plist reference `ref` inside object `owner`.
    @inline(__always)
    func slot(forValueAt ref: Int, owner: Int) throws -> ArchiveSlot {
        if let uid = try document.uid(at: ref) { return .uid(uid) }
        return .inline(ref: ref, owner: owner)
    }

    /// The plist object a slot holds; throws `valueNotFound` for nil.
    @inline(__always)
    func object(in slot: ArchiveSlot, expecting type: Any.Type, at path: @autoclosure () -> CodingPathNode) throws -> BinaryPropertyList.Object {
        try reading(slot, path()) {
            switch slot {
            case .inline(let ref, _):
                return try plist.object(ref)
            case .uid(let uid):
                guard uid != 0 else { throw valueNotFound(type, at: path()) }
                let object = try plist.object(try document.objectRef(uid))
                if case .dictionary(let keys, _) = object, keys.count == 1, isNSNull(uid) {
                    throw valueNotFound(type, at: path())
                }
                return object
            }
        }
    }

    /// Checks that an archived object (a dictionary in `$objects`) has a `$class` that
    /// points at a class entry with a `$classname`. Each class entry is checked once.
    func validateObject(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList, slot: ArchiveSlot, at path: CodingPathNode) throws {
        guard case .uid(let uid) = slot else { return }  // inline dictionaries are not objects
        try reading(slot, path) {
            guard let index = try document.index(of: "$class", in: keys) else {
                throw KeyedArchiveError("object has no $class, so it is not an archived object", objectIndex: uid, key: "$class")
            }
            guard let classUID = try document.uid(at: try plist.ref(values, index)), classUID != 0 else {
                throw KeyedArchiveError("$class is not a UID of a class entry", objectIndex: uid, key: "$class")
            }
            if state.checkedClassEntries.contains(classUID) { return }
            _ = try document.classEntry(classUID, usedBy: uid)
            state.checkedClassEntries.insert(classUID)
        }
    }

    /// Runs a plist-level read, turning its errors into `DecodingError`s at `path` (built
    /// only when there is an error, so hot paths pay nothing for it).
    @inline(__always)
    func reading<R>(_ slot: ArchiveSlot, _ path: @autoclosure () -> CodingPathNode, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as DecodingError {
            throw error
        } catch let error as KeyedArchiveError {
            throw corrupted(at: path(), slot: error.objectIndex.map { .uid($0) } ?? slot, error.message, underlying: error)
        } catch {
            throw corrupted(at: path(), slot: slot, "\(error)", underlying: error)
        }
    }

    /// Whether a slot is nil: UID 0, or an NSNull object (how NSArray and NSDictionary,
    /// which cannot hold nil, store it).
    func isNil(_ slot: ArchiveSlot) -> Bool {
        guard case .uid(let uid) = slot else { return false }
        return uid == 0 || isNSNull(uid)
    }

    /// NSNull is an object whose only key is `$class`; anything else is answered by one marker read.
    private func isNSNull(_ uid: Int) -> Bool {
        guard let ref = try? document.objectRef(uid),
              case .dictionary(let keys, _)? = try? plist.object(ref), keys.count == 1 else { return false }
        return (try? document.classInfo(ofObject: uid))??.name == "NSNull"
    }

    // MARK: - Typed values

    /// Decodes any `Decodable` at `slot`.
    func unbox<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        // The commonest leaf types first, by metatype comparison (see the encoder's `box`).
        if T.self == String.self { return unsafeBitCast(try unboxString(from: slot, at: path()), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try unboxInteger(Int.self, from: slot, at: path()), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try unboxDouble(from: slot, at: path()), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try unboxBool(from: slot, at: path()), to: T.self) }
        if let special = T.self as? any _ArchiveSpecialDecodable.Type {
            return try cast(try special._archiveDecode(from: self, slot: slot, at: path()), to: T.self, at: path())
        }
        guard case .uid(let uid) = slot, uid != 0 else {
            // Inline values and nil go straight to the type: `Optional` reads nil through
            // `decodeNil()`; any other type throws `valueNotFound` when it opens a container.
            return try decodeComposite(T.self, from: slot, at: path())
        }
        let isClass = T.self is AnyClass
        if isClass, let existing = state.instances[uid] {
            return try cast(existing, to: T.self, at: path())
        }
        if state.strictClassNames, !(T.self is any _ArchiveContainerType.Type) {
            try checkClassName(of: uid, for: T.self, at: path())
        }
        let value = try withObject(uid, at: path()) { try decodeComposite(T.self, from: slot, at: path()) }
        if isClass { state.instances[uid] = value as AnyObject }
        return value
    }

    /// Counts one more decoded value (an array element, a dictionary entry) against the
    /// limit on total work, so that shared containers cannot expand without bound.
    @inline(__always)
    func countValue(at path: @autoclosure () -> CodingPathNode, slot: ArchiveSlot) throws {
        state.remainingObjects -= 1
        if state.remainingObjects < 0 {
            throw corrupted(at: path(), slot: slot, "the archive expands to more values than the decoder's limit (shared objects referenced from too many places)")
        }
    }

    /// Runs `body` with object `uid` open: counts it against the limits and detects cycles.
    func withObject<R>(_ uid: Int, at path: @autoclosure () -> CodingPathNode, _ body: () throws -> R) throws -> R {
        state.remainingObjects -= 1
        guard state.remainingObjects >= 0 else {
            throw corrupted(at: path(), slot: .uid(uid), "the archive expands to more objects than the decoder's limit (shared objects referenced from too many places)")
        }
        guard state.depth < state.maxDepth else {
            throw corrupted(at: path(), slot: .uid(uid), "objects nested deeper than the decoder's limit of \(state.maxDepth)")
        }
        guard state.enter(uid, objectCount: document.objectCount) else {
            throw corrupted(at: path(), slot: .uid(uid), "reference cycle: object \(uid) contains itself")
        }
        state.depth += 1
        defer {
            state.depth -= 1
            state.leave(uid)
        }
        return try body()
    }

    func decodeComposite<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: CodingPathNode) throws -> T {
        let savedSlot = self.slot
        let savedPath = pathNode
        self.slot = slot
        pathNode = path
        defer {
            self.slot = savedSlot
            pathNode = savedPath
        }
        return try T(from: self)
    }

    @inline(__always)
    private func cast<T>(_ value: Any, to type: T.Type, at path: @autoclosure () -> CodingPathNode) throws -> T {
        guard let typed = value as? T else {
            throw DecodingError.typeMismatch(T.self, DecodingError.Context(
                codingPath: path().path, debugDescription: "A shared object decoded earlier as \(Swift.type(of: value)) is requested as \(T.self)."))
        }
        return typed
    }

    /// Strict class-name checking: the object's `$classname` must be the type's archived
    /// name, one of its aliases, or the same name in another module.
    @inline(never)
    private func checkClassName(of uid: Int, for type: Any.Type, at path: CodingPathNode) throws {
        guard let info = try reading(.uid(uid), path, { try document.classInfo(ofObject: uid) }) else { return }
        guard state.registry.accepts(info.name, for: type) else {
            throw DecodingError.typeMismatch(type, DecodingError.Context(
                codingPath: path.path,
                debugDescription: "Object \(uid) is archived as class '\(info.name)', which does not match \(type) (strict class-name checking; register an alias with ArchiveDecoder.setType(_:forClassName:))."))
        }
    }

    // MARK: - Scalars

    func unboxInteger<T: FixedWidthInteger>(_ type: T.Type, from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        let object = try self.object(in: slot, expecting: T.self, at: path())
        let result: T?
        switch object {
        case .integer(let i): result = T(exactly: i)
        case .unsignedInteger(let u): result = T(exactly: u)
        case .real(let d): result = T(exactly: d)
        case .float(let f): result = T(exactly: f)
        case .bool(let b): result = b ? 1 : 0
        default: throw typeMismatch(T.self, found: object, slot: slot, at: path())
        }
        guard let result else {
            throw corrupted(at: path(), slot: slot, "the number \(describe(object)) does not fit in \(T.self)")
        }
        return result
    }

    func unboxDouble(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Double {
        let object = try self.object(in: slot, expecting: Double.self, at: path())
        switch object {
        case .real(let d): return d
        case .float(let f): return Double(f)
        case .integer(let i):
            guard let d = Double(exactly: i) else { break }
            return d
        case .unsignedInteger(let u):
            guard let d = Double(exactly: u) else { break }
            return d
        case .bool(let b): return b ? 1 : 0
        default: throw typeMismatch(Double.self, found: object, slot: slot, at: path())
        }
        throw corrupted(at: path(), slot: slot, "the number \(describe(object)) does not fit in Double exactly")
    }

    func unboxFloat(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Float {
        let object = try self.object(in: slot, expecting: Float.self, at: path())
        switch object {
        case .float(let f): return f
        case .real(let d):
            // Rounding to the nearest Float is accepted (as JSONDecoder does); overflow is not.
            let f = Float(d)
            guard f.isFinite || !d.isFinite else { break }
            return f
        case .integer(let i):
            guard let f = Float(exactly: i) else { break }
            return f
        case .unsignedInteger(let u):
            guard let f = Float(exactly: u) else { break }
            return f
        case .bool(let b): return b ? 1 : 0
        default: throw typeMismatch(Float.self, found: object, slot: slot, at: path())
        }
        throw corrupted(at: path(), slot: slot, "the number \(describe(object)) does not fit in Float")
    }

    func unboxBool(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Bool {
        let object = try self.object(in: slot, expecting: Bool.self, at: path())
        switch object {
        case .bool(let b): return b
        case .integer(0): return false
        case .integer(1): return true
        default: throw typeMismatch(Bool.self, found: object, slot: slot, at: path())
        }
    }

    /// A string: plain, or NSMutableString's `{NS.string}`.
    func unboxString(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> String {
        let object = try self.object(in: slot, expecting: String.self, at: path())
        let string: String? = try reading(slot, path()) {
            switch object {
            case .asciiString(let range):
                if range.count < ArchiveDecodingState.sharingThreshold { return plist.asciiString(range) }
                return try sharedString(range.lowerBound) { plist.asciiString(range) }
            case .utf16String(let range):
                if range.count < ArchiveDecodingState.sharingThreshold { return try plist.utf16String(range, ref: slot.objectIndex) }
                return try sharedString(range.lowerBound) { try plist.utf16String(range, ref: slot.objectIndex) }
            case .dictionary(let keys, let values):
                if let inner = try field("NS.string", keys: keys, values: values, owner: slot.objectIndex) {
                    return try unboxString(from: inner, at: path())
                }
                return nil
            default:
                return nil
            }
        }
        guard let string else { throw typeMismatch(String.self, found: object, slot: slot, at: path()) }
        return string
    }

    /// A long string decoded once per object (keyed by where its bytes start).
    private func sharedString(_ key: Int, _ make: () throws -> String) throws -> String {
        if let existing = state.sharedStrings[key] { return existing }
        let string = try make()
        state.sharedStrings[key] = string
        return string
    }

    /// The slot of field `name` in an object dictionary, or nil when absent.
    func field(_ name: String, keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList, owner: Int) throws -> ArchiveSlot? {
        guard let index = try document.index(of: name, in: keys) else { return nil }
        return try slot(forValueAt: try plist.ref(values, index), owner: owner)
    }

    // MARK: - Errors (cold)

    @inline(never)
    func typeMismatch(_ type: Any.Type, found object: BinaryPropertyList.Object, slot: ArchiveSlot, at path: CodingPathNode) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: path.path,
            debugDescription: "Expected \(type) but found \(describe(object)) at \(place(slot, path))."))
    }

    @inline(never)
    func valueNotFound(_ type: Any.Type, at path: CodingPathNode) -> DecodingError {
        DecodingError.valueNotFound(type, DecodingError.Context(
            codingPath: path.path, debugDescription: "Expected \(type) but found nil (UID 0)\(keySuffix(path))."))
    }

    @inline(never)
    func corrupted(at path: CodingPathNode, slot: ArchiveSlot, _ message: String, underlying: (any Error)? = nil) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: path.path, debugDescription: "\(message) (at \(place(slot, path))).",
            underlyingError: underlying ?? KeyedArchiveError(message, objectIndex: slot.objectIndex, key: lastKey(path))))
    }

    /// "object 5, key 'age'" or "a field of object 3, key 'age'".
    func place(_ slot: ArchiveSlot, _ path: CodingPathNode) -> String {
        let base: String
        switch slot {
        case .inline(_, let owner): base = "a field of object \(owner)"
        case .uid(let uid): base = "object \(uid)"
        }
        return base + keySuffix(path)
    }

    private func keySuffix(_ path: CodingPathNode) -> String {
        lastKey(path).map { ", key '\($0)'" } ?? ""
    }

    private func lastKey(_ path: CodingPathNode) -> String? {
        switch path {
        case .root: return nil
        case .key(let key, _): return key.stringValue
        case .index(let index, _): return "Index \(index)"
        }
    }

    func describe(_ object: BinaryPropertyList.Object) -> String {
        switch object {
        case .bool(let b): return "boolean \(b)"
        case .integer(let i): return "integer \(i)"
        case .unsignedInteger(let u): return "integer \(u)"
        case .real(let d): return "real \(d)"
        case .float(let f): return "real \(f)"
        case .date: return "a date"
        case .data(let range): return "data (\(range.count) bytes)"
        case .asciiString, .utf16String: return "a string"
        case .uid(let u): return "UID \(u)"
        case .array: return "an array"
        case .dictionary: return "an object"
        }
    }
}

// MARK: - Single value container

extension _ArchiveDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { isNil(slot) }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(from: slot, at: pathNode) }
    func decode(_ type: String.Type) throws -> String { try unboxString(from: slot, at: pathNode) }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble(from: slot, at: pathNode) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(from: slot, at: pathNode) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(type, from: slot, at: pathNode) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(type, from: slot, at: pathNode) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // The value itself, not a nested one: its object is already open, so it is not
        // entered again (that would look like a cycle).
        if let special = T.self as? any _ArchiveSpecialDecodable.Type {
            return try cast(try special._archiveDecode(from: self, slot: slot, at: pathNode), to: T.self, at: pathNode)
        }
        return try decodeComposite(T.self, from: slot, at: pathNode)
    }
}

/// Standard-library containers, whose archived class (NSArray, NSSet…) is not their type's
/// name; strict class-name checking skips them.
protocol _ArchiveContainerType {}
extension Array: _ArchiveContainerType {}
extension Set: _ArchiveContainerType {}
extension Optional: _ArchiveContainerType {}
extension ContiguousArray: _ArchiveContainerType {}
