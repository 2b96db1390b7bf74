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

    /// The bytes of the file holding the valid name `name` (mapped), and its URL; `nil` when
    /// the directory holds no file of that name — also when a file system that ignores case
    /// finds another name's file for it.
    ///
    /// - Throws: ``ArchiveStoreError`` (``ArchiveStoreError/Code/unreadableFile``) when the
    ///   file exists but cannot be opened or read.
    func storedData(named name: String) throws -> (url: URL, data: Data)? {
        var url = fileURL(name)
        var (fd, code) = openForReading(url)
        if fd < 0, code == ENOENT, !ArchiveStoreName.hasOneSpelling(name),
           case .file(let spelling)? = try? match(name) {
            // On a file system that keeps normalisations apart, the name's file may be
            // spelled otherwise (`e` + U+0301 for `é`).
            url = fileURL(spelling)
            (fd, code) = openForReading(url)
        }
        guard fd >= 0 else {
            if code == ENOENT { return nil }
            let error = FileReadError(path: url.path, step: "open", code: code)
            throw ArchiveStoreError(code: .unreadableFile, name: name, file: url, cause: "\(error)", underlyingError: error)
        }
        defer { close(fd) }
        guard ArchiveStoreName.isOwnFile(named: name, onDisk: OpenFileName.name(of: fd), listing: entries) else { return nil }
        do {
            // Mapped, and decoded in place. The store replaces files by renaming, never by
            // truncating them, so the mapping cannot shrink under the decoder.
            return (url, try MappedFile.mapping(ofOpenFile: fd, path: url.path, others: .refuse).data)
        } catch {
            throw ArchiveStoreError(code: .unreadableFile, name: name, file: url, cause: "\(error)", underlyingError: error)
        }
    }

    /// Opens `url` read-only without blocking on a FIFO: the descriptor, or -1 and `errno`.
    private func openForReading(_ url: URL) -> (fd: Int32, code: Int32) {
        let fd = DurableFile.retryingOnInterrupt { open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        return (fd, fd < 0 ? errno : 0)
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
