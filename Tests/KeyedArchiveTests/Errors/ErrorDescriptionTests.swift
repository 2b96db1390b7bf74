import Foundation
import KeyedArchive
import Testing

/// Every error type the library defines is a `LocalizedError` whose
/// `errorDescription` (and so `localizedDescription`) is its useful one-line description,
/// not "KeyedArchive.ArchiveStoreError error 1".
@Suite("Errors: localized descriptions")
struct ErrorDescriptionTests {
    @Test("PropertyListError")
    func propertyListError() {
        let error: any Error = PropertyListError("unexpected end of data at line 3")
        #expect(error.localizedDescription == "invalid property list: unexpected end of data at line 3")
        #expect((error as? any LocalizedError)?.errorDescription == "invalid property list: unexpected end of data at line 3")
    }

    @Test("KeyedArchiveError")
    func keyedArchiveError() {
        let error: any Error = KeyedArchiveError("UID 9 is out of range (5 objects)", objectIndex: 4, key: "$class")
        #expect(error.localizedDescription == "object 4, key '$class': UID 9 is out of range (5 objects)")
        let bare: any Error = KeyedArchiveError("missing $objects")
        #expect(bare.localizedDescription == "missing $objects")
    }

    @Test("ArchiveStoreError, every code", arguments: [
        (ArchiveStoreError.Code.directoryFailed, "store directory /tmp/s: Permission denied"),
        (.unreadableFile, "cannot read /tmp/s/session: Permission denied"),
        (.corruptFile, "corrupt file /tmp/s/session (left unchanged): Permission denied"),
        (.writeFailed, "cannot save /tmp/s/session: Permission denied"),
        (.removeFailed, "cannot remove /tmp/s/session: Permission denied"),
    ])
    func archiveStoreError(code: ArchiveStoreError.Code, expected: String) {
        let file = URL(fileURLWithPath: code == .directoryFailed ? "/tmp/s" : "/tmp/s/session")
        let error: any Error = ArchiveStoreError(code: code, name: "session", file: file, cause: "Permission denied")
        #expect(error.localizedDescription == expected)
        #expect(!error.localizedDescription.contains("error 1"))
    }

    @Test("ArchiveStoreError's underlying system error has a description too")
    func underlyingSystemError() throws {
        let folder = Scratch.file("errors-gone")
        let store = try ArchiveStore(directory: folder)
        try FileManager.default.removeItem(at: folder)
        do {
            try store.save(1, as: "one")
            Issue.record("saved into a removed directory")
        } catch let error as ArchiveStoreError {
            #expect(error.localizedDescription.contains("No such file or directory"), "\(error)")
            let underlying = try #require(error.underlyingError)
            #expect(underlying.localizedDescription.contains("No such file or directory"), "\(underlying)")
        }
    }

    @Test("ArchiveStoreError from a real store")
    func archiveStoreErrorThrown() throws {
        let store = try ArchiveStore(directory: Scratch.file("errors"))
        defer { try? FileManager.default.removeItem(at: store.directory) }
        do {
            try store.save(1, as: ".hidden")
            Issue.record("saved under a dot name")
        } catch {
            #expect(error.localizedDescription == "invalid name \".hidden\": a name may not start with '.' (reserved for temporary files)")
        }
    }
}
