import Foundation

/// Why an ``ArchiveStore`` operation failed: what was being done, to which name and file,
/// and the cause.
///
/// A bad name throws ``Code/invalidName`` with the broken ``NameRule`` (or, for a name that
/// would be the same file as another on Apple file systems, the ``conflictingName``); trouble with a file
/// throws one of the other codes with the file's URL and the system's reason. A file that
/// reads as a keyed archive but does not fit the requested type throws the decoder's
/// `DecodingError` instead (see ``ArchiveStore/load(_:named:)``).
///
/// ```swift
/// do {
///     let session = try store.load(Session.self, named: "session")
/// } catch let error as ArchiveStoreError where error.code == .corruptFile {
///     print("damaged: \(error.file?.path ?? "?") — \(error.cause)")   // the file is left as it was
/// }
/// ```
public struct ArchiveStoreError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    ///
    /// ```swift
    /// if error.code == .invalidName { print(error.rule?.description ?? "") }
    /// ```
    public enum Code: Sendable, Hashable {
        /// The name breaks one of the rules in ``NameRule`` (``rule`` says which), or it
        /// differs only in case from a name already in the directory
        /// (``conflictingName`` says which), so that on Apple file systems both would be one
        /// file. Nothing was read or written.
        case invalidName
        /// The store's directory could not be created, opened, listed or locked.
        case directoryFailed
        /// The file exists but could not be read (permissions, I/O error, a folder in its place).
        case unreadableFile
        /// The file was read but is not a keyed archive holding a root value (truncated,
        /// overwritten, not a property list). It is left byte for byte as it was.
        case corruptFile
        /// Writing, flushing or renaming the new file failed, and the old value, if any, is
        /// intact — except when only the final flush of the directory failed: then the new
        /// value is in place but may not yet survive a power cut.
        case writeFailed
        /// The file could not be removed.
        case removeFailed
    }

    /// The rules a store name must follow: 1–200 bytes of UTF-8, no `/`, no NUL, not `.`
    /// or `..`, and no leading `.` (names starting with `.` are kept for the store's
    /// temporary and lock files).
    ///
    /// ```swift
    /// try store.save(1, as: ".hidden")   // throws: rule == .leadingDot
    /// ```
    public enum NameRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The name is the empty string.
        case empty
        /// The name is longer than 200 bytes of UTF-8.
        case tooLong
        /// The name contains `/`, which would reach outside the store's directory.
        case containsSlash
        /// The name contains a NUL character, which no file name may hold.
        case containsNUL
        /// The name is `.` or `..`, the directory itself or its parent.
        case dotOrDotDot
        /// The name starts with `.`, reserved for the store's temporary and lock files.
        case leadingDot

        /// The rule, as a sentence.
        ///
        /// ```swift
        /// print(ArchiveStoreError.NameRule.tooLong)   // "a name is at most 200 bytes of UTF-8"
        /// ```
        public var description: String {
            switch self {
            case .empty: return "a name is at least 1 byte long"
            case .tooLong: return "a name is at most \(ArchiveStoreName.maxBytes) bytes of UTF-8"
            case .containsSlash: return "a name may not contain '/'"
            case .containsNUL: return "a name may not contain a NUL character"
            case .dotOrDotDot: return "a name may not be '.' or '..'"
            case .leadingDot: return "a name may not start with '.' (reserved for temporary files)"
            }
        }
    }

    /// What went wrong.
    public var code: Code
    /// The store name involved, when the operation had one.
    public var name: String?
    /// The file (or, for ``Code/directoryFailed``, the directory) involved, when there is one.
    public var file: URL?
    /// The broken rule, for ``Code/invalidName``; `nil` when the name is refused for
    /// ``conflictingName``.
    public var rule: NameRule?
    /// For ``Code/invalidName``: the name already in the store's directory that ``name``
    /// would share a file with on Apple file systems (they differ only in case or, say,
    /// `ß` against `ss`). The store refuses the second name on every platform, so that it
    /// behaves the same on Linux and on APFS.
    ///
    /// ```swift
    /// try store.save(1, as: "Session")
    /// do { try store.save(2, as: "session") } catch let error as ArchiveStoreError {
    ///     print(error.conflictingName ?? "")   // "Session"
    /// }
    /// ```
    public var conflictingName: String?
    /// The cause, in words: the system's reason (`"Permission denied"`), the decoder's
    /// message, or the broken rule.
    public var cause: String
    /// The error behind ``cause``, when there is one (for example the `DecodingError` that
    /// says why a file is not a keyed archive).
    public var underlyingError: (any Error)?

    /// Creates an error.
    ///
    /// ```swift
    /// let error = ArchiveStoreError(code: .corruptFile, file: url, cause: "not a property list")
    /// ```
    public init(code: Code, name: String? = nil, file: URL? = nil, rule: NameRule? = nil,
                cause: String, underlyingError: (any Error)? = nil) {
        self.code = code
        self.name = name
        self.file = file
        self.rule = rule
        self.cause = cause
        self.underlyingError = underlyingError
    }

    /// One line naming the operation's file and the cause, e.g.
    /// `corrupt file /…/session (left unchanged): not a property list (it looks like a JPEG image)`.
    ///
    /// ```swift
    /// print(error)   // invalid name ".cache": a name may not start with '.' (reserved for temporary files)
    /// ```
    public var description: String {
        switch code {
        case .invalidName: return "invalid name \(Self.quoted(name ?? "")): \(cause)"
        case .directoryFailed: return "store directory \(file?.path ?? "?"): \(cause)"
        case .unreadableFile: return "cannot read \(file?.path ?? "?"): \(cause)"
        case .corruptFile: return "corrupt file \(file?.path ?? "?") (left unchanged): \(cause)"
        case .writeFailed: return "cannot save \(file?.path ?? "?"): \(cause)"
        case .removeFailed: return "cannot remove \(file?.path ?? "?"): \(cause)"
        }
    }

    /// The same line as ``description``, so that an app showing `error.localizedDescription`
    /// shows the file and the cause.
    ///
    /// ```swift
    /// print(error.localizedDescription)   // cannot read /…/session: Permission denied
    /// ```
    public var errorDescription: String? { description }

    /// The error for `name`, refused because `existing` is in the store's directory.
    static func conflict(_ name: String, with existing: String, file: URL) -> ArchiveStoreError {
        var error = ArchiveStoreError(
            code: .invalidName, name: name, file: file,
            cause: "conflicts with \(quoted(existing)), already in the store's directory: names that differ only in case are one file on Apple file systems")
        error.conflictingName = existing
        return error
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { $0 == "\0" ? "\\0" : $0.escaped(asASCII: false) }.joined() + "\""
    }
}
