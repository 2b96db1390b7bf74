import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Finding the file of a name, by the rule of `ArchiveStoreName.match(_:in:)`, so that load,
// save, remove and url(forName:) agree on every file system.
extension ArchiveStore {
    /// `directory/fileName`.
    func fileURL(_ fileName: String) -> URL {
        directory.appendingPathComponent(fileName, isDirectory: false)
    }

    /// What the valid name `name` is in the directory now.
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/directoryFailed``) when the
    ///   directory cannot be listed.
    func match(_ name: String) throws -> ArchiveStoreName.Match {
        ArchiveStoreName.match(name, in: try entries())
    }

    /// The file a save or removal of the valid name `name` works on: the one holding it, or
    /// `directory/name` when there is none.
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/invalidName`` with
    ///   ``ArchiveStoreError/conflictingName``) when another entry folds to the same name.
    func fileForWriting(_ name: String) throws -> URL {
        switch try match(name) {
        case .file(let spelling): return fileURL(spelling)
        case .none: return fileURL(name)
        case .conflict(let existing): throw ArchiveStoreError.conflict(name, with: existing, file: fileURL(existing))
        }
    }

    /// The bytes of the file holding the valid name `name`, and its URL; `nil` when the
    /// directory holds no file of that name — also when a file system that ignores case
    /// finds another name's file for it.
    ///
    /// The file is read into memory, never mapped: the store reads files that other
    /// programs may write, and one that truncates the file in place meanwhile must give an
    /// error, not SIGBUS (see ``InputFile``).
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/unreadableFile``) when the
    ///   file exists but cannot be opened or read, or is not a regular file.
    func storedData(named name: String) throws -> (url: URL, data: Data)? {
        var url = fileURL(name)
        var opened = openForReading(url)
        if case .failure(let error) = opened, error.code == ENOENT, !ArchiveStoreName.hasOneSpelling(name),
           case .file(let spelling)? = try? match(name) {
            // On a file system that keeps normalisations apart, the name's file may be
            // spelled otherwise (`e` + U+0301 for `é`).
            url = fileURL(spelling)
            opened = openForReading(url)
        }
        do {
            let file: InputFile
            // A switch, not `get()`: the Swift 5.8 standard library of Apple's older SDKs
            // throws untyped errors from it.
            switch opened {
            case .success(let opened): file = opened
            case .failure(let error) where error.code == ENOENT: return nil
            case .failure(let error): throw error
            }
            guard ArchiveStoreName.isOwnFile(named: name, onDisk: OpenFileName.name(of: file.descriptor), listing: entries) else { return nil }
            try file.requireRegularFile()
            return (url, try file.readAll())
        } catch {
            throw ArchiveStoreError(code: .unreadableFile, name: name, file: url, cause: "\(error)", underlyingError: error)
        }
    }

    /// Opens `url` read-only without blocking on a FIFO.
    private func openForReading(_ url: URL) -> Result<InputFile, FileReadError> {
        do throws(FileReadError) {
            return .success(try InputFile(path: url.path))
        } catch {
            return .failure(error)
        }
    }

    /// The names of the directory's entries.
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/directoryFailed``).
    func entries() throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw ArchiveStoreError(code: .directoryFailed, file: directory, cause: "\(error)", underlyingError: error)
        }
    }
}
