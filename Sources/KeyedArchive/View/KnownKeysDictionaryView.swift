import Foundation

/// Core Data's NSKnownKeysDictionary1 in the untyped view: `values` (an NSArray), and its
/// keys in the `keys` array of its `searchMapping` object (an NSKnownKeysMappingStrategy1),
/// in the same order; a value that is the `emptyToken` object marks an empty slot.
extension KeyedArchiveView {
    /// The fields of the known-keys layout, which are not fields a subclass adds.
    static let knownKeysFields: Set<String> = ["values", "searchMapping", "emptyToken", "version"]

    /// Whether a dictionary object has the known-keys layout (and not `NS.keys`).
    func isKnownKeysDictionary(_ object: ArchivedObject) -> Bool {
        object["searchMapping"] != nil && object["NS.keys"] == nil
    }

    /// The entries of a known-keys dictionary, empty slots left out; nil for another
    /// layout, or when its parts are missing or their counts differ.
    func knownKeysEntries(_ object: ArchivedObject) -> (keys: [ArchivedValue], values: [ArchivedValue])? {
        guard isKnownKeysDictionary(object), case .reference(let mapping)? = object["searchMapping"], mapping < objects.count,
              let keys = arrayField(objects[mapping]["keys"]), let values = arrayField(object["values"]),
              keys.count == values.count else { return nil }
        var entries: (keys: [ArchivedValue], values: [ArchivedValue]) = ([], [])
        let emptyToken = object["emptyToken"]
        for (key, value) in zip(keys, values) {
            if case .reference(let token)? = emptyToken, token != 0, value == .reference(token) { continue }
            entries.keys.append(key)
            entries.values.append(value)
        }
        return entries
    }

    /// An array in place, or the `NS.objects` of the object one reference away.
    private func arrayField(_ value: ArchivedValue?) -> [ArchivedValue]? {
        switch value {
        case .array(let items)?:
            return items
        case .reference(let index)? where index < objects.count:
            guard case .array(let items)? = objects[index]["NS.objects"] else { return nil }
            return items
        default:
            return nil
        }
    }
}
