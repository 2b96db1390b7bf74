import Foundation

/// The rule that no collection reads as silently empty: an object whose class chain says
/// dictionary, array or set, in which none of the layouts the decoder reads finds an
/// element, is empty only when it has no fields of another layout. Otherwise its layout is
/// one the decoder does not know, and reading it throws naming its class and object index.
extension _ArchiveDecoder {
    /// Throws when the collection object `owner` of class `chain`, read as empty, has a
    /// field (other than `$class`) that `layoutUses` does not name. Called only for an
    /// empty result, so large collections never pay for it.
    func requireKnownLayout(_ chain: ArchivedClassChain, keys: BinaryPropertyList.RefList, owner: Int,
                            layoutUses: (String) -> Bool) throws {
        var unknown: [String] = []
        for position in 0..<keys.count {
            guard let name = try userKey(at: try plist.ref(keys, position)), !layoutUses(name) else { continue }
            unknown.append(name)
        }
        guard let first = unknown.min() else { return }
        let shown = unknown.sorted().prefix(5).joined(separator: ", ") + (unknown.count > 5 ? ", …" : "")
        throw KeyedArchiveError("\(chain.name) is a \(chain.collectionNoun) in a layout the decoder does not know (fields \(shown)); it is not read as empty",
                                objectIndex: owner, key: first)
    }
}

extension ArchivedClassChain {
    /// What the chain says the object is, for messages.
    var collectionNoun: String {
        if keyedLayout == .dictionary { return "dictionary" }
        switch unkeyedLayout {
        case .countedSet: return "counted set"
        case .orderedSet: return "ordered set"
        case .list, .none: return classes.contains(where: { $0 == "NSSet" || $0 == "NSMutableSet" }) ? "set" : "array"
        }
    }
}
