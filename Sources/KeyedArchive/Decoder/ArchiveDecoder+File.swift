import Foundation

extension ArchiveDecoder {
    /// Decodes the archive in the file at `url` (binary or XML), memory-mapped rather than
    /// read into memory: the file's bytes are decoded in place, so a large archive costs
    /// little more memory than the values decoded from it. On Linux, where a mapping's
    /// pages count in the process's resident size, the pages read so far are released as
    /// the decode goes (every 2^20 units of work, about 10 MB of records), so a 208 MB
    /// archive of records peaks at about 1.35× its size, decoded values included.
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "/var/mobile/Library/Preferences/settings.archive")
    /// let settings = try ArchiveDecoder().decode(Settings.self, contentsOf: url)
    /// ```
    ///
    /// Reads the value ``decode(_:from:)`` reads. Only a regular file is decoded: the path
    /// is opened without blocking and without waiting for a writer, and a directory, a FIFO,
    /// a device (a symbolic link to `/dev/zero`), a socket or a `/proc` file (whose size is
    /// not known in advance) throws an error naming what it is.
    ///
    /// **Mapped files must not shrink.** The size is taken with `fstat` before mapping and
    /// only that much is read (bytes appended meanwhile are not). Another process that
    /// truncates the file *while* it is decoded makes this process crash with SIGBUS, as
    /// any memory-mapped reading can; files saved by renaming a new file over the old one,
    /// as ``ArchiveStore`` and most programs save, are safe. For a file another program may
    /// rewrite in place, read it with `Data(contentsOf:)` and call ``decode(_:from:)``, or
    /// use ``ArchiveStore``, which reads rather than maps.
    ///
    /// - Throws: a `CocoaError` like `Data(contentsOf:)`'s when the file cannot be read
    ///   (`.fileReadNoSuchFile`, `.fileReadNoPermission`, `.fileReadUnknown` for a folder or
    ///   another kind of file), whose description names the file and the reason ("cannot
    ///   open '/tmp/a.archive': No such file or directory", "cannot read '/tmp/pipe': it is
    ///   a FIFO (named pipe), not a regular file"); `DecodingError.dataCorrupted` naming
    ///   the file when it is not a keyed archive ("The file '/tmp/a.jpg' is not a property
    ///   list (it looks like a JPEG image)"); otherwise what ``decode(_:from:)`` throws.
    public func decode<T: Decodable>(_ type: T.Type, contentsOf url: URL) throws -> T {
        try decode(T.self, contentsOf: url, releasingPagesEvery: Self.pageReleaseInterval)
    }

    /// ``decode(_:contentsOf:)``, releasing the mapped file's resident pages every
    /// `interval` units of work (tests use a small one).
    func decode<T: Decodable>(_ type: T.Type, contentsOf url: URL, releasingPagesEvery interval: Int) throws -> T {
        guard url.isFileURL else {
            throw CocoaError(.fileReadUnsupportedScheme, userInfo: [NSURLErrorKey: url,
                NSLocalizedDescriptionKey: "cannot read '\(url.absoluteString)': only file URLs can be decoded"])
        }
        let file: (data: Data, isMapped: Bool)
        do {
            file = try MappedFile.mapping(of: InputFile(path: url.path))
        } catch {
            throw error.cocoaError
        }
        return try file.data.withUnsafeBytes { bytes in
            try withSession(bytes, file: url, releasingPagesEvery: file.isMapped ? interval : nil) { try decodeRoot(T.self, in: $0) }
        }
    }

    /// Work units between two releases of a mapped file's resident pages (see
    /// `MappedFile.releaseResidentPages(address:count:)`): about 10 MB of an archive of
    /// records, so at most that much of a large file is resident at once beyond what the
    /// decode reads again (its offset table, key strings, class entries).
    static let pageReleaseInterval = 1 << 20
}
