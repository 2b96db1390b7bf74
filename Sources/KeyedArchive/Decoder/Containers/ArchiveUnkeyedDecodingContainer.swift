import Foundation

/// Reads the elements of an NSArray, NSSet (`NS.objects`) or NSOrderedSet
/// (`NS.object.0`, `NS.object.1`, …), in order.
struct ArchiveUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    /// Where the elements are.
    enum Elements {
        /// An array of references (each normally a UID).
        case list(BinaryPropertyList.RefList)
        /// NSOrderedSet's numbered keys or NSCountedSet's objects, resolved to slots.
        case slots([ArchiveSlot])
        /// An NSDictionary's keys and values, alternately (`NS.keys[0]`, `NS.objects[0]`, …):
        /// what `Dictionary.init(from:)` asks for when its key is not `String` or `Int`, and
        /// what an ``ArchiveKeyValuePairsDecodable`` type reads.
        case pairs(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList)
    }

    let decoder: _ArchiveDecoder
    let elements: Elements
    let uid: Int
    /// The container's coding path (its last key not yet a node: see ``DecodingPath``).
    private(set) var path: DecodingPath
    private(set) var currentIndex = 0
    let count: Int?

    var codingPath: [any CodingKey] { decoder.codingPath(of: path.node) }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    /// An unkeyed container over the value at `slot`, opened by the `init(from:)` of
    /// `askedBy` (nil for a nested container or the decoder's own readers). An NSDictionary
    /// reads as its keys and values alternately only when that type asks for them (see
    /// ``DecodableTraits/readsPairs(_:)``, found once per type); for any other it is
    /// `typeMismatch`, as from `JSONDecoder`.
    init(decoder: _ArchiveDecoder, slot: ArchiveSlot, path: DecodingPath, askedBy: Any.Type? = nil) throws {
        self.decoder = decoder
        self.path = path
        uid = slot.objectIndex
        elements = try decoder.reading(slot, path.node) { try Self.elements(of: slot, decoder: decoder, path: path.node, askedBy: askedBy) }
        switch elements {
        case .list(let list): count = list.count
        case .slots(let slots): count = slots.count
        case .pairs(let keys, _): count = keys.count * 2
        }
    }

    /// ``init(decoder:slot:path:askedBy:)`` at a path that is a node already.
    init(decoder: _ArchiveDecoder, slot: ArchiveSlot, path: CodingPathNode, askedBy: Any.Type? = nil) throws {
        try self.init(decoder: decoder, slot: slot, path: DecodingPath(path), askedBy: askedBy)
    }

    /// The elements of an NSArray or NSSet (`NS.objects`), an NSOrderedSet (`NS.object.N`),
    /// the distinct objects of an NSCountedSet, a plain plist array, or the entries of an
    /// NSDictionary for a type that asks for them. Any other object — an NSDictionary for
    /// another type, an object of another class — is not an array: `typeMismatch`.
    private static func elements(of slot: ArchiveSlot, decoder: _ArchiveDecoder, path: @autoclosure () -> CodingPathNode, askedBy: Any.Type?) throws -> Elements {
        if let list = decoder.fastList(slot) { return .list(list) }
        let object = try decoder.object(in: slot, expecting: [Any].self, at: path())
        let plist = decoder.plist
        switch object {
        case .array(let list):
            return .list(list)  // a plain plist array, as some writers store
        case .dictionary(let keys, let values):
            guard case .uid = slot,
                  let chain = try decoder.archivedClass(keys: keys, values: values, slot: slot, at: path()) else { break }
            // NSCountedSet is an NSMutableSet subclass with a layout of its own: first.
            if chain.unkeyedLayout == .countedSet,
               let entries = try countedSetEntries(of: slot, decoder: decoder, path: path()) {
                return .slots(entries.map(\.object))
            }
            if chain.unkeyedLayout == .list, let index = try decoder.fieldIndex(of: "NS.objects", keys: keys) {
                guard case .array(let list) = try decoder.readObject(try plist.ref(values, index)) else {
                    throw decoder.corrupted(at: path(), slot: slot, "\(chain.name) needs an NS.objects array")
                }
                if decoder.state.listShape.classUID == 0 {
                    decoder.learnShape(&decoder.state.listShape, keys: keys, values: values)
                }
                return .list(list)
            }
            if chain.keyedLayout == .dictionary {
                guard let askedBy, decoder.traits(of: askedBy).readsPairs else {
                    throw decoder.dictionaryRefused(chain, askedBy: askedBy, slot: slot, at: path())
                }
                if case (.dictionary(let keys, let values), _) = try ArchiveKeyedLayout.open(slot, decoder: decoder, path: path()) {
                    return .pairs(keys: keys, values: values)
                }
            }
            if chain.unkeyedLayout == .orderedSet || chain.unkeyedLayout == .list {
                // NS.object.0 … NS.object.(n-1); an empty one has no such key. (NSArray and
                // NSSet write this layout too, for an archiver other than NSKeyedArchiver
                // itself: SceneKit's SCNKeyedArchiver.) Each lookup is O(1) (large objects
                // are indexed), so any key order costs the same; the list is found once per
                // object, however many places refer to it.
                if let known = decoder.state.orderedSetSlots[slot.objectIndex] { return .slots(known) }
                var slots: [ArchiveSlot] = []
                while slots.count < keys.count,
                      let slot = try decoder.field("NS.object.\(slots.count)", keys: keys, values: values, owner: slot.objectIndex) {
                    try decoder.charge(1)
                    slots.append(slot)
                }
                if slots.isEmpty {
                    try decoder.requireKnownLayout(chain, keys: keys, owner: slot.objectIndex, layoutUses: FoundationClassKind.array.layoutUses)
                }
                decoder.state.orderedSetSlots[slot.objectIndex] = slots
                return .slots(slots)
            }
        default:
            break
        }
        throw decoder.typeMismatch([Any].self, found: object, slot: slot, at: path())
    }

    /// The entries of an NSCountedSet (`NS.object0`/`NS.count0`, …): each distinct object
    /// with the slot of its count; nil when `slot` is not an NSCountedSet.
    static func countedSetEntries(of slot: ArchiveSlot, decoder: _ArchiveDecoder, path: CodingPathNode) throws -> [(object: ArchiveSlot, count: ArchiveSlot)]? {
        guard case .uid(let uid) = slot, uid != 0 else { return nil }
        let object = try decoder.object(in: slot, expecting: [Any].self, at: path)
        guard case .dictionary(let keys, let values) = object,
              let chain = try decoder.archivedClass(keys: keys, values: values, slot: slot, at: path),
              chain.unkeyedLayout == .countedSet else { return nil }
        return try decoder.reading(slot, path) {
            var entries: [(object: ArchiveSlot, count: ArchiveSlot)] = []
            while entries.count < keys.count,
                  let object = try decoder.field("NS.object\(entries.count)", keys: keys, values: values, owner: uid) {
                try decoder.charge(1)
                guard let count = try decoder.field("NS.count\(entries.count)", keys: keys, values: values, owner: uid) else {
                    throw KeyedArchiveError("NSCountedSet has NS.object\(entries.count) but no NS.count\(entries.count)", objectIndex: uid, key: "NS.count\(entries.count)")
                }
                entries.append((object, count))
            }
            if entries.isEmpty {
                try decoder.requireKnownLayout(chain, keys: keys, owner: uid) { $0.hasPrefix("NS.object") || $0.hasPrefix("NS.count") }
            }
            return entries
        }
    }

    /// Every remaining element as a `String`: runs of plain short strings read in one loop
    /// (see `fastStrings(_:from:owner:into:)`), any other element through
    /// ``decode(_:)-(String.Type)``, with the same work, values and errors as reading each through it.
    mutating func collectStrings() throws -> [String] {
        guard case .list(let list) = elements else { return try collect { try $0.decode(String.self) } }
        var strings: [String] = []
        strings.reserveCapacity(Self.reservation(count: list.count, stride: MemoryLayout<String>.stride,
                                                 inputBytes: decoder.plist.bytes.count))
        while currentIndex < list.count {
            currentIndex = decoder.fastStrings(list, from: currentIndex, owner: uid, into: &strings)
            if currentIndex < list.count { strings.append(try decode(String.self)) }
        }
        return strings
    }

    /// The slot of the next element; throws at the end, or when the decode has used up
    /// its budget of values.
    private func nextSlot<T>(_ type: T.Type) throws -> ArchiveSlot {
        try decoder.countValue(at: nextPath, slot: .uid(uid))
        guard !isAtEnd else {
            throw DecodingError.archive(.valueNotFound(type), "Unkeyed container of object \(uid) is at its end (\(count ?? 0) elements)",
                                        codingPath: decoder.codingPath(of: nextPath), objectIndex: uid, key: nextPath.lastKeyName)
        }
        do {
            switch elements {
            case .list(let list): return try decoder.slot(forValueAt: try decoder.plist.ref(list, currentIndex), owner: uid)
            case .slots(let slots): return slots[currentIndex]
            case .pairs(let keys, let values):
                return try decoder.slot(forValueAt: try decoder.entryRef(currentIndex % 2 == 0 ? keys : values, currentIndex / 2), owner: uid)
            }
        } catch {
            throw decoder.corrupted(at: nextPath, slot: .uid(uid), "\(error)")
        }
    }

    /// The slot of the next element, moving past it (for readers that decode it themselves).
    mutating func nextElement() throws -> ArchiveSlot {
        let slot = try nextSlot(Never.self)
        currentIndex += 1
        return slot
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.isNil(try nextSlot(Never.self)) else { return false }
        currentIndex += 1
        return true
    }

    /// The path of the next element, for errors.
    private var nextPath: CodingPathNode { path.node.appending(index: currentIndex) }

    /// The path of the next element, for a value that stores it: this container's own
    /// path is made a node once, for all of its elements.
    private mutating func nextElementPath() -> DecodingPath {
        DecodingPath(path.settle(), index: currentIndex)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try decoder.unboxBool(from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try decoder.unboxString(from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let value = try decoder.unboxDouble(from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let value = try decoder.unboxFloat(from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let value = try decoder.unboxInteger(type, from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.unbox(type, from: try nextSlot(type), at: nextElementPath())
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try ArchiveKeyedDecodingContainer<NestedKey>.handOut(decoder: decoder, slot: try nextSlot(type), path: nextElementPath())
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try ArchiveUnkeyedDecodingContainer(decoder: decoder, slot: try nextSlot([Any].self), path: nextElementPath())
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let sub = decoder.subDecoder(slot: try nextSlot(Never.self), path: nextElementPath())
        currentIndex += 1
        return sub
    }
}

extension _ArchiveDecoder {
    /// The element list of the NSArray (or NSSet…) object at `slot` when it has the shape
    /// the general reader learned in this decode (see ``FoundationLeafShape``): two keys,
    /// `$class` naming the class entry learned and `NS.objects`, an array in place. Charged
    /// as the general reader charges it (the object read); nil for anything else, or when
    /// no work is left, and the general reader then reads the object.
    @inline(__always)
    func fastList(_ slot: ArchiveSlot) -> BinaryPropertyList.RefList? {
        let shape = state.listShape
        guard case .uid(let uid) = slot, shape.classUID != 0, state.remainingObjects >= 1,
              uid > 0, uid < objects.count, let ref = try? plist.ref(objects, uid),
              let field = plist.twoEntryValue(ref, classKey: shape.classKey, fieldKey: shape.fieldKey,
                                              classUID: UInt64(shape.classUID)),
              case .array(let list)? = try? readObject(field)
        else { return nil }
        state.remainingObjects -= 1
        return list
    }
}
