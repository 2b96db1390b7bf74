import Foundation

extension BinaryPropertyList {
    /// Whether no dictionary repeats a key, proved cheaply: `true` only when it is certain.
    /// `false` means "not proved" (a repeat, a key that is not a readable string, or more
    /// work than the exact check is allowed), and the exact check of
    /// ``resolvingDuplicateKeys(keepingFirst:)`` then decides and reports.
    ///
    /// It compares key *references* within each dictionary (no key text is read there), and
    /// marks every object used as a key in a bitmap; then it reads the text of each of those
    /// objects once and checks that no two of them have the same text. Writers that unique
    /// their strings (every Apple writer, and ours) pass both steps. Dictionaries that cannot
    /// be read are skipped, as the exact check skips them. Work is bounded like the exact
    /// check's: past 16 reads per byte of the file plus 65,536, it gives up.
    ///
    /// It runs on every property list the view, the tool and the store open (the decoder
    /// checks as it reads instead: ``DuplicateKeyLazyCheck``), so it is one pass, each key
    /// reference read once, and a repeat within a dictionary found with a second bitmap
    /// (set while the dictionary is read, cleared after), whatever the dictionary's size.
    func hasNoDuplicateKeys() -> Bool {
        var budget = KeyReferenceMarks.budget(byteCount: bytes.count)
        var isKey = [UInt64](repeating: 0, count: (objectCount &+ 63) / 64)
        var marks = KeyReferenceMarks(objectCount: objectCount)
        for ref in 0..<self.objectCount {
            guard let start = checkedOffset(of: ref) else { continue }
            let marker = bytes[start]
            // Dictionaries of two or more entries (0xD2…0xDF).
            guard marker >> 4 == 0xD, marker & 0x0F >= 2,
                  case .dictionary(let keys, _)? = try? object(ref)
            else { continue }
            budget -= keys.count
            if budget < 0 { return false }
            let distinct = marks.allDistinct(keys, in: self) { key in
                isKey[key >> 6] |= 1 << UInt64(key & 63)
                return true
            }
            if !distinct { return false }
        }
        // Distinct key objects must have distinct texts.
        var texts = Set<String>()
        for (word, bits) in isKey.enumerated() where bits != 0 {
            var bits = bits
            while bits != 0 {
                let ref = word * 64 + bits.trailingZeroBitCount
                bits &= bits - 1
                guard let text = (try? string(ref)) ?? nil else { return false }
                budget -= text.utf8.count
                if budget < 0 { return false }
                // `String` equality is canonical equivalence, looser than the exact check's
                // scalar-by-scalar comparison: a false alarm only sends the file to the exact check.
                guard texts.insert(text).inserted else { return false }
            }
        }
        return true
    }
}

/// One bit per object, to prove a dictionary's key references distinct: set for each key
/// of the dictionary being checked, then cleared. The up-front check
/// (``BinaryPropertyList/hasNoDuplicateKeys()``) and the check as the decoder reads
/// (``DuplicateKeyLazyCheck``) share it.
struct KeyReferenceMarks {
    private var marks: [UInt64]

    init(objectCount: Int) {
        marks = [UInt64](repeating: 0, count: (objectCount &+ 63) / 64)
    }

    /// The work either check may do on a file of `byteCount` bytes: 16 units per byte plus
    /// 65,536 (reads of key references and bytes of key text).
    static func budget(byteCount: Int) -> Int {
        byteCount.multipliedReportingOverflow(by: 16).partialValue &+ 65_536
    }

    /// Whether every key reference of `keys` is in range and listed once, handing each to
    /// `each` as it goes; false at the first repeat, or when `each` answers false.
    @inline(__always)
    mutating func allDistinct(_ keys: BinaryPropertyList.RefList, in plist: BinaryPropertyList, each: (Int) -> Bool) -> Bool {
        let refSize = plist.refSize, objectCount = UInt64(plist.objectCount)
        var position = keys.start
        var distinct = true
        var marked = 0
        for _ in 0..<keys.count {
            let raw = BinaryPropertyList.readBigEndian(plist.bytes, at: position, size: refSize)
            position += refSize
            guard raw < objectCount else { distinct = false; break }
            let word = Int(raw >> 6), bit: UInt64 = 1 << (raw & 63)
            guard marks[word] & bit == 0 else { distinct = false; break }
            marks[word] |= bit
            marked += 1
            guard each(Int(raw)) else { distinct = false; break }
        }
        // Clear the marks this dictionary set (all of them are among its first `marked` keys).
        position = keys.start
        for _ in 0..<marked {
            let raw = BinaryPropertyList.readBigEndian(plist.bytes, at: position, size: refSize)
            position += refSize
            marks[Int(raw >> 6)] = 0
        }
        return distinct
    }
}
