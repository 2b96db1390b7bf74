import Foundation

extension ArchiveStore {
    /// The data protection the store gives the files it writes, on Apple platforms: the
    /// classes of Foundation's `FileProtectionType`, and ``inherited`` for the system's
    /// choice.
    ///
    /// The class decides when a file can be read: ``complete`` files only while the device
    /// is unlocked, ``completeUntilFirstUserAuthentication`` files from the first unlock
    /// after a restart on (what most apps get by default). Apply it with
    /// ``ArchiveStore/init(directory:encoder:decoder:fileProtection:excludedFromBackup:)``;
    /// it is applied as each file is written, before the file is renamed into place.
    /// Platforms and volumes without data protection (Linux, macOS volumes that do not
    /// support it) ignore it.
    ///
    /// ```swift
    /// let store = try ArchiveStore(directory: folder, fileProtection: .complete)
    /// try store.save(session, as: "session")   // readable only while the device is unlocked
    /// ```
    public enum FileProtection: Sendable, Hashable {
        /// The system's choice: a new file gets the class files created in the directory
        /// get (the directory's class, else the app's default), and a file the store
        /// replaces keeps the class it had, also one set on it outside the store.
        case inherited
        /// `FileProtectionType.complete`: readable and writable only while the device is
        /// unlocked.
        case complete
        /// `FileProtectionType.completeUnlessOpen`: a file open when the device locks stays
        /// usable; a new file can be written while the device is locked.
        case completeUnlessOpen
        /// `FileProtectionType.completeUntilFirstUserAuthentication`: readable from the
        /// first unlock after a restart on.
        case completeUntilFirstUserAuthentication
        /// `FileProtectionType.none`: readable whenever the device is on.
        case none

        /// The class number `fcntl(F_SETPROTECTIONCLASS)` takes (classes A to D), or `nil`
        /// for ``inherited``.
        var protectionClass: Int32? {
            switch self {
            case .inherited: return nil
            case .complete: return 1
            case .completeUnlessOpen: return 2
            case .completeUntilFirstUserAuthentication: return 3
            case .none: return 4
            }
        }
    }
}
