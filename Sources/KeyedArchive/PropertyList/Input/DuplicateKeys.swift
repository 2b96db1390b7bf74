import Foundation

// A key that appears more than once in one dictionary of a property list. CoreFoundation
// accepts such dictionaries and keeps one entry per key, depending on the format: a binary
// property list keeps the FIRST occurrence (its reader adds entries in file order with
// "add if absent" semantics, and `NSKeyedUnarchiver` finds a key by scanning the keys in
// order), an XML property list keeps the LAST (its parser sets each entry in document
// order). Every reader in the package follows that rule because it is applied once, where
// a property list is opened (`PropertyListInput.read`): the dictionaries that hold
// duplicates are rewritten without the entries CoreFoundation drops, so typed decoding, the
// view, `render()`, `json`, `dump` and `convert` all see one entry per key, and `verify`
// reports what was dropped. (The decoder proves "no repeat" per dictionary as it reads a
// binary file, `DuplicateKeyLazyCheck`, and reads the file again through this rewrite when
// it cannot.)

/// One key that a dictionary of a property list holds more than once.
package struct PropertyListDuplicateKey: Sendable, Hashable {
    /// The dictionary's object number in the binary property list (for an XML document, in
    /// the binary form it is read into).
    package let dictionary: Int
    /// The key.
    package let key: String
    /// How many times the key appears.
    package let occurrences: Int
    /// Whether the first occurrence is kept (binary) or the last (XML).
    package let keepsFirst: Bool
}

extension BinaryPropertyList {
    /// This property list with every dictionary reduced to one entry per key, as
    /// CoreFoundation reads it: the first occurrence kept when `keepingFirst` (binary
    /// property lists), else the last (XML): `self` when no dictionary repeats a key
    /// (``hasNoDuplicateKeys()`` proves that for almost every file in one pass over the
    /// dictionaries' key references); otherwise a rebuilt copy whose ``duplicateKeys`` says
    /// what was dropped. Dictionaries that cannot be read are left for the readers to report.
    ///
    /// The check reads each dictionary object's key references and each distinct key
    /// string once, at most 16 per byte of the file plus 65,536 in all (a file whose objects
    /// overlap could otherwise make it quadratic): past that it throws.
    ///
    /// `body` is given `self`, or the rebuilt copy, which lives only during the call.
    func resolvingDuplicateKeys<R>(keepingFirst: Bool, _ body: (BinaryPropertyList) throws -> R) throws -> R {
        // Almost every file repeats no key: prove that cheaply, else find the repeats exactly.
        if hasNoDuplicateKeys() { return try body(self) }
        var keyIDs = KeyIdentities(plist: self, budget: bytes.count.multipliedReportingOverflow(by: 16).partialValue &+ 65_536)
        var drops: [(dictionary: Int, keys: RefList, values: RefList, dropped: [Bool])] = []
        var report: [PropertyListDuplicateKey] = []
        var ids: [Int] = []
        for ref in 0..<objectCount {
            guard let start = checkedOffset(of: ref), bytes[start] >> 4 == 0xD, bytes[start] != 0xD0, bytes[start] != 0xD1,
                  case .dictionary(let keys, let values)? = try? object(ref), keys.count > 1,
                  try keyIDs.ids(of: keys, into: &ids)
            else { continue }
            guard let duplicates = Self.duplicatePositions(ids) else { continue }
            var dropped = [Bool](repeating: false, count: ids.count)
            for positions in duplicates {
                for position in (keepingFirst ? positions.dropFirst() : positions.dropLast()) { dropped[position] = true }
                let key = (try? string(try self.ref(keys, positions[0]))) ?? nil
                report.append(PropertyListDuplicateKey(dictionary: ref, key: key ?? "", occurrences: positions.count,
                                                       keepsFirst: keepingFirst))
            }
            drops.append((ref, keys, values, dropped))
        }
        guard !drops.isEmpty else { return try body(self) }
        return try rewriting(drops).withUnsafeBytes { rewritten in
            var rebuilt = try BinaryPropertyList(borrowing: rewritten)
            rebuilt.duplicateKeys = report
            return try body(rebuilt)
        }
    }

    /// The positions of each key that occurs more than once among `ids` (in order), or
    /// `nil` when every key is distinct.
    private static func duplicatePositions(_ ids: [Int]) -> [[Int]]? {
        var groups: [Int: [Int]] = [:]
        if ids.count <= 16 {
            // Small dictionaries (almost all): compare pairwise, no allocation when distinct.
            var distinct = true
            outer: for i in 1..<ids.count {
                for j in 0..<i where ids[j] == ids[i] {
                    distinct = false
                    break outer
                }
            }
            if distinct { return nil }
        }
        for (position, id) in ids.enumerated() { groups[id, default: []].append(position) }
        let repeated = groups.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
        return repeated.isEmpty ? nil : repeated
    }

    /// The file's bytes with each dictionary in `drops` written again, without its dropped
    /// entries, after the other objects, and a new offset table pointing to the copies.
    /// Every other object keeps its bytes and its number.
    private func rewriting(_ drops: [(dictionary: Int, keys: RefList, values: RefList, dropped: [Bool])]) -> [UInt8] {
        var out = Array(bytes[0..<offsetTableStart])
        var moved: [Int: Int] = [:]
        for drop in drops {
            moved[drop.dictionary] = out.count
            let kept = drop.dropped.lazy.filter { !$0 }.count
            if kept < 15 {
                out.append(0xD0 | UInt8(kept))
            } else {
                out.append(0xDF)
                let width = kept <= 0xFF ? 1 : kept <= 0xFFFF ? 2 : kept <= 0xFFFF_FFFF ? 4 : 8
                out.append(0x10 | UInt8(width.trailingZeroBitCount))
                Self.appendBigEndian(UInt64(kept), width: width, to: &out)
            }
            for list in [drop.keys, drop.values] {
                for index in 0..<list.count where !drop.dropped[index] {
                    let position = list.start + index * refSize
                    out.append(contentsOf: bytes[position..<(position + refSize)])
                }
            }
        }
        let tableStart = out.count
        var offsetWidth = 1
        while offsetWidth < 8, UInt64(tableStart - 1) >> (8 * UInt64(offsetWidth)) != 0 { offsetWidth *= 2 }
        for ref in 0..<objectCount {
            let offset = moved[ref] ?? Int(Self.readBigEndian(bytes, at: offsetTableStart + ref * offsetSize, size: offsetSize))
            Self.appendBigEndian(UInt64(offset), width: offsetWidth, to: &out)
        }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetWidth), UInt8(refSize)])
        for field in [objectCount, topObject, tableStart] { Self.appendBigEndian(UInt64(field), width: 8, to: &out) }
        return out
    }

    private static func appendBigEndian(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        for index in stride(from: width - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }
}

/// A number per key string of a property list, equal for keys with the same text (compared
/// scalar by scalar, as CoreFoundation compares strings — not by canonical equivalence),
/// each string object decoded once.
private struct KeyIdentities {
    let plist: BinaryPropertyList
    /// Per object number: its key number, or -1 when not yet computed.
    var idOfRef: [Int]
    var idOfText: [[UInt8]: Int] = [:]
    /// Key references and key-string bytes still allowed to be read.
    var budget: Int

    init(plist: BinaryPropertyList, budget: Int) {
        self.plist = plist
        self.budget = budget
        idOfRef = [Int](repeating: -1, count: plist.objectCount)
    }

    private mutating func charge(_ units: Int) throws {
        budget -= units
        if budget < 0 {
            throw PropertyListError("its dictionaries overlap so much that checking them for repeated keys would take more than 16 reads per byte of the file")
        }
    }

    /// Replaces `ids` with the key numbers of `keys` (one buffer reused for every
    /// dictionary); `false` when a key cannot be read as a string (the readers report that
    /// dictionary themselves).
    mutating func ids(of keys: BinaryPropertyList.RefList, into ids: inout [Int]) throws -> Bool {
        ids.removeAll(keepingCapacity: true)
        try charge(keys.count)
        for index in 0..<keys.count {
            let raw = plist.refBits(keys, index)
            guard raw < UInt64(idOfRef.count) else { return false }
            let ref = Int(raw)
            if idOfRef[ref] < 0 {
                guard let text = (try? plist.string(ref)) ?? nil else { return false }
                try charge(text.utf8.count)
                let utf8 = Array(text.utf8)
                if let id = idOfText[utf8] {
                    idOfRef[ref] = id
                } else {
                    let id = idOfText.count
                    idOfText[utf8] = id
                    idOfRef[ref] = id
                }
            }
            ids.append(idOfRef[ref])
        }
        return true
    }
}
