import Foundation

/// Which directory entry a store name means, the same on every file system.
///
/// Apple's file systems (APFS and HFS+, as macOS formats them by default) ignore case and
/// Unicode normalisation: `Session`, `session` and `SESSION` are one file there, and so are
/// `café` spelled with `é` and with `e` + U+0301. Linux keeps them apart. The store follows
/// one rule everywhere:
/// - names that are equal as Swift strings (canonically equivalent, like the two `café`s)
///   are one name, whatever the spelling of its file on disk;
/// - names that differ otherwise but fold to the same text (case folding, then canonical
///   equivalence) cannot both be in the store: saving the second is refused, and loading
///   or removing it finds nothing.
extension ArchiveStoreName {
    /// What `name` is among a directory's entries.
    enum Match: Equatable {
        /// The entry that holds `name` (its spelling on disk, which may differ from `name`
        /// in normalisation only).
        case file(String)
        /// No entry holds `name`, and none conflicts with it: a save creates `name`.
        case none
        /// No entry holds `name`, but this one folds to the same text: on an Apple file
        /// system both would be one file.
        case conflict(String)
    }

    /// What `name` is among `entries` (a directory's file names). An entry spelled exactly
    /// like `name` wins over a canonically equivalent one; of several candidates, the one
    /// with the smallest bytes is chosen, so the answer does not depend on listing order.
    static func match(_ name: String, in entries: [String]) -> Match {
        let key = FoldKey(name)
        var equivalent: String?
        var conflicting: String?
        for entry in entries where key.matches(entry) {
            if entry.utf8.elementsEqual(name.utf8) { return .file(entry) }
            if entry == name {
                equivalent = byteWiseSmaller(equivalent, entry)
            } else {
                conflicting = byteWiseSmaller(conflicting, entry)
            }
        }
        if let equivalent { return .file(equivalent) }
        if let conflicting { return .conflict(conflicting) }
        return .none
    }

    /// The smaller of `current` and `candidate` by their bytes (`String`'s own order holds
    /// canonically equivalent spellings equal).
    private static func byteWiseSmaller(_ current: String?, _ candidate: String) -> String {
        guard let current else { return candidate }
        return candidate.utf8.lexicographicallyPrecedes(current.utf8) ? candidate : current
    }

    /// Whether a file found by looking up `name` is `name`'s own, given the name the file
    /// system reports for it (`onDisk`, `nil` when it cannot tell) and, when that differs,
    /// what the directory's listing says (`listing`, which may fail).
    ///
    /// A case-insensitive lookup of `session` opens `Session`: that is not `session`'s file.
    /// A reported name can also be another hard link's, so a mismatch is settled by the listing.
    static func isOwnFile(named name: String, onDisk: String?, listing: () throws -> [String]) -> Bool {
        guard let onDisk, onDisk != name else { return true }
        guard let entries = try? listing() else { return false }
        if case .file = match(name, in: entries) { return true }
        return false
    }

    /// Whether `name` has one spelling only in every normalisation (ASCII), so that a
    /// failed lookup of it cannot be a differently normalised file.
    static func hasOneSpelling(_ name: String) -> Bool {
        name.utf8.allSatisfy { $0 < 0x80 }
    }

    /// `name` folded for comparison: full case folding (upper-casing, then lower-casing,
    /// so that `ß` folds with `ss` and `ſ` with `s`), compared as Swift strings
    /// (canonical equivalence). It is meant to fold at least as much as Apple's
    /// case-insensitive file systems (which fold case by Unicode's tables and compare
    /// canonical decompositions), so that two names the store lets coexist are two files
    /// there too; that is read from Apple's documentation, not run on a Mac.
    private struct FoldKey {
        let name: String
        let folded: String
        let isASCII: Bool

        init(_ name: String) {
            self.name = name
            self.folded = FoldKey.fold(name)
            self.isASCII = ArchiveStoreName.hasOneSpelling(name)
        }

        func matches(_ entry: String) -> Bool {
            if isASCII && ArchiveStoreName.hasOneSpelling(entry) {
                // The common case, without allocating: ASCII letters fold to themselves.
                return entry.utf8.count == name.utf8.count
                    && zip(entry.utf8, name.utf8).allSatisfy { FoldKey.lower($0) == FoldKey.lower($1) }
            }
            return FoldKey.fold(entry) == folded
        }

        private static func fold(_ text: String) -> String {
            text.uppercased().lowercased()
        }

        private static func lower(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
        }
    }
}
