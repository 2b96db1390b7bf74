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

    /// Opens the store in `directory`, creating the directory (and its parents) when missing,
    /// and removes temporary files a killed process left behind.
    ///
    /// `encoder` and `decoder` are used for every value; configure them as usual (for
    /// example `encoder.outputFormat = .xml`, or `decoder.allowedClasses` for `NSCoding`
    /// classes). A directory you may read but not write works for loading.
    ///
    /// ```swift
    /// let encoder = ArchiveEncoder()
    /// encoder.outputFormat = .xml
    /// let store = try ArchiveStore(directory: URL(fileURLWithPath: "/var/lib/mytool"), encoder: encoder)
    /// ```
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/directoryFailed``) when the
    ///   directory cannot be created or a file is in its place.
    public init(directory: URL, encoder: ArchiveEncoder = .init(), decoder: ArchiveDecoder = .init()) throws {
        let directory = URL(fileURLWithPath: directory.path, isDirectory: true).standardizedFileURL
        self.directory = directory
        self.encoder = encoder
        self.decoder = decoder
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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
    /// - Throws: ``ArchiveStoreError`` for a bad name (``ArchiveStoreError/Code/invalidName``)
    ///   or a failed write (``ArchiveStoreError/Code/writeFailed``, the old value intact);
    ///   the encoder's `EncodingError` when the value cannot be encoded.
    public func save<T: Encodable>(_ value: T, as name: String) throws {
        let url = try url(forName: name)
        let data = try encoder.encode(value)
        do {
            try DirectoryLock.withLock(in: directory, exclusive: false) {
                try DurableFile.replace(url, with: data, temporaryName: ArchiveStoreName.temporaryName)
            }
        } catch {
            throw ArchiveStoreError(code: .writeFailed, name: name, file: url, cause: "\(error)", underlyingError: error)
        }
    }

    /// The value stored under `name`, or `nil` when there is none.
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
        let url = try url(forName: name)
        let data: Data
        do {
            // Mapped, and decoded in place. The store replaces files by renaming, never by
            // truncating them, so the mapping cannot shrink under the decoder.
            data = try MappedFile.contents(ofFile: url.path, others: .refuse)
        } catch let error where error.code == ENOENT {
            return nil
        } catch {
            throw ArchiveStoreError(code: .unreadableFile, name: name, file: url, cause: "\(error)", underlyingError: error)
        }
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

    /// Removes the value stored under `name`; does nothing when there is none.
    ///
    /// ```swift
    /// try store.remove(named: "session")   // at logout
    /// ```
    ///
    /// - Throws: ``ArchiveStoreError`` for a bad name or a file that cannot be removed.
    public func remove(named name: String) throws {
        let url = try url(forName: name)
        do {
            try DirectoryLock.withLock(in: directory, exclusive: false) {
                if try DurableFile.remove(url) { try DurableFile.flushDirectory(directory) }
            }
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

    /// The file that holds the value named `name`: `directory/name`, whether or not it exists.
    ///
    /// ```swift
    /// let url = try store.url(forName: "session")
    /// let legacy = try NSKeyedUnarchiver.unarchivedObject(ofClass: LegacySession.self, from: Data(contentsOf: url))
    /// ```
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/invalidName``) naming the
    ///   rule the name breaks.
    public func url(forName name: String) throws -> URL {
        try ArchiveStoreName.validate(name)
        return directory.appendingPathComponent(name, isDirectory: false)
    }

    // MARK: - Helpers

    /// The names of the directory's entries.
    private func entries() throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw ArchiveStoreError(code: .directoryFailed, file: directory, cause: "\(error)", underlyingError: error)
        }
    }

    /// Whether the directory entry `file` is one of the store's values: a regular file with
    /// a valid name that loads as a keyed archive with a root value (the same test that
    /// keeps ``load(_:named:)`` from reporting a corrupt file). The file is opened without
    /// following links, and read in full only when its first bytes are a property list's.
    private func isOwnArchive(_ file: String) -> Bool {
        let url = directory.appendingPathComponent(file, isDirectory: false)
        guard ArchiveStoreName.brokenRule(file) == nil, DurableFile.startsLikePropertyList(url),
              let data = try? DurableFile.read(url, followingLinks: false)
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
