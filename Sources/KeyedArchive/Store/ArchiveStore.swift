import Foundation

/// Saves and loads `Codable` values by name, one keyed-archive file per name in a directory,
/// safely across threads, processes and crashes.
///
/// ```swift
/// struct Session: Codable { var user: String; var token: String }
///
/// let store = try ArchiveStore(directory: appFolder)
/// try store.save(Session(user: "ada", token: "s3cret"), as: "session")     // at login
/// let session = try store.load(Session.self, named: "session")             // at launch; nil if none
/// try store.remove(named: "session")                                        // at logout
/// ```
///
/// **Files.** The value named `name` is the file `directory/name` (see ``url(forName:)``):
/// an ordinary keyed archive holding the value under the root key, written by the store's
/// ``ArchiveEncoder``. ``ArchiveDecoder`` reads it directly, and so does Foundation's
/// `NSKeyedUnarchiver` for types laid out like `NSCoding` classes.
///
/// **Adopting files an older app wrote.** A file written with
/// `NSKeyedArchiver.archiveRootObject(_:toFile:)` (or `archivedData(withRootObject:…)`)
/// is already such a file: point a store at its folder and load it under its file name,
/// with no conversion step. It is left as it is until you save under that name.
///
/// ```swift
/// // Version 1 did: NSKeyedArchiver.archiveRootObject(session, toFile: folder.path + "/session")
/// let store = try ArchiveStore(directory: folder)
/// let session = try store.load(Session.self, named: "session")   // decoded from the old file
/// ```
///
/// **Names** are 1–200 bytes of UTF-8 with no `/` or NUL, not `.` or `..`, and not starting
/// with `.`; see ``ArchiveStoreError/NameRule``. Nothing is ever created outside the directory.
/// Names are compared as Swift compares strings, and behave the same on every file system:
/// `café` with `é` and with `e` + U+0301 is one name (one file), and two names that differ
/// only in case (`Session`, `session`), which Apple's file systems keep as one file, cannot
/// both be stored — on Linux either: saving the second throws, loading it gives `nil`.
///
/// ```swift
/// try store.save(1, as: "Session")
/// try store.save(2, as: "session")                 // throws: conflictingName == "Session"
/// try store.load(Int.self, named: "session")        // nil, on macOS and iOS too
/// ```
///
/// **Crash safety.** ``save(_:as:)`` writes a temporary file in the same directory, flushes
/// it to disk (`fsync`), renames it over the old file and flushes the directory. A process
/// killed at any instant leaves the old value or the new one, never a mix. Temporary
/// files (`.archivestore-….tmp`) left by a killed process are removed by the next `init`
/// and are never listed.
///
/// **Threads and processes.** A store is `Sendable`; any number of threads and processes
/// may use the same directory. Concurrent saves of different names all land; concurrent
/// saves of one name leave one of the values, whole. They coordinate through an advisory
/// lock on the hidden file `.archivestore.lock` in the directory.
///
/// **Loading never destroys data.** A missing name gives `nil`; a file that is not a keyed
/// archive throws ``ArchiveStoreError`` (``ArchiveStoreError/Code/corruptFile``) and is
/// left byte for byte; a value that no longer fits the type (a new non-optional property)
/// throws the decoder's `DecodingError`, never `nil`.
public final class ArchiveStore: Sendable {
    /// The directory holding the store's files (absolute, standardized).
    ///
    /// ```swift
    /// print(try ArchiveStore.default.directory.path)
    /// ```
    public let directory: URL
    private let encoder: ArchiveEncoder
    private let decoder: ArchiveDecoder
    /// The class every saved file gets (``FileProtection/protectionClass``); `nil` to keep
    /// the replaced file's.
    private let protectionClass: Int32?

    /// Opens the store in `directory`, creating the directory (and its parents) when missing,
    /// and removes temporary files a killed process left behind.
    ///
    /// `encoder` and `decoder` are used for every value; configure them as usual (for
    /// example `encoder.outputFormat = .xml`, or `decoder.allowedClasses` for `NSCoding`
    /// classes). A directory you may read but not write works for loading.
    ///
    /// On Apple platforms:
    /// - `fileProtection` is the data-protection class of every file ``save(_:as:)``
    ///   writes. With ``FileProtection/inherited`` (the default) a new file gets the
    ///   system's class and a replaced file keeps its own — also one you set on it yourself.
    /// - `excludedFromBackup: true` marks the directory excluded from backups
    ///   (`URLResourceValues.isExcludedFromBackup`), for data the app can download or
    ///   rebuild; `false` leaves the directory's setting as it is.
    ///
    /// Elsewhere (Linux) both are accepted and do nothing: there is no data protection or
    /// backup flag to set.
    ///
    /// ```swift
    /// let encoder = ArchiveEncoder()
    /// encoder.outputFormat = .xml
    /// let store = try ArchiveStore(directory: URL(fileURLWithPath: "/var/lib/mytool"), encoder: encoder)
    ///
    /// // An iOS app's tokens: unreadable while the device is locked, never in a backup.
    /// let secrets = try ArchiveStore(directory: try ArchiveStore.default.directory.appendingPathComponent("secrets"),
    ///                                fileProtection: .complete, excludedFromBackup: true)
    /// ```
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/directoryFailed``) when the
    ///   directory cannot be created, a file is in its place, or it cannot be excluded from backups.
    public init(directory: URL, encoder: ArchiveEncoder = .init(), decoder: ArchiveDecoder = .init(),
                fileProtection: FileProtection = .inherited, excludedFromBackup: Bool = false) throws {
        let directory = URL(fileURLWithPath: directory.path, isDirectory: true).standardizedFileURL
        self.directory = directory
        self.encoder = encoder
        self.decoder = decoder
        self.protectionClass = fileProtection.protectionClass
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if excludedFromBackup { try BackupExclusion.exclude(directory) }
        } catch {
            throw ArchiveStoreError(code: .directoryFailed, file: directory, cause: "\(error)", underlyingError: error)
        }
        // Stale temporary files: with the lock exclusive, no save anywhere is writing one.
        // Without a writable directory there are none to remove, so a lock failure is not an error.
        _ = try? DirectoryLock.withLock(in: directory, exclusive: true) {
            for file in try entries() where isStaleTemporary(file) {
                _ = try? DurableFile.remove(directory.appendingPathComponent(file, isDirectory: false))
            }
        }
    }

    /// Encodes `value` and stores it under `name`, replacing any value stored there,
    /// atomically and durably (see the crash-safety notes on ``ArchiveStore``).
    ///
    /// ```swift
    /// try store.save(Session(user: "ada", token: "s3cret"), as: "session")
    /// ```
    ///
    /// A name canonically equivalent to a stored one (another Unicode normalisation) replaces
    /// that value, in its file. A name that differs from an entry of the directory only in
    /// case is refused, on every platform, because Apple's file systems would make both one
    /// file: see ``ArchiveStoreError/conflictingName``.
    ///
    /// - Throws: ``ArchiveStoreError`` for a bad or conflicting name
    ///   (``ArchiveStoreError/Code/invalidName``, nothing written), a directory that cannot
    ///   be listed (``ArchiveStoreError/Code/directoryFailed``) or a failed write
    ///   (``ArchiveStoreError/Code/writeFailed``, the old value intact); the encoder's
    ///   `EncodingError` when the value cannot be encoded.
    public func save<T: Encodable>(_ value: T, as name: String) throws {
        try ArchiveStoreName.validate(name)
        let data = try encoder.encode(value)
        var url = fileURL(name)
        do {
            try DirectoryLock.withLock(in: directory, exclusive: false) {
                let prepared = try DurableFile.prepare(data, for: url, protectionClass: protectionClass,
                                                       temporaryName: ArchiveStoreName.temporaryName)
                do {
                    // Checking for a conflict and renaming are one step for every store on the directory.
                    try DirectoryLock.withLock(in: directory, file: ArchiveStoreName.namesLockFile, exclusive: true) {
                        url = try fileForWriting(name)
                        try prepared.rename(to: url)
                    }
                } catch {
                    prepared.discard()
                    throw error
                }
                try DurableFile.flushDirectory(directory)
            }
        } catch let error as ArchiveStoreError {
            throw error
        } catch {
            throw ArchiveStoreError(code: .writeFailed, name: name, file: url, cause: "\(error)", underlyingError: error)
        }
    }

    /// The value stored under `name`, or `nil` when there is none.
    ///
    /// A file whose name differs from `name` only in case is another name's, also on a file
    /// system that would open it for `name`: it loads as `nil`.
    ///
    /// ```swift
    /// if let session = try store.load(Session.self, named: "session") {
    ///     print("welcome back, \(session.user)")
    /// }
    /// ```
    ///
    /// - Throws: ``ArchiveStoreError`` for a bad name, an unreadable file
    ///   (``ArchiveStoreError/Code/unreadableFile``) or a file that is not a keyed archive
    ///   with a root value (``ArchiveStoreError/Code/corruptFile``), naming the file and the
    ///   cause; the decoder's `DecodingError` when the archive's value does not fit `type`.
    ///   The file is never changed or removed.
    public func load<T: Decodable>(_ type: T.Type, named name: String) throws -> T? {
        try ArchiveStoreName.validate(name)
        guard let (url, data) = try storedData(named: name) else { return nil }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            // Tell a damaged file from a changed type: only the former fails without the type.
            if let problem = envelopeProblem(data) {
                throw ArchiveStoreError(code: .corruptFile, name: name, file: url, cause: problem.cause,
                                        underlyingError: problem.error)
            }
            throw error
        }
    }

    /// Removes the value stored under `name`; does nothing when there is none — also when
    /// only a name that differs from it in case is stored, which stays.
    ///
    /// ```swift
    /// try store.remove(named: "session")   // at logout
    /// ```
    ///
    /// - Throws: ``ArchiveStoreError`` for a bad name, a directory that cannot be listed
    ///   (``ArchiveStoreError/Code/directoryFailed``) or a file that cannot be removed
    ///   (``ArchiveStoreError/Code/removeFailed``).
    public func remove(named name: String) throws {
        try ArchiveStoreName.validate(name)
        var url = fileURL(name)
        do {
            try DirectoryLock.withLock(in: directory, exclusive: false) {
                let removed = try DirectoryLock.withLock(in: directory, file: ArchiveStoreName.namesLockFile, exclusive: true) {
                    guard case .file(let spelling) = try match(name) else { return false }
                    url = fileURL(spelling)
                    return try DurableFile.remove(url)
                }
                if removed { try DurableFile.flushDirectory(directory) }
            }
        } catch let error as ArchiveStoreError {
            throw error
        } catch {
            throw ArchiveStoreError(code: .removeFailed, name: name, file: url, cause: "\(error)", underlyingError: error)
        }
    }

    /// Removes every value in the store, and its leftover temporary files.
    ///
    /// Only the store's own files go: those ``names()`` lists (regular files with valid
    /// names that hold a keyed archive with a root value) and regular temporary files named
    /// `.archivestore-<16 hex digits>.tmp`. Anything else in the directory — a database, a
    /// JSON file, another program's property list, a folder, a symbolic link, a dot file —
    /// stays, and so does the directory.
    ///
    /// ```swift
    /// try store.removeAll()
    /// assert(try store.names().isEmpty)
    /// ```
    ///
    /// - Throws: ``ArchiveStoreError`` naming the first file that could not be removed
    ///   (``ArchiveStoreError/Code/removeFailed``), or the directory when it cannot be
    ///   listed, locked or flushed (``ArchiveStoreError/Code/directoryFailed``).
    public func removeAll() throws {
        do {
            try DirectoryLock.withLock(in: directory, exclusive: true) {
                for file in try entries() where isStaleTemporary(file) || isOwnArchive(file) {
                    let url = directory.appendingPathComponent(file, isDirectory: false)
                    do {
                        _ = try DurableFile.remove(url)
                    } catch {
                        throw ArchiveStoreError(code: .removeFailed, name: file, file: url, cause: "\(error)", underlyingError: error)
                    }
                }
                try DurableFile.flushDirectory(directory)
            }
        } catch let error as ArchiveStoreError {
            throw error
        } catch {
            throw ArchiveStoreError(code: .directoryFailed, file: directory, cause: "\(error)", underlyingError: error)
        }
    }

    /// The names of the stored values, sorted.
    ///
    /// A name is listed when its file is one ``load(_:named:)`` reads as a stored value: a
    /// regular file (not a symbolic link) with a valid name, holding a keyed archive with a
    /// root value. Temporary files, the lock file and every other file — plain property
    /// lists, other programs' archives, text — are not listed, and ``removeAll()`` leaves them.
    ///
    /// ```swift
    /// for name in try store.names() { print(name) }   // ["drafts", "session"]
    /// ```
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/directoryFailed``) when the
    ///   directory cannot be listed.
    public func names() throws -> [String] {
        try entries().filter(isOwnArchive).sorted()
    }

    /// The file that holds the value named `name`, whether or not it exists: `directory/name`,
    /// or the file of a stored name canonically equivalent to `name` (spelled in another
    /// Unicode normalisation).
    ///
    /// When a name that differs from `name` only in case is in the directory, there is no
    /// such file on any platform (on Apple file systems the path would reach the other
    /// name's file), and this throws, as ``save(_:as:)`` would.
    ///
    /// ```swift
    /// let url = try store.url(forName: "session")
    /// let legacy = try NSKeyedUnarchiver.unarchivedObject(ofClass: LegacySession.self, from: Data(contentsOf: url))
    /// ```
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/invalidName``) naming the
    ///   rule the name breaks or the ``ArchiveStoreError/conflictingName``;
    ///   ``ArchiveStoreError/Code/directoryFailed`` when the directory cannot be listed.
    public func url(forName name: String) throws -> URL {
        try ArchiveStoreName.validate(name)
        return try fileForWriting(name)
    }

    // MARK: - Helpers

    /// Whether the directory entry `file` is one of the store's values: a regular file with
    /// a valid name that loads as a keyed archive with a root value (the same test that
    /// keeps ``load(_:named:)`` from reporting a corrupt file). The file is opened without
    /// following links, and read in full only when its first bytes are a property list's
    /// (`bplist`, or `<?xml` / `<plist` after white space).
    private func isOwnArchive(_ file: String) -> Bool {
        guard ArchiveStoreName.brokenRule(file) == nil,
              let opened = try? InputFile(path: fileURL(file).path, followingLinks: false), opened.kind == .regular,
              let head = try? opened.readHead(64), InputKind(sniffing: head).isPropertyList,
              let data = try? opened.readAll()
        else { return false }
        return envelopeProblem(data) == nil
    }

    /// Whether the directory entry `file` is a temporary file a save left behind: its name
    /// is the store's temporary-file pattern and it is a regular file (never a folder or a link).
    private func isStaleTemporary(_ file: String) -> Bool {
        ArchiveStoreName.isTemporary(file) && DurableFile.isRegularFile(directory.appendingPathComponent(file, isDirectory: false))
    }

    /// Why `data` is not a keyed archive holding a root value, or `nil` when it is one.
    private func envelopeProblem(_ data: Data) -> (cause: String, error: any Error)? {
        do {
            let keys = try ArchiveDocument.read(data, maxDepth: decoder.limits.maxDepth) { $0.topEntries.map(\.key) }
            if keys.contains("root") { return nil }
            let listed = keys.map { "'\($0)'" }.joined(separator: ", ")
            let error = KeyedArchiveError("the archive has no root value (its top-level keys: \(listed.isEmpty ? "none" : listed))", key: "root")
            return (error.description, error)
        } catch {
            // "not a property list (it looks like a JPEG image)", "a plain property list, …"
            return (KeyedArchiveError.notAnArchiveReason(error), error)
        }
    }
}
