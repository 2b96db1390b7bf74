import Foundation

extension ArchiveStore {
    /// The store in the platform's usual place for an app's own data, created on first use.
    ///
    /// - macOS, iOS, iPadOS, watchOS, visionOS: `Application Support/<bundle identifier>`
    ///   (the executable's name when there is no bundle identifier), in the user's domain.
    /// - tvOS: `Caches/<bundle identifier>`. tvOS gives apps no durable local storage: the
    ///   system may delete the folder whenever the app is not running (and, short of space,
    ///   even while it runs), so ``load(_:named:)`` can find nothing where a value was
    ///   saved. Keep only what the app can fetch or rebuild there; keep what must last in
    ///   iCloud (`NSUbiquitousKeyValueStore`, CloudKit), or small settings in `UserDefaults`
    ///   (about 500 KB on tvOS).
    /// - Linux and other platforms: `$XDG_DATA_HOME/<executable name>` when `XDG_DATA_HOME`
    ///   is set to an absolute path, else `~/.local/share/<executable name>`.
    ///
    /// The store is made once per process, with a default ``ArchiveEncoder`` and
    /// ``ArchiveDecoder``; the first access creates the directory. If that fails, every
    /// access throws the same ``ArchiveStoreError``. Share the folder with other files if you
    /// like: the store lists and clears only its own (see ``removeAll()``).
    ///
    /// ```swift
    /// let store = try ArchiveStore.default
    /// try store.save(session, as: "session")
    /// print(store.directory.path)   // e.g. /home/ada/.local/share/MyTool
    /// ```
    public static var `default`: ArchiveStore {
        get throws { try defaultStore.get() }
    }

    private static let defaultStore = Result<ArchiveStore, any Error> {
        try ArchiveStore(directory: defaultDirectory(environment: ProcessInfo.processInfo.environment))
    }

    /// The directory ``default`` uses, from `environment` (for `XDG_DATA_HOME` and `HOME`).
    static func defaultDirectory(environment: [String: String]) throws -> URL {
        let processName = ProcessInfo.processInfo.processName
        #if canImport(Darwin)
        let base: URL
        #if os(tvOS)
        let (folder, folderName) = (FileManager.SearchPathDirectory.cachesDirectory, "Caches")
        #else
        let (folder, folderName) = (FileManager.SearchPathDirectory.applicationSupportDirectory, "Application Support")
        #endif
        do {
            base = try FileManager.default.url(for: folder, in: .userDomainMask, appropriateFor: nil, create: false)
        } catch {
            throw ArchiveStoreError(code: .directoryFailed, cause: "no \(folderName) directory: \(error)",
                                    underlyingError: error)
        }
        return base.appendingPathComponent(Bundle.main.bundleIdentifier ?? processName, isDirectory: true)
        #else
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent(processName, isDirectory: true)
        #endif
    }
}
