import Foundation

/// The rules for store names, and the reserved names of the store's own hidden files.
///
/// One place decides what a name may be: ``ArchiveStore`` checks every name it is given
/// here, and lists or removes only files whose names pass.
enum ArchiveStoreName {
    /// The longest name, in bytes of UTF-8 (file systems allow 255; the rest is headroom).
    static let maxBytes = 200

    /// The first rule `name` breaks, or `nil` when it is a valid store name.
    static func brokenRule(_ name: String) -> ArchiveStoreError.NameRule? {
        let bytes = name.utf8
        if bytes.isEmpty { return .empty }
        if bytes.count > maxBytes { return .tooLong }
        if bytes.contains(0) { return .containsNUL }
        if bytes.contains(UInt8(ascii: "/")) { return .containsSlash }
        if name == "." || name == ".." { return .dotOrDotDot }
        if bytes.first == UInt8(ascii: ".") { return .leadingDot }
        return nil
    }

    /// Throws ``ArchiveStoreError/Code/invalidName`` naming the rule `name` breaks.
    static func validate(_ name: String) throws {
        if let rule = brokenRule(name) {
            throw ArchiveStoreError(code: .invalidName, name: name, rule: rule, cause: rule.description)
        }
    }

    // MARK: - The store's hidden files

    /// The lock file every store on a directory coordinates through.
    static let lockFile = ".archivestore.lock"

    /// The lock file that makes checking a name for conflicts and renaming its file one step
    /// (see ``DirectoryLock``).
    static let namesLockFile = ".archivestore.names.lock"

    private static let temporaryPrefix = ".archivestore-"
    private static let temporarySuffix = ".tmp"

    /// A fresh temporary file name: `.archivestore-<16 hex digits>.tmp`.
    static func temporaryName() -> String {
        DurableFile.temporaryName(prefix: temporaryPrefix)
    }

    /// Whether `fileName` is one of the store's temporary files (never a valid store name).
    static func isTemporary(_ fileName: String) -> Bool {
        guard fileName.hasPrefix(temporaryPrefix) && fileName.hasSuffix(temporarySuffix),
              fileName.utf8.count == temporaryPrefix.utf8.count + 16 + temporarySuffix.utf8.count else { return false }
        return fileName.utf8.dropFirst(temporaryPrefix.utf8.count).prefix(16).allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
    }
}
