import Foundation

/// The `Encoder` handed to `encode(to:)`. One instance serves a whole archive: encoding a
/// nested value saves the current target, encodes, and restores it, so descending a level
/// allocates nothing but the value's own object.
final class _ArchiveEncoder: Encoder {
    /// What the value being encoded has produced so far.
    enum Target {
        case none
        /// A keyed object (or an NSDictionary when the keyed container has no type of its own).
        case keyed(OpenHandle)
        /// An NSArray.
        case unkeyed(OpenHandle)
        /// A single value's UID.
        case value(Int32)
    }

    /// An object being filled in, without its table (the encoder's): saving, restoring and
    /// storing one retains nothing.
    struct OpenHandle {
        let uid: Int32
        let kind: ObjectBox.Kind
        /// The level hint (see ``ObjectBox/level``).
        let level: Int

        init(_ box: ObjectBox) {
            self.init(uid: box.uid, kind: box.kind, level: box.level)
        }

        init(uid: Int32, kind: ObjectBox.Kind, level: Int) {
            self.uid = uid
            self.kind = kind
            self.level = level
        }
    }

    /// The object `handle` stands for.
    @inline(__always)
    func box(_ handle: OpenHandle) -> ObjectBox {
        ObjectBox(table: table, uid: handle.uid, kind: handle.kind, level: handle.level)
    }

    /// Where a value produced by a `superEncoder(forKey:)`-style encoder must be written.
    enum Patch {
        /// A placeholder field (its UID's offset, from `ObjectBox.appendPlaceholder`).
        case field(ObjectBox, Int)
        /// An element (of an array) or value (of a dictionary), by index.
        case element(ObjectBox, Int)
    }

    let table: ArchiveObjectTable
    let userInfo: [CodingUserInfoKey: Any]
    /// The strategies of the `encode` call (see ArchiveEncoder+Strategies.swift).
    let options: ArchiveEncodingOptions
    /// The path this encoder was made at (its values' paths start there).
    let basePath: CodingPathNode
    /// The paths of the values being encoded (see EncodingPathFrames.swift), and the frame of
    /// the current one (-1: `basePath`).
    let frames = EncodingPathFrames()
    @exclusivity(unchecked) var currentFrame = -1
    @exclusivity(unchecked) var target: Target = .none
    /// The type whose `encode(to:)` runs; its class entry names a keyed object.
    @exclusivity(unchecked) var valueType: Any.Type?
    /// The class entry of `valueType`'s objects, kept per plain value type (see `box`): 0
    /// while not known yet, -1 for a type whose entry is not kept (it is then looked up).
    @exclusivity(unchecked) var valueClassUID: Int32 = -1
    /// Set on encoders made by `superEncoder(forKey:)`.
    let patch: Patch?
    /// Writes NSNull as nil (UID 0); used when a Foundation tree stands for a Codable value.
    @exclusivity(unchecked) var nullIsNil = false
    /// Encodes the values inside this encoder's value when it has a patch (see `box`).
    private lazy var unpatched: _ArchiveEncoder = {
        let encoder = subEncoder(path: pathNode, target: .none, patch: nil)
        encoder.nullIsNil = nullIsNil
        return encoder
    }()
    /// The ``ArchiveReferenceDecodable`` instance being encoded that has not opened its
    /// container yet: the first object `container(keyedBy:)` or `unkeyedContainer()` makes
    /// is its object, and its UID is recorded for it at once.
    @exclusivity(unchecked) var pendingReference: ObjectIdentifier?

    /// The path of the value being encoded, made when asked for.
    var pathNode: CodingPathNode { frames.node(of: currentFrame, base: basePath) }

    var codingPath: [any CodingKey] { pathNode.path }

    init(table: ArchiveObjectTable, userInfo: [CodingUserInfoKey: Any], options: ArchiveEncodingOptions = ArchiveEncodingOptions(),
         path: CodingPathNode = .root, target: Target = .none, patch: Patch? = nil) {
        self.table = table
        self.userInfo = userInfo
        self.options = options
        self.basePath = path
        self.target = target
        self.patch = patch
    }

    /// A separate encoder over the same table, for `superEncoder()` and `superEncoder(forKey:)`.
    func subEncoder(path: CodingPathNode, target: Target, patch: Patch?) -> _ArchiveEncoder {
        _ArchiveEncoder(table: table, userInfo: userInfo, options: options, path: path, target: target, patch: patch)
    }

    // MARK: - Boxing values

    /// Encodes `value` wherever it belongs and returns its UID.
    func box<T: Encodable>(_ value: T, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        try box(value, path: path) { $0.push(under: path(), index: nil) }
    }

    /// Encodes `value`, found at `key` of the keyed container whose core is `core`.
    func box<T: Encodable, K: CodingKey>(_ value: T, key: K, in core: ArchiveKeyedEncodingCore) throws -> Int32 {
        try box(value, path: { self.path(of: core).appending(key) }) { frames in
            if let plain = PlainCodingKey(key) { return frames.push(key: plain, parent: core.frame, base: core.node) }
            return frames.push(under: self.path(of: core).appending(key), index: nil)
        }
    }

    /// Encodes `value`, element `index` of an array at `path`.
    func box<T: Encodable>(_ value: T, index: Int, under path: CodingPathNode) throws -> Int32 {
        try box(value, path: { path.appending(index: index) }) { $0.push(under: path, index: index) }
    }

    /// The path of the values a keyed container's core writes.
    @inline(__always)
    func path(of core: ArchiveKeyedEncodingCore) -> CodingPathNode {
        core.frame >= 0 ? frames.node(of: core.frame, base: basePath) : core.node
    }

    /// Encodes `value` at `path`; `frame` gives the frame of its path when it is encoded
    /// through `encode(to:)` (pushing one, or the current one for a single value's value).
    private func box<T: Encodable>(_ value: T, path: () -> CodingPathNode,
                                   frame: (EncodingPathFrames) -> Int) throws -> Int32 {
        // The commonest leaf types, recognised by a pointer comparison of their metatypes
        // before the (much slower) dynamic conformance check below.
        if T.self == String.self { return table.string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return table.integer(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Double.self { return try realUID(unsafeBitCast(value, to: Double.self), at: path()) }
        if T.self == Bool.self { return table.bool(unsafeBitCast(value, to: Bool.self)) }
        // A `superEncoder(forKey:)` encoder's patch is for its own value: the values inside
        // it are encoded by an encoder without one (else their objects would take its place).
        if patch != nil { return try unpatched.box(value, at: path()) }
        // The objects this value opens are stored when it is done (see ArchiveObjectTable+Records.swift).
        let mark = table.openMark
        defer {
            table.close(downTo: mark)
            // A top-level value is done: forget the kept keyed containers, which refer to
            // this encoder (see KeyedEncodingContainerReuse.swift).
            if mark == 0 { table.dropSpareContainers() }
        }
        if T.self == Date.self { return try unsafeBitCast(value, to: Date.self)._archiveEncode(with: self, at: path()) }
        if T.self == UUID.self { return try unsafeBitCast(value, to: UUID.self)._archiveEncode(with: self, at: path()) }
        if T.self == [String].self {
            // As `Array.encode(to:)` stores it, without the generic steps.
            let made = makeHandle(kind: .array)
            for string in unsafeBitCast(value, to: [String].self) { table.appendElement(table.string(string), uid: made.uid, hint: made.level) }
            return made.uid
        }
        // As `Array.encode(to:)` stores them (see NumberArrayEncoding.swift).
        if T.self == [Double].self { return try boxDoubles(unsafeBitCast(value, to: [Double].self), at: path()) }
        if T.self == [Int].self { return boxIntegers(unsafeBitCast(value, to: [Int].self)) }
        // A value type already seen to be neither special nor a class: skip both dynamic
        // checks (conformance lookups, the encoder's largest fixed cost per object).
        // The table keeps such a type's class entry once its first object has made it (0
        // before), so its objects do not look their class up again.
        let typeKey = UInt64(UInt(bitPattern: ObjectIdentifier(T.self)))
        if let classUID = table.plainValueTypes.ref(for: typeKey) {
            // Its dynamic type is `T` (see below): no lookup of it.
            return try boxComposite(value, of: T.self, frame: frame, classUID: Int32(truncatingIfNeeded: classUID))
        }
        if let special = value as? any _ArchiveSpecialEncodable {
            return try special._archiveEncode(with: self, at: path())
        }
        guard type(of: value) is AnyClass else {
            // Only when the static type is the dynamic one (not an existential).
            if ObjectIdentifier(type(of: value)) == ObjectIdentifier(T.self) {
                table.plainValueTypes.insert(typeKey, 0)
                return try boxComposite(value, of: T.self, frame: frame, classUID: 0)
            }
            return try boxComposite(value, of: type(of: value), frame: frame)
        }
        // Class instances keep their identity: written once, referenced by UID after that.
        let object = value as AnyObject
        let id = ObjectIdentifier(object)
        if let uid = table.instanceUIDs[id] { return uid }
        // An ArchiveReferenceDecodable instance gets its UID when it opens its container,
        // before its fields are written, so a reference back to it (a cycle) is that UID.
        let isReference = isReferenceClass(value)
        guard table.instancesInProgress.insert(id).inserted else { throw cycleError(value, isReference: isReference, at: path()) }
        table.retainedInstances.append(object)
        let uid = try boxComposite(value, of: type(of: value), frame: frame, reference: isReference ? id : nil)
        table.instancesInProgress.remove(id)
        table.instanceUIDs[id] = uid
        return uid
    }

    /// Whether `value`'s class adopts ``ArchiveReferenceDecodable``, checked once per class.
    @inline(__always)
    private func isReferenceClass<T>(_ value: T) -> Bool {
        let classKey = UInt64(UInt(bitPattern: ObjectIdentifier(type(of: value))))
        if let known = table.referenceClasses.ref(for: classKey) { return known != 0 }
        let isReference = value is any ArchiveReferenceDecodable
        table.referenceClasses.insert(classKey, isReference ? 1 : 0)
        return isReference
    }

    @inline(never)
    private func cycleError(_ value: Any, isReference: Bool, at path: CodingPathNode) -> EncodingError {
        let reason = isReference
            ? "it refers to itself before opening a keyed or unkeyed container, so it has no object yet"
            : "only classes that adopt ArchiveReferenceDecodable (decoded in two phases) can be archived in a cycle"
        return EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: path.path, debugDescription: "Reference cycle: an instance of \(type(of: value)) contains itself; \(reason)"))
    }

    /// Runs `value.encode(to: self)` with a fresh target and returns what it produced.
    /// `frame`: makes the frame of its path (see EncodingPathFrames.swift), dropped after.
    /// `dynamicType`: `value`'s dynamic type (its class entry names a keyed object).
    /// `classUID`: that class entry when kept (see `valueClassUID`).
    /// `reference`: the ``ArchiveReferenceDecodable`` instance `value` is, recorded with
    /// the UID of the first container it opens (see `opened(_:)`).
    private func boxComposite<T: Encodable>(_ value: T, of dynamicType: Any.Type, frame: (EncodingPathFrames) -> Int,
                                            classUID: Int32 = -1, reference: ObjectIdentifier? = nil) throws -> Int32 {
        let savedTarget = target
        let savedType = valueType
        let savedClassUID = valueClassUID
        let savedReference = pendingReference
        let savedFrame = currentFrame
        let mark = frames.top
        target = .none
        currentFrame = frame(frames)
        valueType = dynamicType
        valueClassUID = classUID
        pendingReference = reference
        defer {
            target = savedTarget
            currentFrame = savedFrame
            frames.pop(to: mark)
            valueType = savedType
            valueClassUID = savedClassUID
            pendingReference = savedReference
        }
        try value.encode(to: self)
        switch target {
        case .none:
            // Encoded nothing: an empty object of its class.
            return makeObject(kind: .fields).uid
        case .keyed(let handle), .unkeyed(let handle):
            return handle.uid
        case .value(let uid):
            return uid
        }
    }

    /// The UID to store for a collection element or dictionary value: nil becomes the
    /// archive's NSNull object, as Foundation writes it (NSArray and NSDictionary cannot
    /// hold nil, and `$null` there is dropped or traps in Foundation's readers).
    @inline(__always)
    func elementUID(_ uid: Int32) -> Int32 {
        uid != 0 ? uid : nullObject()
    }

    @inline(never)
    func nullObject() -> Int32 {
        if table.nullUID == 0 {
            table.nullUID = makeObject(kind: .fields, className: StandardClass(name: "NSNull", classes: ["NSNull", "NSObject"])).uid
        }
        return table.nullUID
    }

    /// Reserves a new object of `kind`, with its class entry.
    @inline(__always)
    func makeObject(kind: ObjectBox.Kind, className: StandardClass? = nil) -> (box: ObjectBox, uid: Int32) {
        let handle = makeHandle(kind: kind, className: className)
        return (box(handle), handle.uid)
    }

    /// ``makeObject(kind:className:)`` as a handle: no box, which would retain the table
    /// (the containers keep handles).
    func makeHandle(kind: ObjectBox.Kind, className: StandardClass? = nil) -> OpenHandle {
        let table = table
        let opened = table.openEntry(kind: kind) {
            if let className { return table.classUID(className) }
            if kind == .fields, let valueType { return valueClassUID > 0 ? valueClassUID : valueClass(of: valueType) }
            return table.classUID(kind == .array ? .array : .dictionary)
        }
        return OpenHandle(uid: opened.uid, kind: kind, level: opened.level)
    }

    /// The class entry of `type`, the value type being encoded, kept for its next objects
    /// when it is a plain value type (see `valueClassUID`).
    private func valueClass(of type: Any.Type) -> Int32 {
        let uid = table.classUID(for: type)
        if valueClassUID == 0 {
            table.plainValueTypes.update(UInt64(UInt(bitPattern: ObjectIdentifier(type))), Int(uid))
            valueClassUID = uid
        }
        return uid
    }

    /// The value being encoded opened its object `uid`: reported to a patch, and recorded
    /// as the UID of a pending ``ArchiveReferenceDecodable`` instance.
    @inline(__always)
    private func opened(_ uid: Int32) {
        applyPatch(uid)
        if let reference = pendingReference {
            table.instanceUIDs[reference] = uid
            pendingReference = nil
        }
    }

    /// Writes `uid` where a `superEncoder(forKey:)` encoder's value belongs.
    func applyPatch(_ uid: Int32) {
        switch patch {
        case .field(let box, let offset)?: box.setUID(uid, atField: offset)
        case .element(let box, let index)?: box.setElement(uid, at: index)
        case nil: break
        }
    }

    // MARK: - Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed(let handle) = target {
            // A second request (a class and its superclass) shares one object.
            return ArchiveKeyedEncodingContainer<Key>.handOut(encoder: self, object: handle, frame: currentFrame, path: pathNode)
        }
        // Without a type of its own (superEncoder(forKey:)) a keyed container is an NSDictionary.
        let handle = makeHandle(kind: valueType == nil ? .dictionary : .fields)
        target = .keyed(handle)
        opened(handle.uid)
        return ArchiveKeyedEncodingContainer<Key>.handOut(encoder: self, object: handle, frame: currentFrame, path: pathNode)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed(let handle) = target {
            return ArchiveUnkeyedEncodingContainer(encoder: self, object: handle, path: pathNode)
        }
        let handle = makeHandle(kind: .array)
        target = .unkeyed(handle)
        opened(handle.uid)
        return ArchiveUnkeyedEncodingContainer(encoder: self, object: handle, path: pathNode)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The UID of a scalar stored as its own object (array elements, dictionary values).
    @inline(__always)
    func objectUID(_ value: ObjectBox.Value) -> Int32 {
        switch value {
        case .uid(let u): return u
        case .integer(let i): return table.integer(i)
        case .real(let d): return table.real(d)
        case .float(let f): return table.float(f)
        case .bool(let b): return table.bool(b)
        case .data(let d): return table.data(d)
        }
    }
}

/// Foundation classes the encoder writes, with their `$classes` chains as Foundation writes them.
struct StandardClass {
    let name: String
    let classes: [String]
    /// For the classes below (written once per value of their kind): where the object
    /// table caches their class entry and field-key ids, so that no name is hashed per object.
    let slot: Int?

    init(name: String, classes: [String]) {
        self.init(name: name, classes: classes, slot: nil)
    }

    private init(name: String, classes: [String], slot: Int?) {
        self.name = name
        self.classes = classes
        self.slot = slot
    }

    /// Slots `0..<slotCount`.
    static let slotCount = 7
    static let array = StandardClass(name: "NSArray", classes: ["NSArray", "NSObject"], slot: 0)
    static let set = StandardClass(name: "NSSet", classes: ["NSSet", "NSObject"], slot: 1)
    static let dictionary = StandardClass(name: "NSDictionary", classes: ["NSDictionary", "NSObject"], slot: 2)
    static let date = StandardClass(name: "NSDate", classes: ["NSDate", "NSObject"], slot: 3)
    static let url = StandardClass(name: "NSURL", classes: ["NSURL", "NSObject"], slot: 4)
    static let uuid = StandardClass(name: "NSUUID", classes: ["NSUUID", "NSObject"], slot: 5)
    static let decimalNumber = StandardClass(
        name: "NSDecimalNumber", classes: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"], slot: 6)
}

// MARK: - Single value container

extension _ArchiveEncoder: SingleValueEncodingContainer {
    @inline(__always)
    private func setValue(_ uid: Int32) {
        target = .value(uid)
        applyPatch(uid)
    }

    func encodeNil() throws { setValue(0) }
    func encode(_ value: Bool) throws { setValue(table.bool(value)) }
    func encode(_ value: String) throws { setValue(table.string(value)) }
    func encode(_ value: Double) throws { setValue(try realUID(value, at: pathNode)) }
    func encode(_ value: Float) throws { setValue(try realUID(value, at: pathNode)) }
    func encode(_ value: Int) throws { setValue(table.integer(Int64(value))) }
    func encode(_ value: Int8) throws { setValue(table.integer(Int64(value))) }
    func encode(_ value: Int16) throws { setValue(table.integer(Int64(value))) }
    func encode(_ value: Int32) throws { setValue(table.integer(Int64(value))) }
    func encode(_ value: Int64) throws { setValue(table.integer(value)) }
    func encode(_ value: UInt) throws { setValue(table.unsignedInteger(UInt64(value))) }
    func encode(_ value: UInt8) throws { setValue(table.integer(Int64(value))) }
    func encode(_ value: UInt16) throws { setValue(table.integer(Int64(value))) }
    func encode(_ value: UInt32) throws { setValue(table.integer(Int64(value))) }
    func encode(_ value: UInt64) throws { setValue(table.unsignedInteger(value)) }
    /// `Int128` and `UInt128` (see ArchiveEncoder+Int128.swift).
    func encode(wide value: PropertyListWideInteger) throws { setValue(table.wideInteger(value)) }
    func encode<T: Encodable>(_ value: T) throws {
        // At this encoder's own path: in the current frame.
        let frame = currentFrame
        setValue(try box(value, path: { pathNode }) { _ in frame })
    }
}
