import Foundation
import Testing
@testable import KeyedArchive

// The encoder's string table (issue 30, round 4): strings are found in two steps, `find`
// then `insert` at the place the probe ended, with their bytes read in place.

@Suite("String uniquing table")
struct StringUIDTableTests {
    /// Every string stored is found again with its UID, across growth; strings that differ
    /// in a byte, in length, or only by canonical equivalence are distinct; the empty
    /// string, small (inline) strings, long (heap) strings and non-ASCII ones included.
    @Test func findsWhatItStoredAndNothingElse() {
        var table = StringUIDTable()
        var strings = ["", "a", "é", "e\u{301}", "abcdefghijklmno", "abcdefghijklmnop", "日本語", "emoji🙂"]
        strings += (0..<3_000).map { "key-\($0)-" + String(repeating: "x", count: $0 % 40) }
        for (index, string) in strings.enumerated() {
            let found = table.find(string)
            #expect(found.uid == nil, "\(string) found before it was stored")
            table.insert(string, uid: Int32(index + 1), at: found.place)
        }
        #expect(table.storedCount == strings.count)
        for (index, string) in strings.enumerated() {
            // A copy made from other bytes, so that nothing is found by identity.
            let copy = String(decoding: Array(string.utf8), as: UTF8.self)
            #expect(table.find(copy).uid == Int32(index + 1), "\(string)")
            #expect(table[index] == string)
        }
        for missing in ["key-1-", "key-3000-", "E\u{301}", " ", "abcdefghijklmnoq"] {
            #expect(table.find(missing).uid == nil, "\(missing)")
        }
        // A string found at a place the table has since grown past still goes in.
        var small = StringUIDTable()
        let late = small.find("late")
        #expect(late.uid == nil)
        small.reserve(1_000)
        small.insert("late", uid: 7, at: late.place)
        #expect(small.find("late").uid == 7)
    }
}

@Suite("String uniquing table: each string kept beside its UID")
struct StringUIDTableStoredUIDTests {
    /// A string's UID is kept with the string itself (scaleenc): UIDs that do not follow the
    /// storing order are each found with their own string, across the table's growth and for
    /// strings of every size; after the lookup is released the strings stay readable by
    /// position and are no longer found.
    @Test func uidsUnrelatedToPositionsAreFoundWithTheirStrings() {
        var table = StringUIDTable()
        let strings = (0..<20_000).map { "s\($0)" + String(repeating: "z", count: $0 % 37) }
        // UIDs in an order unrelated to the positions: position p gets 7 * (n - p) + 3.
        func uid(_ position: Int) -> Int32 { Int32(7 * (strings.count - position) + 3) }
        for (position, string) in strings.enumerated() {
            let found = table.find(string)
            #expect(found.uid == nil)
            table.insert(string, uid: uid(position), at: found.place)
        }
        for position in stride(from: strings.count - 1, through: 0, by: -3) {
            let copy = String(decoding: Array(strings[position].utf8), as: UTF8.self)
            #expect(table.find(copy).uid == uid(position), "\(position)")
        }
        table.releaseLookup()
        #expect(table.storedCount == strings.count)
        #expect(table[0] == strings[0] && table[19_999] == strings[19_999])
        #expect(table.find(strings[5]).uid == nil)
    }
}

@Suite("String uniquing table: lookups by a hash made before")
struct StringUIDTableHashedLookupTests {
    /// `string(_:hash:)` (a dictionary's keys, hashed while they are read for sorting) gives
    /// the UIDs `string(_:)` gives, mixed in any order with it: new strings, strings found
    /// again, canonically equivalent strings kept apart, the empty string, long strings.
    @Test func hashedLookupsEqualPlainLookups() {
        var strings = ["", "a", "é", "e\u{301}", "abcdefghijklmnop", "日本語"]
        strings += (0..<2_000).map { "key-\($0 % 700)-" + String(repeating: "y", count: $0 % 23) }
        let plain = ArchiveObjectTable()
        let hashed = ArchiveObjectTable()
        for (index, string) in strings.enumerated() {
            let expected = plain.string(string)
            let got: Int32
            if index % 3 == 0 {
                got = hashed.string(string)
            } else {
                let hash = string.withContiguousUTF8 { hashed.stringHash(of: $0) }
                hashed.prepareStrings(hashes: [hash])
                got = hashed.string(string, hash: hash)
            }
            #expect(got == expected, "\(string)")
        }
        #expect(hashed.count == plain.count)
    }
}
