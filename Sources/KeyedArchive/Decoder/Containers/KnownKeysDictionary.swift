import Foundation

/// NSKnownKeysDictionary1, the NSMutableDictionary subclass Core Data writes into compiled
/// models (`.mom`): no `NS.keys`/`NS.objects`, but `values` (an NSArray), `searchMapping`
/// (an NSKnownKeysMappingStrategy1 object whose `keys` array lists the keys in the same
/// order), `emptyToken` (the object that marks an empty slot) and `version`.
///
/// Its entries are gathered once per object into the two lists every typed path reads (see
/// `NumberedDictionary.swift`); a slot holding the empty token is no entry.
extension _ArchiveDecoder {
    /// The key and value lists of the known-keys dictionary whose fields are `keys` and
    /// `values`, or nil when it has no `searchMapping` (another layout). One charge per
    /// slot; the mapping and the arrays are read one reference away, never recursively.
    /// A missing or malformed part throws naming the object and the field.
    func knownKeysDictionary(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList,
                             owner: Int) throws -> (BinaryPropertyList.RefList, BinaryPropertyList.RefList)? {
        guard let mappingIndex = try fieldIndex(of: "searchMapping", keys: keys) else { return nil }
        if let known = state.numberedDictionaries[owner] { return known }
        guard let valuesIndex = try fieldIndex(of: "values", keys: keys) else {
            throw KeyedArchiveError("NSKnownKeysDictionary1 has a searchMapping but no values", objectIndex: owner, key: "values")
        }
        let valueList = try knownKeysArray(at: try plist.ref(values, valuesIndex), owner: owner, field: "values")
        guard let mapping = try uid(at: try plist.ref(values, mappingIndex)), mapping != 0,
              case .dictionary(let mappingKeys, let mappingValues) = try readObject(try objectRef(mapping)),
              let keysIndex = try fieldIndex(of: "keys", keys: mappingKeys) else {
            throw KeyedArchiveError("NSKnownKeysDictionary1's searchMapping is not an object with a keys array", objectIndex: owner, key: "searchMapping")
        }
        let keyList = try knownKeysArray(at: try plist.ref(mappingValues, keysIndex), owner: mapping, field: "keys")
        guard keyList.count == valueList.count else {
            throw KeyedArchiveError("NSKnownKeysDictionary1 has \(valueList.count) values but its searchMapping (object \(mapping)) has \(keyList.count) keys",
                                    objectIndex: owner, key: "values")
        }
        let emptyToken = try fieldIndex(of: "emptyToken", keys: keys).flatMap { try uid(at: try plist.ref(values, $0)) } ?? 0
        var keyRefs: [Int] = []
        var valueRefs: [Int] = []
        for position in 0..<valueList.count {
            try charge(1)
            let valueRef = try plist.ref(valueList, position)
            if emptyToken != 0, try uid(at: valueRef) == emptyToken { continue }
            keyRefs.append(try plist.ref(keyList, position))
            valueRefs.append(valueRef)
        }
        return gatheredDictionary(keyRefs: keyRefs, valueRefs: valueRefs, owner: owner)
    }

    /// The references of an array field of a known-keys dictionary or its mapping: a plain
    /// array in place, or an object with an `NS.objects` array (an NSArray) one UID away.
    private func knownKeysArray(at ref: Int, owner: Int, field: String) throws -> BinaryPropertyList.RefList {
        var object = try readObject(ref)
        if let target = try uid(at: ref), target != 0,
           case .dictionary(let keys, let values) = try readObject(try objectRef(target)),
           let index = try fieldIndex(of: "NS.objects", keys: keys) {
            object = try readObject(try plist.ref(values, index))
        }
        guard case .array(let list) = object else {
            throw KeyedArchiveError("NSKnownKeysDictionary1's \(field) is not an array", objectIndex: owner, key: field)
        }
        return list
    }
}
