import Foundation

extension _ArchiveDecoder {
    /// Objects with at most this many keys are searched by scanning; larger ones are
    /// indexed once per decode.
    static let scanLimit = 16

    /// The position of `name` among an object's keys (plain string keys, compared in place).
    ///
    /// O(1) per lookup: a small object is scanned (at most ``scanLimit`` comparisons); a
    /// large one is indexed once, the index charged to the work budget, and reused for every
    /// later lookup in the same object, however many places share it.
    func fieldIndex(of name: String, keys: BinaryPropertyList.RefList) throws -> Int? {
        if keys.count <= Self.scanLimit {
            for i in 0..<keys.count where try plist.stringEquals(try plist.ref(keys, i), name) { return i }
            return nil
        }
        return try largeFieldIndex(keys)[name]
    }

    /// The position of `$class` among an object's keys. Writers store each key string once,
    /// so after the first match the `$class` string's reference is compared first (an
    /// integer, not bytes); a small object without it, or with another copy of the string,
    /// is then scanned as usual, and a large one uses its index.
    func classFieldIndex(keys: BinaryPropertyList.RefList) throws -> Int? {
        let known = state.classKeyRef
        if known >= 0, keys.count <= Self.scanLimit {
            for i in 0..<keys.count where try plist.ref(keys, i) == known { return i }
        }
        guard let index = try fieldIndex(of: "$class", keys: keys) else { return nil }
        state.classKeyRef = try plist.ref(keys, index)
        return index
    }

    /// The index of a large object's keys: stored key → position (the first of duplicates).
    func largeFieldIndex(_ keys: BinaryPropertyList.RefList) throws -> [String: Int] {
        if let index = state.fieldIndexes[keys.start] { return index }
        try charge(keys.count)
        var index: [String: Int] = [:]
        index.reserveCapacity(keys.count)
        for i in 0..<keys.count {
            guard let key = try plist.string(try plist.ref(keys, i)) else { continue }
            if index[key] == nil { index[key] = i }
        }
        state.fieldIndexes[keys.start] = index
        return index
    }

    /// Charges `units` of work to the decode's budget; throws when it is spent.
    @inline(__always)
    func charge(_ units: Int) throws {
        state.remainingObjects -= units
        if state.remainingObjects < 0 { throw budgetExhausted() }
    }

    @inline(never)
    func budgetExhausted() -> KeyedArchiveError {
        KeyedArchiveError("the archive expands to more work than the decoder's limit (ArchiveDecoder.Limits.maxObjectVisits: shared objects referenced from too many places, or too many keys)")
    }
}
