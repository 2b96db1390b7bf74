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
        var budget = bytes.count.multipliedReportingOverflow(by: 16).partialValue &+ 65_536
        let words = (objectCount &+ 63) / 64
        var isKey = [UInt64](repeating: 0, count: words)
        var inDictionary = [UInt64](repeating: 0, count: words)
        let refSize = self.refSize
        let objectCount = UInt64(self.objectCount)
        for ref in 0..<self.objectCount {
            guard let start = checkedOffset(of: ref) else { continue }
            let marker = bytes[start]
            // Dictionaries of two or more entries (0xD2…0xDF).
            guard marker >> 4 == 0xD, marker & 0x0F >= 2,
                  case .dictionary(let keys, _)? = try? object(ref)
            else { continue }
            budget -= keys.count
            if budget < 0 { return false }
            var position = keys.start
            var repeated = false
            for _ in 0..<keys.count {
                let raw = Self.readBigEndian(bytes, at: position, size: refSize)
                position += refSize
                guard raw < objectCount else { repeated = true; break }
                let word = Int(raw >> 6), bit: UInt64 = 1 << (raw & 63)
                if inDictionary[word] & bit != 0 { repeated = true; break }
                inDictionary[word] |= bit
                isKey[word] |= bit
            }
            // Clear this dictionary's marks (the ones set before a repeat, too).
            position = keys.start
            for _ in 0..<keys.count {
                let raw = Self.readBigEndian(bytes, at: position, size: refSize)
                position += refSize
                if raw < objectCount { inDictionary[Int(raw >> 6)] = 0 }
            }
            if repeated { return false }
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
