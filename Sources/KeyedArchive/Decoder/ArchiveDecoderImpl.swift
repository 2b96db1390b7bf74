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

/// State shared by every decoder of one `decode` call: the limits, the cycle check, the
/// work budget and the instances already decoded (identity).
///
/// One accounting serves every path: following a UID and descending into an inline
/// container both go through ``_ArchiveDecoder/withContainer(ref:slot:at:_:)`` (depth and
/// cycles, by plist reference, so UID cycles and plist-level self-containment are one
/// check), and every value resolved, probes that fail included, is charged to one budget.
final class ArchiveDecodingState {
    let maxDepth: Int
    /// Classes the caller allowed, and names for strict class-name checking.
    let registry: ArchiveClassRegistry
    /// Whether an object's `$classname` must match the type it is decoded as.
    let strictClassNames: Bool
    /// Whether booleans read as 0/1 and 0/1 as booleans (archives from swift-corelibs-foundation).
    let booleansAreNumbers: Bool
    /// The work budget left: every value resolved, container entered, element, entry and
    /// indexed key costs one.
    /// The strategies of the `decode` call (see ArchiveDecoder+Strategies.swift).
    @exclusivity(unchecked) var options = ArchiveDecodingOptions()
    /// The document's one budget of work units (see ``ArchiveWorkBudget``).
    @exclusivity(unchecked) var budget: ArchiveWorkBudget
    /// Units left in ``budget`` (the hot paths subtract from it directly).
    var remainingObjects: Int {
        @inline(__always) get { budget.remaining }
        @inline(__always) set { budget.remaining = newValue }
    }
    @exclusivity(unchecked) var depth = 0
    /// Plist references of the containers being decoded right now; meeting one again is a cycle.
    @exclusivity(unchecked) private var open: [Bool] = []
    /// Class instances already decoded, by UID, so a shared object decodes to one instance;
    /// an ``ArchiveReferenceDecodable`` instance is recorded before its fields are read.
    @exclusivity(unchecked) var instances: [Int: AnyObject] = [:]
    /// ``ArchiveReferenceDecodable`` instances whose fields are being read, by UID.
    @exclusivity(unchecked) var filling: [Int: FillState] = [:]
    /// The first error that stopped a back-referenced instance being filled: it fails the
    /// decode even if caught (see `_ArchiveDecoder.fill(_:uid:at:)`).
    @exclusivity(unchecked) var abandonedFill: (any Error)?
    /// Strings and data already made, by plist reference: an object referenced from many
    /// places is one shared copy, not one copy per place.
    @exclusivity(unchecked) var leaves = SharedLeafValues()
    /// Values parsed from text (URLs, decimals, base64), by the plist reference of what they
    /// were parsed from: parsed once however many places refer to it.
    @exclusivity(unchecked) var parsedURLs: [Int: URL] = [:]
    @exclusivity(unchecked) var parsedDecimals: [Int: Decimal] = [:]
    @exclusivity(unchecked) var parsedBase64: [Int: Data] = [:]
    /// The entry references of NSDictionaries in the numbered layout (`NS.key.N`,
    /// `NS.object.N`), each list stored once; see `numberedDictionary(keys:values:owner:at:)`.
    @exclusivity(unchecked) var gatheredRefs: [[Int]] = []
    /// The numbered NSDictionaries already gathered, by UID: their (keys, values) lists.
    @exclusivity(unchecked) var numberedDictionaries: [Int: (BinaryPropertyList.RefList, BinaryPropertyList.RefList)] = [:]
    /// The element slots of NSOrderedSet objects (`NS.object.N`), by UID: found once per object.
    @exclusivity(unchecked) var orderedSetSlots: [Int: [ArchiveSlot]] = [:]
    /// Class chains already read, by class-entry UID.
    /// (A seeded table of positions in `classChainList`: cheaper per object than `Hasher`.)
    @exclusivity(unchecked) var classChains = ScalarRefTable()
    @exclusivity(unchecked) var classChainList: [ArchivedClassChain] = []
    /// Key indexes of large objects, by the byte offset of their key list: built once,
    /// so each lookup is O(1) however many keys an object has and however often it is shared.
    @exclusivity(unchecked) var fieldIndexes: [Int: [String: Int]] = [:]
    /// The key texts of NSDictionaries whose keys are not all plain strings, by the byte
    /// offset of their `NS.keys` list (see `dictionaryKeys(_:owner:at:)`).
    @exclusivity(unchecked) var dictionaryKeys: [Int: ArchiveDictionaryKeys] = [:]
    /// Key-reference caches by CodingKey type (the metatype's address → index in `keyRefCaches`).
    @exclusivity(unchecked) var keyRefCacheIndex = ScalarRefTable()
    @exclusivity(unchecked) var keyRefCaches: [KeyRefCache] = []
    /// The same for the field names of Foundation layouts (see `fieldIndex(of:keys:)`), and
    /// for `$class` (see `classFieldIndex(keys:)`).
    let namedKeyRefs = KeyRefCache()
    let classKeyRefs = KeyRefCache()
    /// Every decoder of this decode (the first one and those made for `superDecoder`,
    /// strategies and `NSCoding` objects), to be closed when it returns (see ``close()``).
    @exclusivity(unchecked) var decoders: [_ArchiveDecoder] = []
    /// What decoding needs to know about each type met (see `traits(of:)`).
    /// (Metatype address → position in `traitList`.)
    @exclusivity(unchecked) var traits = ScalarRefTable()
    @exclusivity(unchecked) var traitList: [DecodableTraits] = []
    /// Type names already printed in an error message (see `typeName(_:)`).
    @exclusivity(unchecked) var typeNames: [ObjectIdentifier: String] = [:]

    init(limits: ArchiveDecoder.Limits, inputSize: Int, registry: ArchiveClassRegistry = ArchiveClassRegistry(),
         strictClassNames: Bool = false, booleansAreNumbers: Bool = false) {
        self.maxDepth = limits.maxDepth
        self.budget = ArchiveWorkBudget(limits: limits, inputSize: inputSize)
        self.registry = registry
        self.strictClassNames = strictClassNames
        self.booleansAreNumbers = booleansAreNumbers
    }

    /// Ends the decode: its decoders read no more of the archive, whose bytes it borrowed
    /// (one that `init(from:)` kept throws when used), and the cycle between them and this
    /// state is broken.
    func close() {
        for decoder in decoders { decoder.close() }
        decoders = []
        for cache in keyRefCaches { cache.spare.drop() }
    }

    /// Marks plist reference `ref` open; false when it already is (a cycle).
    @inline(__always)
    func enter(_ ref: Int, objectCount: Int) -> Bool {
        if open.isEmpty { open = [Bool](repeating: false, count: objectCount) }
        guard ref >= 0, ref < open.count, !open[ref] else { return false }
        open[ref] = true
        return true
    }

    @inline(__always)
    func leave(_ ref: Int) {
        if ref >= 0, ref < open.count { open[ref] = false }
    }

    /// The instance decoded (or being filled) for `uid`, noting a back-reference to one
    /// being filled.
    @inline(__always)
    func instance(_ uid: Int) -> AnyObject? {
        guard let existing = instances[uid] else { return nil }
        if !filling.isEmpty { filling[uid]?.handedOut = true }
        return existing
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
    @exclusivity(unchecked) var pathNode: CodingPathNode
    /// Where the next keyed lookup starts scanning (the position after the last match).
    @exclusivity(unchecked) var fieldHint = 0
    /// The type whose `init(from:)` is running (see `unkeyedContainer()`).
    @exclusivity(unchecked) var compositeType: Any.Type = Never.self

    var codingPath: [any CodingKey] { codingPath(of: pathNode) }
    /// The document's property list, stored (not computed) so that reading it borrows
    /// rather than copies, which would retain and release its bytes on every access.
    @exclusivity(unchecked) private(set) var plist: BinaryPropertyList

    init(document: ArchiveDocument, state: ArchiveDecodingState, userInfo: [CodingUserInfoKey: Any],
         slot: ArchiveSlot, path: CodingPathNode) {
        self.document = document
        self.plist = document.plist
        self.state = state
        self.userInfo = userInfo
        self.slot = slot
        self.pathNode = path
        state.decoders.append(self)
    }

    /// Forgets the archive, whose bytes are valid only during the decode: a decoder that
    /// `init(from:)` kept and uses later throws instead of reading them.
    func close() {
        document = document.closed
        plist = .none
    }

    /// A separate decoder over the same archive (for `superDecoder`).
    func subDecoder(slot: ArchiveSlot, path: CodingPathNode) -> _ArchiveDecoder {
        _ArchiveDecoder(document: document, state: state, userInfo: userInfo, slot: slot, path: path)
    }

    // MARK: - Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try ArchiveKeyedDecodingContainer<Key>.handOut(decoder: self, slot: slot, path: pathNode)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        // An NSDictionary's keys and values alternately, for `Dictionary.init(from:)` and
        // the like; never for `Set` or an array type, which would read pairs as elements.
        try ArchiveUnkeyedDecodingContainer(decoder: self, slot: slot, path: pathNode,
                                            pairs: !(compositeType is any _ArchiveListType.Type))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: - Slots

    /// The slot for a value stored at plist reference `ref` inside object `owner`.
    @inline(__always)
    func slot(forValueAt ref: Int, owner: Int) throws -> ArchiveSlot {
        if let uid = try document.uid(at: ref) { return .uid(uid) }
        return .inline(ref: ref, owner: owner)
    }

    /// The plist object a slot holds; throws `valueNotFound` for nil. Every call is one
    /// unit of work: probes that fail (`try?` on the wrong type) are charged too.
    @inline(__always)
    func object(in slot: ArchiveSlot, expecting type: Any.Type, at path: @autoclosure () -> CodingPathNode) throws -> BinaryPropertyList.Object {
        try reading(slot, path()) {
            try charge(1)
            switch slot {
            case .inline(let ref, _):
                return try plist.object(ref)
            case .uid(let uid):
                guard uid != 0 else { throw valueNotFound(type, at: path()) }
                let object = try plist.object(try document.objectRef(uid))
                if case .dictionary(let keys, let values) = object, keys.count == 1,
                   try archivedClass(keys: keys, values: values, slot: slot, at: path())?.name == "NSNull" {
                    throw valueNotFound(type, at: path())
                }
                return object
            }
        }
    }

    /// The plist reference a slot stands for (`$objects[uid]` for a UID).
    @inline(__always)
    func plistRef(of slot: ArchiveSlot) throws -> Int {
        switch slot {
        case .inline(let ref, _): return ref
        case .uid(let uid): return try document.objectRef(uid)
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
    /// which cannot hold nil, store it).
    func isNil(_ slot: ArchiveSlot) -> Bool {
        guard case .uid(let uid) = slot else { return false }
        if uid == 0 { return true }
        guard let ref = try? document.objectRef(uid), plist.isDictionary(ref),
              case .dictionary(let keys, let values)? = try? plist.object(ref), keys.count == 1 else { return false }
        return (try? archivedClass(keys: keys, values: values, slot: slot, at: .root))??.name == "NSNull"
    }

    // MARK: - Accounting

    /// Runs `body` with the container at plist reference `ref` open: one step deeper, one
    /// unit of work, and a cycle error if `ref` is already open (a UID cycle or a plist
    /// container that contains itself).
    @inline(__always)
    func withContainer<R>(ref: Int, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode, _ body: () throws -> R) throws -> R {
        try reading(slot, path()) { try charge(1) }
        guard state.depth < state.maxDepth else {
            throw corrupted(at: path(), slot: slot, "values nested deeper than the decoder's limit of \(state.maxDepth) (ArchiveDecoder.Limits.maxDepth)")
        }
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

    /// Runs `body` with object `uid` open (see ``withContainer(ref:slot:at:_:)``).
    func withObject<R>(_ uid: Int, at path: @autoclosure () -> CodingPathNode, _ body: () throws -> R) throws -> R {
        let ref = try reading(.uid(uid), path()) { try document.objectRef(uid) }
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
    /// when it is an object or an inline container.
    func unbox<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        // The commonest leaf types first, by metatype comparison (see the encoder's `box`).
        if T.self == String.self { return unsafeBitCast(try unboxString(from: slot, at: path()), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try unboxInteger(Int.self, from: slot, at: path()), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try unboxDouble(from: slot, at: path()), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try unboxBool(from: slot, at: path()), to: T.self) }
        let traits = self.traits(of: T.self)
        if let optional = traits.optional {
            // nil, or the wrapped type decoded here with all its checks (identity, strict names).
            return try optional._archiveDecode(as: T.self, from: self, slot: slot, at: path(), inPlace: false)
        }
        if traits.entersItself, let special = traits.special {
            return try special._archiveDecode(as: T.self, from: self, slot: slot, at: path())
        }
        switch slot {
        case .uid(let uid) where uid != 0:
            let isClass = traits.isClass
            if isClass {
                if let existing = state.instance(uid) { return try cast(existing, to: T.self, at: path()) }
                if let reference = traits.reference { return try unboxReference(reference, as: T.self, uid: uid, at: path()) }
            }
            if state.strictClassNames, traits.hasClassName {
                try checkClassName(of: uid, for: T.self, at: path())
            }
            let ref = try reading(slot, path()) { try document.objectRef(uid) }
            let value = try withContainer(ref: ref, slot: slot, at: path()) { try decodeValue(T.self, traits: traits, from: slot, at: path()) }
            if isClass { state.instances[uid] = value as AnyObject }
            return value
        case .inline(let ref, _) where plist.isContainer(ref):
            return try withContainer(ref: ref, slot: slot, at: path()) { try decodeValue(T.self, traits: traits, from: slot, at: path()) }
        default:
            // Inline scalars and nil go straight to the type: any type but `Optional`
            // throws `valueNotFound` for nil when it reads its value or opens a container.
            return try decodeValue(T.self, traits: traits, from: slot, at: path())
        }
    }

    /// Decodes `T` from a slot that is already entered: through its Foundation layout, or `init(from:)`.
    @inline(__always)
    func decodeValue<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        try decodeValue(T.self, traits: traits(of: T.self), from: slot, at: path())
    }

    /// ``decodeValue(_:from:at:)`` with `T`'s traits already found.
    @inline(__always)
    func decodeValue<T: Decodable>(_ type: T.Type, traits: DecodableTraits, from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        if let special = traits.special {
            return try special._archiveDecode(as: T.self, from: self, slot: slot, at: path())
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
    func decodeInPlace<T: Decodable>(_ type: T.Type, at path: CodingPathNode) throws -> T {
        let slot = self.slot
        let traits = self.traits(of: T.self)
        if let optional = traits.optional {
            return try optional._archiveDecode(as: T.self, from: self, slot: slot, at: path, inPlace: true)
        }
        guard state.depth < state.maxDepth else {
            throw corrupted(at: path, slot: slot, "values nested deeper than the decoder's limit of \(state.maxDepth) (ArchiveDecoder.Limits.maxDepth)")
        }
        if state.strictClassNames, case .uid(let uid) = slot, uid != 0, traits.hasClassName {
            try checkClassName(of: uid, for: T.self, at: path)
        }
        state.depth += 1
        defer { state.depth -= 1 }
        if traits.isClass, let reference = traits.reference, case .uid(let uid) = slot, uid != 0 {
            return try decodeReferenceInPlace(reference, as: T.self, uid: uid, at: path)
        }
        return try decodeValue(T.self, traits: traits, from: slot, at: path)
    }

    func decodeComposite<T: Decodable>(_ type: T.Type, from slot: ArchiveSlot, at path: CodingPathNode) throws -> T {
        try decoding(at: slot, path, as: T.self) { try T(from: self) }
    }

    /// Runs `body` (an `init(from: self)` of `type`) with this decoder at `slot` and `path`,
    /// then restores where it was.
    @inline(__always)
    func decoding<R>(at slot: ArchiveSlot, _ path: CodingPathNode, as type: Any.Type, _ body: () throws -> R) throws -> R {
        let savedSlot = self.slot
        let savedPath = pathNode
        let savedHint = fieldHint
        let savedType = compositeType
        self.slot = slot
        pathNode = path
        compositeType = type
        defer {
            self.slot = savedSlot
            pathNode = savedPath
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
            throw DecodingError.typeMismatch(T.self, DecodingError.Context(
                codingPath: codingPath(of: path()), debugDescription: "A shared object decoded earlier as \(Swift.type(of: value)) is requested as \(T.self)"))
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
                                     hasClassName: Self.hasClassName(type))
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
    func checkClassName(of uid: Int, for type: Any.Type, at path: CodingPathNode) throws {
        guard let chain = try archivedClass(of: .uid(uid), at: path) else { return }
        guard state.registry.accepts(chain.name, for: type) else {
            throw DecodingError.typeMismatch(type, DecodingError.Context(
                codingPath: codingPath(of: path),
                debugDescription: "Object \(uid) is archived as class '\(chain.name)', which does not match \(type) (strict class-name checking; register an alias with ArchiveDecoder.setType(_:forClassName:))"))
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
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeInPlace(T.self, at: pathNode) }
}

/// What `unbox` asks of a type, answered once per type and decode.
struct DecodableTraits {
    /// The type as `Optional` (nil or its wrapped type).
    let optional: (any _ArchiveOptionalDecodable.Type)?
    /// The type as one with a Foundation layout of its own.
    let special: (any _ArchiveSpecialDecodable.Type)?
    /// The type as `Array` (read element by element without `init(from:)`'s detours).
    let array: (any _ArchiveArrayDecodable.Type)?
    /// Whether the special type enters its object itself (depth, cycles, identity).
    let entersItself: Bool
    /// Whether instances are shared by UID (class identity).
    let isClass: Bool
    /// The type as a class decoded in two phases (created, recorded, then filled).
    let reference: (any ArchiveReferenceDecodable.Type)?
    /// Whether strict class-name checking applies (see `hasClassName(_:)`).
    let hasClassName: Bool
}

/// `Optional`, decoded as nil or as its wrapped type with all of that type's checks.
protocol _ArchiveOptionalDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode, inPlace: Bool) throws -> Self
}

extension _ArchiveOptionalDecodable {
    /// Decodes `Self` for a caller that knows it as `T` (its traits were found for `T`,
    /// so `T` is `Self`): handed over without a dynamic cast (see `_ArchiveDecoder.cast`).
    @inline(__always)
    static func _archiveDecode<T>(as type: T.Type, from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode, inPlace: Bool) throws -> T {
        try decoder.handOver(try _archiveDecode(from: decoder, slot: slot, at: path(), inPlace: inPlace), as: T.self, at: path())
    }
}

extension Optional: _ArchiveOptionalDecodable where Wrapped: Decodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode, inPlace: Bool) throws -> Optional {
        try decoder.charge(1)
        if decoder.isNil(slot) { return nil }
        return inPlace ? try decoder.decodeInPlace(Wrapped.self, at: path()) : try decoder.unbox(Wrapped.self, from: slot, at: path())
    }
}

/// Standard-library containers, whose archived class (NSArray, NSSet…) is not their type's
/// name; strict class-name checking skips them.
protocol _ArchiveContainerType {}
extension Array: _ArchiveContainerType {}
extension Set: _ArchiveContainerType {}
extension Dictionary: _ArchiveContainerType {}
extension Optional: _ArchiveContainerType {}
extension ContiguousArray: _ArchiveContainerType {}

/// Standard-library collections of elements: an unkeyed container opened for one never
/// reads an NSDictionary's keys and values as its elements.
protocol _ArchiveListType {}
extension Array: _ArchiveListType {}
extension Set: _ArchiveListType {}
extension ContiguousArray: _ArchiveListType {}

