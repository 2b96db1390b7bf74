import Foundation

/// Reads the fields of one archived object, or the entries of an NSDictionary, by key.
///
/// Keys are found by comparing the stored key bytes in place; no dictionary is built
/// and no `String` is made for the keys that do not match.
///
/// Its state is one class instance: `KeyedDecodingContainer` copies the container on every
/// call, so one reference to retain beats several.
struct ArchiveKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let core: ArchiveKeyedContainerCore

    var decoder: _ArchiveDecoder { core.decoder }
    var layout: ArchiveKeyedLayout { core.layout }
    var uid: Int { core.uid }
    /// The container's coding path as a node, made once (see ``ArchiveKeyedContainerCore/node``).
    var path: CodingPathNode { core.node }
    var keyRefs: KeyRefCache { core.keyRefs }
    /// The texts of an NSDictionary's keys when they are not all plain strings.
    var keyTexts: [ArchiveKeyText]? { core.keyTexts }

    var codingPath: [any CodingKey] { decoder.codingPath(of: path) }

    @inline(__always)
    init(decoder: _ArchiveDecoder, slot: ArchiveSlot, path: CodingPathNode) throws {
        let keyRefs = decoder.keyRefCache(for: Key.self)
        let (layout, uid, keyTexts) = try Self.open(slot, decoder: decoder, path: path, memo: keyRefs)
        core = ArchiveKeyedContainerCore(decoder: decoder, layout: layout, uid: uid, path: DecodingPath(path), keyRefs: keyRefs, keyTexts: keyTexts)
    }

    init(core: ArchiveKeyedContainerCore) {
        self.core = core
    }

    /// The keyed value at `slot`: its layout, its object number, and the texts of an
    /// NSDictionary's keys when they are not all plain strings. `memo` is the Key type's
    /// cache (see `KeyedObjectMemo.swift`).
    @inline(__always)
    static func open(_ slot: ArchiveSlot, decoder: _ArchiveDecoder, path: @autoclosure () -> CodingPathNode, memo: KeyRefCache) throws -> (ArchiveKeyedLayout, Int, [ArchiveKeyText]?) {
        let (layout, uid) = try ArchiveKeyedLayout.open(slot, decoder: decoder, path: path(), memo: memo)
        var keyTexts: [ArchiveKeyText]?
        if case .dictionary(let keys, _) = layout, case .texts(let texts) = try decoder.dictionaryKeys(keys, owner: uid, at: path()) {
            keyTexts = texts
        }
        return (layout, uid, keyTexts)
    }

    // MARK: - Finding keys

    /// The slot of `key`, or nil when the object has no such key.
    @inline(__always)
    func find(_ key: Key) throws -> ArchiveSlot? {
        // A key of plain bits (a compiler-written `CodingKeys`) is told by its bits, and its
        // value read when nothing about it is unusual; anything else, errors included, is
        // found again by name below.
        if let bits = PlainCodingKey(key)?.bits, let slot = core.quickField(bits: bits) { return slot }
        let name = key.stringValue
        do {
            if let slot = try core.knownField(name) { return slot }
            return try find(stringValue: name, key: key)
        } catch {
            throw decoder.readingFailure(error, slot: .uid(uid), at: path.appending(key))
        }
    }

    /// ``find(_:)`` when the Key type's cache does not know where the key is.
    private func find(stringValue: String, key: Key) throws -> ArchiveSlot? {
        if keyRefs.convertsKeys { return try findConverted(stringValue) }
        switch layout {
        case .fields(let keys, let values):
            // A user key that begins with `$` is stored escaped (`$$0`) by Foundation and by
            // us; other writers (Go's archiver) store `$0` as it is. (Two calls, not one with
            // the stored form chosen: the key is then passed as it is, not copied.)
            let found: Int?
            if ArchiveKeyEscaping.isEscaped(stringValue) {
                found = try fieldPosition(ArchiveKeyEscaping.escape(stringValue), keys: keys)
                    ?? (stringValue != "$class" ? fieldPosition(stringValue, keys: keys) : nil)
            } else {
                found = try fieldPosition(stringValue, keys: keys)
                // Where the next object of this Key type will most likely have it.
                if let found {
                    keyRefs.record(stringValue, ref: try decoder.plist.ref(keys, found), position: found, keyBits: PlainCodingKey(key)?.bits)
                }
            }
            guard let index = found else { return nil }
            return try decoder.slot(forValueAt: try decoder.plist.ref(values, index), owner: uid)
        case .dictionary(let keys, let values):
            if let keyTexts {
                // By text, then (a CodingKey whose stringValue is not the digits) by integer.
                guard let index = try textPosition(stringValue, keys: keys, texts: keyTexts)
                        ?? key.intValue.flatMap({ wanted in keyTexts.firstIndex { $0.integer == wanted } })
                else { return nil }
                return try decoder.slot(forValueAt: try decoder.entryRef(values, index), owner: uid)
            }
            guard let index = try entryPosition(stringValue, keys: keys) else { return nil }
            return try decoder.slot(forValueAt: try decoder.entryRef(values, index), owner: uid)
        }
    }

    /// The position of a stored field name. Small objects are scanned from where the last
    /// match left off (fields are usually read in the order they were written), first for
    /// the key string this Key type matched before (by reference), then byte by byte;
    /// large ones use the decode's index of their keys.
    private func fieldPosition(_ stored: String, keys: BinaryPropertyList.RefList) throws -> Int? {
        let count = keys.count
        guard count > 0 else { return nil }
        guard count <= _ArchiveDecoder.scanLimit else { return try decoder.largeFieldIndex(keys)[stored] }
        let start = decoder.fieldHint < count ? decoder.fieldHint : 0
        guard let found = try decoder.smallKeyPosition(keys, stored, cache: keyRefs, from: start) else { return nil }
        decoder.fieldHint = found + 1
        return found
    }

    /// The position of a key among an NSDictionary's `NS.keys` (UIDs of strings): scanned
    /// when small, indexed once per decode when large.
    private func entryPosition(_ name: String, keys: BinaryPropertyList.RefList) throws -> Int? {
        let plist = decoder.plist
        if keys.count <= _ArchiveDecoder.scanLimit {
            for i in 0..<keys.count {
                guard let keyUID = try decoder.uid(at: try decoder.entryRef(keys, i)) else { continue }
                if try plist.stringEquals(try decoder.objectRef(keyUID), name) { return i }
            }
            return nil
        }
        // NS.keys lists live at other offsets than any object's own keys, so one cache
        // serves both (negative offsets keep them apart all the same).
        let cacheKey = -1 - keys.start
        if let index = decoder.state.fieldIndexes[cacheKey] { return index[name] }
        try decoder.charge(keys.count)
        var index: [String: Int] = [:]
        index.reserveCapacity(keys.count)
        for i in 0..<keys.count {
            guard let keyUID = try decoder.uid(at: try decoder.entryRef(keys, i)),
                  let key = try decoder.keyString(at: try decoder.objectRef(keyUID)) else { continue }
            if index[key] == nil { index[key] = i }
        }
        decoder.state.fieldIndexes[cacheKey] = index
        return index[name]
    }

    /// The position of the key whose text is `name` (keys that are not all plain strings):
    /// scanned when small, indexed once per decode when large.
    private func textPosition(_ name: String, keys: BinaryPropertyList.RefList, texts: [ArchiveKeyText]) throws -> Int? {
        if texts.count <= _ArchiveDecoder.scanLimit { return texts.firstIndex { $0.text == name } }
        let cacheKey = -1 - keys.start
        if let index = decoder.state.fieldIndexes[cacheKey] { return index[name] }
        try decoder.charge(texts.count)
        var index: [String: Int] = [:]
        index.reserveCapacity(texts.count)
        for (i, key) in texts.enumerated() where index[key.text] == nil { index[key.text] = i }
        decoder.state.fieldIndexes[cacheKey] = index
        return index[name]
    }

    /// The slot of `key`, throwing `keyNotFound` when absent.
    @inline(__always)
    private func require(_ key: Key) throws -> ArchiveSlot {
        guard let slot = try find(key) else { throw keyNotFound(key) }
        return slot
    }

    /// "No value for key 'NS.userInfo' in object 1 (its keys: NS.name, NS.userinfo; did you
    /// mean 'NS.userinfo'?)." At most 20 keys are listed.
    @inline(never)
    private func keyNotFound(_ key: Key) -> DecodingError {
        let names = storedKeyNames(limit: 21)
        var list = names.prefix(20).joined(separator: ", ")
        if names.count > 20 { list += ", …" }
        var hint = ""
        let wanted = key.stringValue.lowercased()
        if let match = names.first(where: { $0.lowercased() == wanted }) { hint = "; did you mean '\(match)'?" }
        let place = uid < 0 ? "$top" : "object \(uid)"
        let keys = decoder.codingPath(of: path)
        let path = path.dotted
        return .archive(.keyNotFound(key),
            "No value for key '\(TextExcerpt.of(key.stringValue))' in \(place)\(path.isEmpty ? "" : " at '\(path)'") (its keys: \(names.isEmpty ? "none" : list)\(hint))",
            codingPath: keys, objectIndex: uid < 0 ? nil : uid, key: key.stringValue)
    }

    /// Up to `limit` of the object's key names, unescaped, in stored order.
    private func storedKeyNames(limit: Int) -> [String] {
        var names: [String] = []
        let plist = decoder.plist
        switch layout {
        case .fields(let keys, _):
            for i in 0..<min(keys.count, limit + 1) {
                guard let stored = try? decoder.keyString(at: try plist.ref(keys, i)),
                      let name = ArchiveKeyEscaping.unescape(stored) else { continue }
                names.append(TextExcerpt.of(name))
            }
        case .dictionary(let keys, _):
            if let keyTexts { return keyTexts.prefix(limit).map(\.text) }
            for i in 0..<min(keys.count, limit) {
                guard let keyUID = try? decoder.uid(at: try decoder.entryRef(keys, i)),
                      let ref = try? decoder.objectRef(keyUID),
                      let name = try? decoder.keyString(at: ref) else { continue }
                names.append(TextExcerpt.of(name))
            }
        }
        return Array(names.prefix(limit))
    }

    var allKeys: [Key] {
        if keyRefs.convertsKeys { return convertedAllKeys }
        let plist = decoder.plist
        var result: [Key] = []
        switch layout {
        case .fields(let keys, _), .dictionary(let keys, _):
            // Listing keys is work like any other: charged, so repeated listing of a large
            // shared object runs out the budget (the next read throws).
            decoder.state.remainingObjects -= keys.count
        }
        switch layout {
        case .fields(let keys, _):
            for i in 0..<keys.count {
                guard let name = try? decoder.userKey(at: try plist.ref(keys, i)),
                      let key = Key(stringValue: name) else { continue }
                result.append(key)
            }
        case .dictionary(let keys, _):
            // Every entry: an integer key as `Key(intValue:)` when the Key type has one.
            if let keyTexts {
                for text in keyTexts {
                    guard let key = text.integer.flatMap(Key.init(intValue:)) ?? Key(stringValue: text.text) else { continue }
                    result.append(key)
                }
                return result
            }
            for i in 0..<keys.count {
                guard let keyUID = try? decoder.uid(at: try decoder.entryRef(keys, i)),
                      let ref = try? decoder.objectRef(keyUID),
                      let name = try? decoder.keyString(at: ref),
                      let key = Key(stringValue: name) else { continue }
                result.append(key)
            }
        }
        return result
    }

    func contains(_ key: Key) -> Bool { (try? find(key)) != nil }

    /// A missing key and UID 0 both read as nil.
    func decodeNil(forKey key: Key) throws -> Bool {
        guard let slot = try find(key) else { return true }
        return decoder.isNil(slot)
    }

    // MARK: - Values

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.unboxBool(from: try require(key), at: path.appending(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.unboxString(from: try require(key), at: path.appending(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.unboxDouble(from: try require(key), at: path.appending(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.unboxFloat(from: try require(key), at: path.appending(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.unboxInteger(type, from: try require(key), at: path.appending(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(type, from: try require(key), at: DecodingPath(path, key: key))
    }

    // `decodeIfPresent` looks the key up once (the default implementation does it three times).

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let slot = try present(key) else { return nil }
        return try decoder.unboxBool(from: slot, at: path.appending(key))
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let slot = try present(key) else { return nil }
        return try decoder.unboxString(from: slot, at: path.appending(key))
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let slot = try present(key) else { return nil }
        return try decoder.unboxDouble(from: slot, at: path.appending(key))
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let slot = try present(key) else { return nil }
        return try decoder.unboxFloat(from: slot, at: path.appending(key))
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optionalInteger(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let slot = try present(key) else { return nil }
        return try decoder.unbox(type, from: slot, at: DecodingPath(path, key: key))
    }

    /// The slot of `key` unless it is missing or nil.
    @inline(__always)
    private func present(_ key: Key) throws -> ArchiveSlot? {
        guard let slot = try find(key), !decoder.isNil(slot) else { return nil }
        return slot
    }

    @inline(__always)
    func optionalInteger<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let slot = try present(key) else { return nil }
        return try decoder.unboxInteger(type, from: slot, at: path.appending(key))
    }

    // MARK: - Nesting

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ArchiveKeyedDecodingContainer<NestedKey>.handOut(decoder: decoder, slot: try require(key), path: DecodingPath(path, key: key))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ArchiveUnkeyedDecodingContainer(decoder: decoder, slot: try require(key), path: DecodingPath(path, key: key))
    }

    /// The superclass's fields are in this same object, as `superEncoder()` writes them.
    func superDecoder() throws -> any Decoder {
        decoder.subDecoder(slot: .uid(uid), path: DecodingPath(path, key: ArchiveCodingKey.super))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.subDecoder(slot: try find(key) ?? .uid(0), path: DecodingPath(path, key: key))
    }
}

/// The state of an ``ArchiveKeyedDecodingContainer``, whatever its Key type.
///
/// Its fields change only when a container that nobody holds any more is handed out again
/// for another object (see `KeyedContainerReuse.swift`).
final class ArchiveKeyedContainerCore {
    @exclusivity(unchecked) var decoder: _ArchiveDecoder
    @exclusivity(unchecked) var layout: ArchiveKeyedLayout
    @exclusivity(unchecked) var uid: Int
    /// The container's coding path (its last key not yet a node: see ``DecodingPath``).
    @exclusivity(unchecked) var path: DecodingPath
    /// The key strings' references this Key type matched before (see `KeyRefCache`).
    let keyRefs: KeyRefCache
    /// The texts of an NSDictionary's keys when they are not all plain strings.
    @exclusivity(unchecked) var keyTexts: [ArchiveKeyText]?

    init(decoder: _ArchiveDecoder, layout: ArchiveKeyedLayout, uid: Int, path: DecodingPath, keyRefs: KeyRefCache,
         keyTexts: [ArchiveKeyText]?) {
        self.keyTexts = keyTexts
        self.decoder = decoder
        self.layout = layout
        self.uid = uid
        self.path = path
        self.keyRefs = keyRefs
    }

    /// The coding path as a node, made once for the container's nested values and errors.
    var node: CodingPathNode { path.settle() }

    /// The slot of the field whose user key is `name` when the Key type's cache knows
    /// where it is (see ``KeyRefCache/knownPosition(of:keys:bytes:refSize:)``); nil when it
    /// does not (the caller then searches: nil says nothing about the key being absent).
    /// Not generic, but inlined into the container's `decode` methods (a call less per
    /// field); no key conversion (a Key type whose keys are converted never has positions
    /// remembered).
    @inline(__always)
    func knownField(_ name: String) throws -> ArchiveSlot? {
        guard case .fields(let keys, let values) = layout else { return nil }
        // No call until the slot is known, so the decoder is read, not retained.
        let decoder = self.decoder
        let bytes = decoder.plist.bytes, refSize = decoder.plist.refSize
        let position = keyRefs.knownPosition(of: name, keys: keys, bytes: bytes, refSize: refSize)
        guard position >= 0 else { return nil }
        if let slot = quickValue(at: position, values: values, decoder: decoder) { return slot }
        return try decoder.slot(forValueAt: try decoder.plist.ref(values, position), owner: uid)
    }

    /// ``knownField(_:)`` for a key of plain bits, told by its `bits` (see
    /// ``KeyRefCache/knownPosition(bits:keys:bytes:refSize:)``), without its errors: nil
    /// also when the value is anything ``_ArchiveDecoder/quickSlot(forValueAt:owner:)``
    /// does not answer, for the caller to find by name (which throws what it always threw).
    @inline(__always)
    func quickField(bits: UInt64) -> ArchiveSlot? {
        guard case .fields(let keys, let values) = layout else { return nil }
        let decoder = self.decoder
        let position = keyRefs.knownPosition(bits: bits, keys: keys, bytes: decoder.plist.bytes, refSize: decoder.plist.refSize)
        guard position >= 0 else { return nil }
        return quickValue(at: position, values: values, decoder: decoder)
    }

    /// The slot of the value at `position` of `values` (a position among the object's
    /// keys) when ``_ArchiveDecoder/quickSlot(forValueAt:owner:)`` answers it.
    @inline(__always)
    private func quickValue(at position: Int, values: BinaryPropertyList.RefList, decoder: _ArchiveDecoder) -> ArchiveSlot? {
        // The value's reference, checked here as `plist.ref` checks it.
        let ref = BinaryPropertyList.refBits(values, position, in: decoder.plist.bytes, refSize: decoder.plist.refSize)
        guard ref < UInt64(decoder.plist.objectCount) else { return nil }
        return decoder.quickSlot(forValueAt: Int(ref), owner: uid)
    }
}
