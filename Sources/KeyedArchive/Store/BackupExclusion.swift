import Foundation

/// Keeping a folder out of backups: `URLResourceValues.isExcludedFromBackup` on Apple
/// platforms (iCloud and Finder/iTunes device backups, Time Machine); elsewhere nothing,
/// since no such flag exists.
enum BackupExclusion {
    /// Marks `directory`, and so everything in it, as excluded from backups.
    static func exclude(_ directory: URL) throws {
        #if canImport(Darwin)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        var url = directory
        try url.setResourceValues(values)
        #endif
    }
}
