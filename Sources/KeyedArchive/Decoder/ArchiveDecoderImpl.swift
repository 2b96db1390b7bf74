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

/// The `Decoder` handed to `init(from:)`. One instance serves a whole decode: descending
/// into a value saves the current slot and path, decodes, and restores them.
final class _ArchiveDecoder: Decoder {
    /// The archive; its closed form once the decode has returned (see ``close()``).
    @exclusivity(unchecked) private(set) var document: ArchiveDocument
    let state: ArchiveDecodingState
    let userInfo: [CodingUserInfoKey: Any]
    @exclusivity(unchecked) var slot: ArchiveSlot
    /// The coding path of the value at `slot` (its last key not yet a node: see ``DecodingPath``).
    @exclusivity(unchecked) var path: DecodingPath
    /// Where the next keyed lookup starts scanning (the position after the last match).
    @exclusivity(unchecked) var fieldHint = 0
    /// The type whose `init(from:)` is running (see `unkeyedContainer()`).
    @exclusivity(unchecked) var compositeType: Any.Type = Never.self

    var codingPath: [any CodingKey] { codingPath(of: path.node) }
    /// The coding path of the value at `slot` as a node (made anew on each call: for errors).
    var pathNode: CodingPathNode { path.node }
    /// The document's property list, stored (not computed) so that reading it borrows
    /// rather than copies, which would retain and release its bytes on every access.
    @exclusivity(unchecked) private(set) var plist: BinaryPropertyList
    /// The document's `$objects` array, stored for the same reason: reading a UID through
    /// `document` copied the whole document (retaining its arrays and strings) per field.
    let objects: BinaryPropertyList.RefList

    init(document: ArchiveDocument, state: ArchiveDecodingState, userInfo: [CodingUserInfoKey: Any],
         slot: ArchiveSlot, path: DecodingPath) {
        self.document = document
        self.plist = document.plist
        self.objects = document.objects
        self.state = state
        self.userInfo = userInfo
        self.slot = slot
        self.path = path
        state.decoders.append(self)
    }

    /// Forgets the archive, whose bytes are valid only during the decode: a decoder that
    /// `init(from:)` kept and uses later throws instead of reading them.
    func close() {
        document = document.closed
        plist = .none
    }

    /// A separate decoder over the same archive (for `superDecoder`).
    func subDecoder(slot: ArchiveSlot, path: DecodingPath) -> _ArchiveDecoder {
        _ArchiveDecoder(document: document, state: state, userInfo: userInfo, slot: slot, path: path)
    }

    /// ``subDecoder(slot:path:)`` at a path that is a node already.
    func subDecoder(slot: ArchiveSlot, path: CodingPathNode) -> _ArchiveDecoder {
        subDecoder(slot: slot, path: DecodingPath(path))
    }

    // MARK: - Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try ArchiveKeyedDecodingContainer<Key>.handOut(decoder: self, slot: slot, path: path)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        // An NSDictionary's keys and values alternately only for a type that asks for
        // them (`Dictionary`, `ArchiveKeyValuePairsDecodable`), decided by its traits.
        try ArchiveUnkeyedDecodingContainer(decoder: self, slot: slot, path: path, askedBy: compositeType)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: - Slots

    /// The slot for a value stored at plist reference `ref` inside object `owner`.
    @inline(__always)
    func slot(forValueAt ref: Int, owner: Int) throws -> ArchiveSlot {
        if let slot = quickSlot(forValueAt: ref, owner: owner) { return slot }
        if let uid = try self.uid(at: ref) { return .uid(uid) }
        return .inline(ref: ref, owner: owner)
    }

    /// ``slot(forValueAt:owner:)`` for the values it meets almost always, without its
    /// errors on the way: a value that is not a UID, or a UID of at most 8 bytes that lies
    /// before the offset table and names an entry of `$objects`. Nil for anything else (a
    /// bad reference or offset, a UID out of range or too wide), which ``uid(at:)`` then
    /// reads, throwing what it always threw.
    @inline(__always)
    func quickSlot(forValueAt ref: Int, owner: Int) -> ArchiveSlot? {
        guard let start = plist.checkedOffset(of: ref) else { return nil }
        // `start` < offsetTableStart ≤ the byte count (checkedOffset).
        let marker = plist.bytes[start]
        guard marker >> 4 == 0x8 else { return .inline(ref: ref, owner: owner) }
        let size = Int(marker & 0x0F) &+ 1
        guard size <= 8, start &+ 1 &+ size <= plist.offsetTableStart else { return nil }
        let uid = plist.bytes.bigEndian(at: start &+ 1, size: size)
        guard uid < UInt64(objects.count) else { return nil }
        return .uid(Int(uid))
    }

    /// The UID stored at plist reference `ref`, or `nil` when the object there is not a UID
    /// (``ArchiveDocument/uid(at:)``, read through this decoder's stored fields).
    @inline(__always)
    func uid(at ref: Int) throws -> Int? {
        guard let value = try plist.uid(ref) else { return nil }
        return try ArchiveDocument.checkedUID(value, objectCount: objects.count)
    }

    /// The plist reference of `$objects[uid]` (``ArchiveDocument/objectRef(_:)``, read
    /// through this decoder's stored fields).
    @inline(__always)
    func objectRef(_ uid: Int) throws -> Int {
        try plist.ref(objects, ArchiveDocument.checkedUID(uid, objectCount: objects.count))
    }

    /// The plist object a slot holds; throws `valueNotFound` for nil. Every call is one
    /// unit of work: probes that fail (`try?` on the wrong type) are charged too.
    @inline(__always)
    func object(in slot: ArchiveSlot, expecting type: Any.Type, at path: @autoclosure () -> CodingPathNode) throws -> BinaryPropertyList.Object {
        try reading(slot, path()) {
            try charge(1)
            switch slot {
            case .inline(let ref, _):
                return try readObject(ref)
            case .uid(let uid):
                guard uid != 0 else { throw valueNotFound(type, at: path()) }
                let object = try readObject(try objectRef(uid))
                if case .dictionary(let keys, let values) = object, keys.count == 1,
                   try archivedClass(keys: keys, values: values, slot: slot, at: path())?.name == "NSNull" {
                    throw valueNotFound(type, at: path())
                }
                return object
            }
        }
    }

    /// `plist.object(ref)`, the property list read in place: a plain call copies it out of
    /// this class first, retaining and releasing what it owns, on every object read.
    @inline(__always)
    func readObject(_ ref: Int) throws -> BinaryPropertyList.Object {
        try BinaryPropertyList.object(ref, inPlace: &plist)
    }

    /// `plist.dataRange(ref)`, read in place (see ``readObject(_:)``).
    @inline(__always)
    func readDataRange(_ ref: Int) -> Range<Int>? {
        BinaryPropertyList.dataRange(ref, inPlace: &plist)
    }

    /// The plist reference a slot stands for (`$objects[uid]` for a UID).
    @inline(__always)
    func plistRef(of slot: ArchiveSlot) throws -> Int {
        switch slot {
        case .inline(let ref, _): return ref
        case .uid(let uid): return try objectRef(uid)
        }
    }

    /// Checks that an archived object (a dictionary in `$objects`) has a `$class` that
    /// points at a class entry with a `$classname`. Each class entry is read once.
    func validateObject(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList, slot: ArchiveSlot, at path: CodingPathNode) throws {
        guard case .uid = slot else { return }  // inline dictionaries are not objects
        guard try archivedClass(keys: keys, values: values, slot: slot, at: path) != nil else {
            throw corrupted(at: path, slot: slot, "object has no $class, so it is not an archived object")
        }
    }

    /// Runs a plist-level read, turning its errors into `DecodingError`s at `path` (built
    /// only when there is an error, so hot paths pay nothing for it).
    @inline(__always)
    func reading<R>(_ slot: ArchiveSlot, _ path: @autoclosure () -> CodingPathNode, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch {
            throw readingFailure(error, slot: slot, at: path())
        }
    }

    /// What ``reading(_:_:_:)`` throws for `error`: a `DecodingError` as it is, anything
    /// else as `dataCorrupted` at `path` (for callers that cannot use a closure: one that
    /// captures a generic container copies it, retains included).
    @inline(never)
    func readingFailure(_ error: any Error, slot: ArchiveSlot, at path: CodingPathNode) -> any Error {
        if let error = error as? DecodingError { return error }
        if let error = error as? KeyedArchiveError {
            return corrupted(at: path, slot: error.objectIndex.map { .uid($0) } ?? slot, error.message)
        }
        return corrupted(at: path, slot: slot, "\(error)")
    }

    /// Whether a slot is nil: UID 0, or an NSNull object (how NSArray and NSDictionary,
    /// which cannot hold nil, store it). Any other object's marker tells it apart: it is
    /// not parsed (nor checked for repeated keys) here, only when it is decoded.
    func isNil(_ slot: ArchiveSlot) -> Bool {
        guard case .uid(let uid) = slot else { return false }
        if uid == 0 { return true }
        guard let ref = try? objectRef(uid), plist.mayHoldOneEntry(ref),
              case .dictionary(let keys, let values)? = try? readObject(ref), keys.count == 1 else { return false }
        return (try? archivedClass(keys: keys, values: values, slot: slot, at: .root))??.name == "NSNull"
    }

    // MARK: - Accounting

    /// Runs `body` with the container at plist reference `ref` open: one step deeper, one
    /// unit of work, and a cycle error if `ref` is already open (a UID cycle or a plist
    /// container that contains itself).
    @inline(__always)
    func withContainer<R>(ref: Int, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode, _ body: () throws -> R) throws -> R {
        try reading(slot, path()) { try charge(1) }
        try checkDeepLevel(slot, at: path())
        guard state.enter(ref, objectCount: plist.objectCount) else {
            return try reenter(slot, at: path(), body)
        }
        state.depth += 1
        defer {
            state.depth -= 1
            state.leave(ref)
        }
        return try body()
    }

    /// The checks of one more level: none below ``ArchiveDecodingState/checkedDepth``; from
    /// there the depth limit and room on the thread's stack (see ``ThreadStack``), two
    /// comparisons when both hold. The path is built only for an error, as everywhere in
    /// the decoder.
    @inline(__always)
    func checkDeepLevel(_ slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws {
        if state.depth < state.checkedDepth { return }
        if state.depth < state.maxDepth, ThreadStack.position() > state.stackFloor { return }
        try deepLevelRefused(slot, at: path())
    }

    /// The slow side of ``checkDeepLevel(_:at:)``: the stack's floor asked for at the first
    /// checked level (then the check again), else the error.
    @inline(never)
    func deepLevelRefused(_ slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws {
        guard state.depth < state.maxDepth else {
            throw corrupted(at: path(), slot: slot, "values nested deeper than the decoder's limit of \(state.maxDepth) (ArchiveDecoder.Limits.maxDepth)")
        }
        if state.stackFloor == .max {
            state.stackFloor = ThreadStack.floor()
            if ThreadStack.position() > state.stackFloor { return }
        }
        throw corrupted(at: path(), slot: slot, "values nested \(state.depth) levels deep, more than this thread's stack holds (decode on a thread with a larger stack, or lower ArchiveDecoder.Limits.maxDepth)")
    }

    /// Runs `body` with object `uid` open (see ``withContainer(ref:slot:at:_:)``).
    func withObject<R>(_ uid: Int, at path: @autoclosure () -> CodingPathNode, _ body: () throws -> R) throws -> R {
        let ref = try reading(.uid(uid), path()) { try objectRef(uid) }
        return try withContainer(ref: ref, slot: .uid(uid), at: path(), body)
    }

    /// Counts one more decoded value (an array element, a dictionary entry) against the
    /// work budget, so that shared containers cannot expand without bound.
    @inline(__always)
    func countValue(at path: @autoclosure () -> CodingPathNode, slot: ArchiveSlot) throws {
        try reading(slot, path()) { try charge(1) }
    }

    // MARK: - Typed values

    /// Decodes any `Decodable` at `slot`, entering it (depth, cycle and work accounting)
    /// when it is an object or an inline container. `path` is made only for an error or
    /// for a value that stores it (a struct, an enum, an array: see ``DecodingPath``).
    func unbox<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: @autoclosure () -> DecodingPath) throws -> T {
        // The commonest leaf types first, by metatype comparison (see the encoder's `box`).
        if T.self == String.self { return unsafeBitCast(try unboxString(from: slot, at: path().node), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try unboxInteger(Int.self, from: slot, at: path().node), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try unboxDouble(from: slot, at: path().node), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try unboxBool(from: slot, at: path().node), to: T.self) }
        // NSDate and NSUUID objects of the shape learned in this decode, as one leaf each.
        if T.self == Date.self, let date = fastDate(slot) { return unsafeBitCast(date, to: T.self) }
        if T.self == UUID.self, let uuid = fastUUID(slot) { return unsafeBitCast(uuid, to: T.self) }
        let traits = self.traits(of: T.self)
        if let optional = traits.optional {
            // nil, or the wrapped type decoded here with all its checks (identity, strict names).
            return try optional._archiveDecode(as: T.self, from: self, slot: slot, at: path(), inPlace: false)
        }
        if traits.entersItself, let special = traits.special {
            return try special._archiveDecode(as: T.self, from: self, slot: slot, at: path().node)
        }
        switch slot {
        case .uid(let uid) where uid != 0:
            let isClass = traits.isClass
            if isClass {
                if let existing = try existingInstance(uid, at: path()) { return try cast(existing, to: T.self, at: path().node) }
                if let reference = traits.reference { return try unboxReference(reference, as: T.self, uid: uid, at: path().node) }
            }
            if state.strictClassNames, traits.hasClassName {
                try checkClassName(of: uid, for: T.self, at: path().node)
            }
            let ref = try reading(slot, path().node) { try objectRef(uid) }
            // A class instance made in one phase may be shared: no back reference inside it
            // (see `acceptBackReference(to:at:)`).
            let shared = isClass ? 1 : 0
            state.sharedClassesOpen &+= shared
            defer { state.sharedClassesOpen &-= shared }
            let value = try withContainer(ref: ref, slot: slot, at: path().node) { try decodeValue(T.self, traits: traits, from: slot, at: path()) }
            if isClass { state.instances[uid] = value as AnyObject }
            return value
        case .inline(let ref, _) where plist.isContainer(ref):
            return try withContainer(ref: ref, slot: slot, at: path().node) { try decodeValue(T.self, traits: traits, from: slot, at: path()) }
        default:
            // Inline scalars and nil go straight to the type: any type but `Optional`
            // throws `valueNotFound` for nil when it reads its value or opens a container.
            return try decodeValue(T.self, traits: traits, from: slot, at: path())
        }
    }

    /// ``unbox(_:from:at:)`` at a path that is a node already.
    @inline(__always)
    func unbox<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        try unbox(T.self, from: slot, at: DecodingPath(path()))
    }

    /// Decodes `T` from a slot that is already entered: through its Foundation layout, or `init(from:)`.
    @inline(__always)
    func decodeValue<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: @autoclosure () -> DecodingPath) throws -> T {
        try decodeValue(T.self, traits: traits(of: T.self), from: slot, at: path())
    }

    /// ``decodeValue(_:from:at:)`` with `T`'s traits already found.
    @inline(__always)
    func decodeValue<T: Decodable>(_ type: T.Type, traits: DecodableTraits, from slot: ArchiveSlot, at path: @autoclosure () -> DecodingPath) throws -> T {
        if let special = traits.special {
            return try special._archiveDecode(as: T.self, from: self, slot: slot, at: path().node)
        }
        if let array = traits.array {
            return try array._archiveDecodeArray(as: T.self, from: self, slot: slot, at: path())
        }
        return try decodeComposite(T.self, from: slot, at: path())
    }

    /// `singleValueContainer().decode(T.self)`: the value at the current slot, which is
    /// already open, so it is not entered again (that would look like a cycle). Each such
    /// step still counts toward the depth limit, so a type that decodes itself this way
    /// cannot recurse without end.
    func decodeInPlace<T: Decodable>(_ type: T.Type, at path: DecodingPath) throws -> T {
        let slot = self.slot
        let traits = self.traits(of: T.self)
        if let optional = traits.optional {
            return try optional._archiveDecode(as: T.self, from: self, slot: slot, at: path, inPlace: true)
        }
        try checkDeepLevel(slot, at: path.node)
        if state.strictClassNames, case .uid(let uid) = slot, uid != 0, traits.hasClassName {
            try checkClassName(of: uid, for: T.self, at: path.node)
        }
        state.depth += 1
        defer { state.depth -= 1 }
        if traits.isClass, let reference = traits.reference, case .uid(let uid) = slot, uid != 0 {
            return try decodeReferenceInPlace(reference, as: T.self, uid: uid, at: path.node)
        }
        return try decodeValue(T.self, traits: traits, from: slot, at: path)
    }

    func decodeComposite<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: consuming DecodingPath) throws -> T {
        try decoding(at: slot, path, as: T.self) { try T(from: self) }
    }

    /// ``decodeComposite(_:from:at:)`` at a path that is a node already.
    func decodeComposite<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: CodingPathNode) throws -> T {
        try decodeComposite(T.self, from: slot, at: DecodingPath(path))
    }

    /// Runs `body` (an `init(from: self)` of `type`) with this decoder at `slot` and `path`,
    /// then restores where it was.
    @inline(__always)
    func decoding<R>(at slot: ArchiveSlot, _ path: consuming DecodingPath, as type: Any.Type, _ body: () throws -> R) throws -> R {
        let savedSlot = self.slot
        let savedHint = fieldHint
        let savedType = compositeType
        self.slot = slot
        // Exchanged, not copied: `path` holds the saved path meanwhile.
        swap(&self.path, &path)
        compositeType = type
        defer {
            self.slot = savedSlot
            swap(&self.path, &path)
            fieldHint = savedHint
            compositeType = savedType
        }
        return try body()
    }

    /// A value of type `S` that the caller's traits say is `T`, as `T`: without a dynamic
    /// cast when `S` is `T` (the case whenever the traits were found for `T`).
    @inline(__always)
    func handOver<S, T>(_ value: S, as type: T.Type, at path: @autoclosure () -> CodingPathNode) throws -> T {
        guard T.self == S.self else { return try cast(value, to: T.self, at: path()) }
        return unsafeBitCast(value, to: T.self)
    }

    /// A shared instance as `T`. Out of line: the `as? T` needs `Optional<T>`'s metadata,
    /// a runtime lookup that would otherwise be paid on every `unbox`, cast or not.
    @inline(never)
    func cast<T>(_ value: Any, to type: T.Type, at path: @autoclosure () -> CodingPathNode) throws -> T {
        guard let typed = value as? T else {
            let path = path()
            throw DecodingError.archive(.typeMismatch(T.self), "A shared object decoded earlier as \(Swift.type(of: value)) is requested as \(T.self)",
                                        codingPath: codingPath(of: path), key: path.lastKeyName)
        }
        return typed
    }

    /// What decoding needs to know about `type`: found once per type and decode, since each
    /// answer is a runtime conformance check, dearer than a dictionary lookup.
    @inline(__always)
    func traits(of type: Any.Type) -> DecodableTraits {
        let address = UInt64(UInt(bitPattern: ObjectIdentifier(type)))
        if let known = state.traits.ref(for: address) { return state.traitList[known] }
        let special = type as? any _ArchiveSpecialDecodable.Type
        let traits = DecodableTraits(optional: type as? any _ArchiveOptionalDecodable.Type, special: special,
                                     array: type as? any _ArchiveArrayDecodable.Type,
                                     entersItself: special?._archiveEntersItself ?? false,
                                     isClass: type is AnyClass, reference: type as? any ArchiveReferenceDecodable.Type,
                                     hasClassName: Self.hasClassName(type), readsPairs: DecodableTraits.readsPairs(type))
        state.traits.insert(address, state.traitList.count)
        state.traitList.append(traits)
        return traits
    }

    /// Whether strict class-name checking applies to `type`: not to standard-library
    /// containers (archived as NSArray, NSDictionary…) nor to types read through a
    /// Foundation layout, which check the object's class themselves.
    @inline(__always)
    static func hasClassName(_ type: Any.Type) -> Bool {
        !(type is any _ArchiveContainerType.Type) && !(type is any _ArchiveSpecialDecodable.Type)
    }

    /// Strict class-name checking: the object's `$classname` must be the type's archived
    /// name, one of its aliases, or the same name in another module.
    @inline(never)
    func checkClassName(of uid: Int, for type: Any.Type, at path: @autoclosure () -> CodingPathNode) throws {
        guard let chain = try archivedClass(of: .uid(uid), at: path()) else { return }
        guard state.registry.accepts(chain.name, for: type) else {
            let path = path()
            throw DecodingError.archive(.typeMismatch(type),
                "Object \(uid) is archived as class '\(chain.name)', which does not match \(type) (strict class-name checking; register an alias with ArchiveDecoder.setType(_:forClassName:))",
                codingPath: codingPath(of: path), objectIndex: uid, key: path.lastKeyName)
        }
    }
}

// MARK: - Single value container

extension _ArchiveDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool {
        _ = try? charge(1)
        return isNil(slot)
    }
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
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeInPlace(T.self, at: path) }
}
