import Foundation

/// NSDictionary's numbered layout (`NS.key.0`/`NS.object.0`, `NS.key.1`/…), written through
/// an archiver other than `NSKeyedArchiver` itself (SceneKit's `SCNKeyedArchiver`).
///
/// Its entries are gathered once per object into two reference lists that every typed
/// path reads exactly as it reads `NS.keys` and `NS.objects`: a gathered list is a
/// ``BinaryPropertyList/RefList`` with a negative `start` naming its place in
/// `gatheredRefs`, read through ``_ArchiveDecoder/entryRef(_:_:)``. (Its starts are far
/// below zero, so the caches keyed by a list's start or by `-1 - start` never meet an
/// offset in the file.)
extension _ArchiveDecoder {
    private static let gatheredBase = -(1 << 40)

    /// Reference `index` of an NSDictionary's key or value list, gathered or in the file.
    @inline(__always)
    func entryRef(_ list: BinaryPropertyList.RefList, _ index: Int) throws -> Int {
        guard list.start < 0 else { return try plist.ref(list, index) }
        let position = Self.gatheredBase - list.start
        guard position >= 0, position < state.gatheredRefs.count, index >= 0, index < state.gatheredRefs[position].count else {
            throw KeyedArchiveError("dictionary entry \(index) is out of range")
        }
        return state.gatheredRefs[position][index]
    }

    /// The key and value lists of the numbered NSDictionary whose fields are `keys` and
    /// `values`: `NS.key.N` and `NS.object.N` for N from 0 until `NS.key.N` is missing
    /// (an empty dictionary has none). One charge per entry, O(1) per lookup (large objects
    /// are indexed), once per object. A key without its `NS.object.N`, or an
    /// `NS.object.N` beyond the last key, throws naming the object and key.
    func numberedDictionary(keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList, owner: Int) throws -> (BinaryPropertyList.RefList, BinaryPropertyList.RefList) {
        if let known = state.numberedDictionaries[owner] { return known }
        var keyRefs: [Int] = []
        var valueRefs: [Int] = []
        while keyRefs.count < keys.count, let keyIndex = try fieldIndex(of: "NS.key.\(keyRefs.count)", keys: keys) {
            try charge(1)
            guard let valueIndex = try fieldIndex(of: "NS.object.\(keyRefs.count)", keys: keys) else {
                throw KeyedArchiveError("NSDictionary has NS.key.\(keyRefs.count) but no NS.object.\(keyRefs.count)",
                                        objectIndex: owner, key: "NS.object.\(keyRefs.count)")
            }
            keyRefs.append(try plist.ref(values, keyIndex))
            valueRefs.append(try plist.ref(values, valueIndex))
        }
        if try fieldIndex(of: "NS.object.\(keyRefs.count)", keys: keys) != nil {
            throw KeyedArchiveError("NSDictionary has NS.object.\(keyRefs.count) but no NS.key.\(keyRefs.count)",
                                    objectIndex: owner, key: "NS.key.\(keyRefs.count)")
        }
        return gatheredDictionary(keyRefs: keyRefs, valueRefs: valueRefs, owner: owner)
    }

    /// Keeps the key and value references of the dictionary object `owner`, gathered from
    /// a layout other than `NS.keys`/`NS.objects`, as two lists read like those (see above).
    func gatheredDictionary(keyRefs: [Int], valueRefs: [Int], owner: Int) -> (BinaryPropertyList.RefList, BinaryPropertyList.RefList) {
        let first = Self.gatheredBase - state.gatheredRefs.count
        state.gatheredRefs.append(keyRefs)
        state.gatheredRefs.append(valueRefs)
        let lists = (BinaryPropertyList.RefList(start: first, count: keyRefs.count),
                     BinaryPropertyList.RefList(start: first - 1, count: valueRefs.count))
        state.numberedDictionaries[owner] = lists
        return lists
    }
}
