import Foundation

/// The two layouts a keyed value has in real archives. Not nested in the (generic) keyed
/// container: a generic nested type's metadata is a runtime lookup on every use.
enum ArchiveKeyedLayout {
    /// An object's own dictionary: keys are strings, values inline or UIDs.
    case fields(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList)
    /// NSDictionary: `NS.keys` and `NS.objects`, both arrays of UIDs, or the lists gathered
    /// from its numbered layout (read them with `_ArchiveDecoder.entryRef(_:_:)`).
    case dictionary(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList)

    /// Opens the object at `slot` as a keyed value: an NSDictionary's entries, or any other
    /// object's (or inline dictionary's) fields. Foundation collections that are not
    /// dictionaries (NSArray, NSSet…) are not keyed values, and NSString, NSData and NSDate
    /// objects are not a `Dictionary` (`asDictionary`) of their fields. With a Key type's
    /// `memo`, an object laid out like one it opened before is opened without the checks it
    /// passed (see `KeyedObjectMemo.swift`), and one opened in full is remembered.
    static func open(_ slot: ArchiveSlot, decoder: _ArchiveDecoder, path: @autoclosure () -> CodingPathNode, asDictionary: Bool = false,
                     memo: KeyRefCache? = nil) throws -> (ArchiveKeyedLayout, Int) {
        if let memo, case .uid(let uid) = slot, let (keys, values) = decoder.memoizedFields(uid, memo: memo) {
            // What `object(in:expecting:at:)` charges for the read.
            try decoder.reading(slot, path()) { try decoder.charge(1) }
            return (.fields(keys: keys, values: values), uid)
        }
        let object = try decoder.object(in: slot, expecting: [String: Any].self, at: path())
        guard case .dictionary(let keys, let values) = object else {
            throw decoder.typeMismatch([String: Any].self, found: object, slot: slot, at: path())
        }
        let uid = slot.objectIndex
        guard case .uid = slot else { return (.fields(keys: keys, values: values), uid) }
        guard let chain = try decoder.archivedClass(keys: keys, values: values, slot: slot, at: path()) else {
            throw decoder.corrupted(at: path(), slot: slot, "object has no $class, so it is not an archived object")
        }
        switch chain.keyedLayout {
        case .fields:
            if let memo { decoder.rememberFields(keys: keys, values: values, memo: memo) }
            return (.fields(keys: keys, values: values), uid)
        case .foundationValue where !asDictionary: return (.fields(keys: keys, values: values), uid)
        case .notKeyed, .foundationValue: throw decoder.typeMismatch([String: Any].self, found: object, slot: slot, at: path())
        case .dictionary: break
        }
        return try decoder.reading(slot, path()) {
            if try decoder.fieldIndex(of: "NS.keys", keys: keys) == nil, try decoder.fieldIndex(of: "NS.objects", keys: keys) == nil {
                // NSKnownKeysDictionary1 (Core Data), the numbered layout (`NS.key.0`,
                // `NS.object.0`, …), an empty one, or a layout not known here: an error.
                if let (keyList, objectList) = try decoder.knownKeysDictionary(keys: keys, values: values, owner: uid) {
                    return (.dictionary(keys: keyList, values: objectList), uid)
                }
                let (keyList, objectList) = try decoder.numberedDictionary(keys: keys, values: values, owner: uid)
                if keyList.count == 0 {
                    try decoder.requireKnownLayout(chain, keys: keys, owner: uid, layoutUses: FoundationClassKind.dictionary.layoutUses)
                }
                return (.dictionary(keys: keyList, values: objectList), uid)
            }
            guard let keysIndex = try decoder.fieldIndex(of: "NS.keys", keys: keys),
                  let objectsIndex = try decoder.fieldIndex(of: "NS.objects", keys: keys),
                  case .array(let keyList) = try decoder.readObject(try decoder.plist.ref(values, keysIndex)),
                  case .array(let objectList) = try decoder.readObject(try decoder.plist.ref(values, objectsIndex))
            else {
                throw decoder.corrupted(at: path(), slot: slot, "\(chain.name) needs NS.keys and NS.objects arrays")
            }
            guard keyList.count == objectList.count else {
                throw decoder.corrupted(at: path(), slot: slot, "dictionary has \(keyList.count) keys but \(objectList.count) objects")
            }
            return (.dictionary(keys: keyList, values: objectList), uid)
        }
    }
}
