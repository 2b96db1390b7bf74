import Foundation
import Testing
@testable import KeyedArchive

// The store on Apple file systems, checked on Linux: names that APFS and HFS+ make one file
// (case, Unicode normalisation) behave the same everywhere; data protection and backup
// exclusion are accepted everywhere. A file that would collide on APFS is made by hand here,
// as an Apple file system would present it.

@Suite("ArchiveStore on Apple file systems")
struct ArchiveStoreAppleFileSystemTests {
    static let nfc = "caf\u{E9}"          // café, é precomposed
    static let nfd = "cafe\u{301}"        // café, e + combining acute

    // MARK: - Case

    @Test("A name that differs from a stored one only in case is refused, and finds nothing")
    func caseConflict() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try store.save(1, as: "Session")
            let error = #expect(throws: ArchiveStoreError.self) { try store.save(2, as: "session") }
            #expect(error?.code == .invalidName)
            #expect(error?.name == "session")
            #expect(error?.conflictingName == "Session")
            #expect(error?.rule == nil)
            #expect(error?.description.contains("\"session\"") == true && error?.description.contains("\"Session\"") == true,
                    "\(error?.description ?? "")")

            #expect(try store.load(Int.self, named: "session") == nil)
            try store.remove(named: "session")
            #expect(try store.load(Int.self, named: "Session") == 1, "removing the other name left this one")
            #expect(throws: ArchiveStoreError.self) { try store.url(forName: "session") }
            #expect(try store.url(forName: "Session").lastPathComponent == "Session")
            #expect(try store.names() == ["Session"])
            #expect(try temporaryFiles(in: folder).isEmpty)

            // Once the first is removed, the second name is free.
            try store.remove(named: "Session")
            try store.save(2, as: "session")
            #expect(try store.names() == ["session"])
        }
    }

    @Test("Names are folded with full Unicode case folding and compared canonically",
          arguments: [("Session", "SESSION"), ("stra\u{DF}e", "STRASSE"), ("\u{212A}elvin", "kelvin"),
                      ("\u{FB01}le", "FILE"), ("\u{C4}rger", "a\u{308}rger"), ("\u{3A3}\u{39F}\u{3A6}\u{399}\u{391}", "\u{3C3}\u{3BF}\u{3C6}\u{3B9}\u{3B1}")])
    func foldedNamesConflict(existing: String, name: String) throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            // Made by hand, as a file another program (or an older version) left.
            try ArchiveEncoder().encode("theirs").write(to: folder.appendingPathComponent(existing))
            let error = #expect(throws: ArchiveStoreError.self) { try store.save("ours", as: name) }
            #expect(error?.conflictingName == existing)
            #expect(try store.load(String.self, named: name) == nil)
            #expect(try store.load(String.self, named: existing) == "theirs")
            #expect(try listing(folder).filter { !$0.hasPrefix(".") } == [existing])
        }
    }

    @Test("Any entry counts: a folder or a foreign file with a folded name blocks the save")
    func foreignEntriesConflict() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("Data"), withIntermediateDirectories: false)
            try Data("readme".utf8).write(to: folder.appendingPathComponent("README"))
            #expect(throws: ArchiveStoreError.self) { try store.save(1, as: "data") }
            #expect(throws: ArchiveStoreError.self) { try store.save(1, as: "readme") }
            try store.remove(named: "readme")
            #expect(try Data(contentsOf: folder.appendingPathComponent("README")) == Data("readme".utf8))
        }
    }

    @Test("A directory that already holds two such names (written on Linux before) keeps working for both")
    func existingPairsStayUsable() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try ArchiveEncoder().encode(1).write(to: folder.appendingPathComponent("a"))
            try ArchiveEncoder().encode(2).write(to: folder.appendingPathComponent("A"))
            try store.save(10, as: "a")
            try store.save(20, as: "A")
            #expect(try store.load(Int.self, named: "a") == 10)
            #expect(try store.load(Int.self, named: "A") == 20)
            #expect(try store.names() == ["A", "a"])
            try store.remove(named: "a")
            #expect(try store.names() == ["A"])
        }
    }

    @Test("Concurrent saves of names that differ in case leave exactly one of them, whole")
    func concurrentCaseVariants() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            let variants = ["token", "TOKEN", "Token", "toKen"]
            let failures = FailureLog()
            DispatchQueue.concurrentPerform(iterations: 32) { index in
                let name = variants[index % variants.count]
                do {
                    try store.save(index, as: name)
                } catch let error as ArchiveStoreError where error.code == .invalidName && error.conflictingName != nil {
                    // expected for all names but the first to land
                } catch {
                    failures.add("\(name): \(error)")
                }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
            let names = try store.names()
            #expect(names.count == 1, "\(names)")
            if let name = names.first {
                #expect(try store.load(Int.self, named: name) != nil)
            }
            #expect(try temporaryFiles(in: folder).isEmpty)
        }
    }

    // MARK: - Normalisation

    @Test("Canonically equivalent names are one name: one file, whichever spelling is used")
    func normalisationIsOneName() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try store.save(1, as: Self.nfc)
            #expect(try store.load(Int.self, named: Self.nfd) == 1)
            try store.save(2, as: Self.nfd)
            let files = try listing(folder).filter { !$0.hasPrefix(".") }
            #expect(files.count == 1)
            #expect(files.first.map { Array($0.utf8) } == Array(Self.nfc.utf8), "the file keeps its spelling")
            #expect(try store.load(Int.self, named: Self.nfc) == 2)
            #expect(try Array(store.url(forName: Self.nfd).lastPathComponent.utf8) == Array(Self.nfc.utf8))
            try store.remove(named: Self.nfd)
            #expect(try store.names().isEmpty)
        }
    }

    @Test("A file spelled decomposed (as HFS+ lists names) is found by the precomposed name")
    func decomposedFileIsFound() throws {
        try withScratchFolder { folder in
            try ArchiveEncoder().encode("hfs").write(to: folder.appendingPathComponent(Self.nfd))
            let store = try ArchiveStore(directory: folder)
            #expect(try store.load(String.self, named: Self.nfc) == "hfs")
            try store.save("new", as: Self.nfc)
            #expect(try listing(folder).filter { !$0.hasPrefix(".") }.map { Array($0.utf8) } == [Array(Self.nfd.utf8)])
            #expect(try store.load(String.self, named: Self.nfd) == "new")
        }
    }

    // MARK: - The rules, as pure functions

    @Test("match: the exact spelling wins, then an equivalent one, then a conflict; listing order does not matter")
    func matchRules() {
        typealias Name = ArchiveStoreName
        #expect(Name.match("a", in: ["b", "a", "A"]) == .file("a"))
        #expect(Name.match("a", in: ["b", "A"]) == .conflict("A"))
        #expect(Name.match("a", in: ["b", ".a"]) == .none)
        #expect(Name.match(Self.nfc, in: ["Caf\u{E9}", Self.nfd]) == .file(Self.nfd))
        #expect(Name.match(Self.nfc, in: ["CAFE\u{301}", "Caf\u{E9}"]) == Name.match(Self.nfc, in: ["Caf\u{E9}", "CAFE\u{301}"]))
        #expect(Name.match("session", in: ["sessions", "sessio"]) == .none)
    }

    @Test("A file found for a name is its own unless the system names it otherwise and the listing agrees")
    func ownFileRules() {
        struct Unlistable: Error {}
        typealias Name = ArchiveStoreName
        #expect(Name.isOwnFile(named: "session", onDisk: nil, listing: { [] }), "Linux: the lookup was exact")
        #expect(Name.isOwnFile(named: "session", onDisk: "session", listing: { throw Unlistable() }))
        #expect(Name.isOwnFile(named: Self.nfc, onDisk: Self.nfd, listing: { throw Unlistable() }), "HFS+ stores names decomposed")
        #expect(!Name.isOwnFile(named: "session", onDisk: "Session", listing: { ["Session"] }), "APFS opened another name's file")
        #expect(Name.isOwnFile(named: "session", onDisk: "link", listing: { ["link", "session"] }), "another hard link's name")
        #expect(!Name.isOwnFile(named: "session", onDisk: "Session", listing: { throw Unlistable() }))
    }

    // MARK: - Data protection and backups

    @Test("File protection maps to classes A to D, and inherited to none")
    func protectionClasses() {
        #expect(ArchiveStore.FileProtection.inherited.protectionClass == nil)
        #expect(ArchiveStore.FileProtection.complete.protectionClass == 1)
        #expect(ArchiveStore.FileProtection.completeUnlessOpen.protectionClass == 2)
        #expect(ArchiveStore.FileProtection.completeUntilFirstUserAuthentication.protectionClass == 3)
        #expect(ArchiveStore.FileProtection.none.protectionClass == 4)
    }

    @Test("Protection and backup exclusion are accepted everywhere, and do nothing on Linux",
          arguments: [ArchiveStore.FileProtection.inherited, .complete, .completeUnlessOpen, .completeUntilFirstUserAuthentication, .none])
    func optionsAreAccepted(protection: ArchiveStore.FileProtection) throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder.appendingPathComponent("store"), fileProtection: protection,
                                         excludedFromBackup: true)
            try store.save(sampleAccount, as: "account")
            try store.save(sampleAccount, as: "account")
            #expect(try store.load(StoredAccount.self, named: "account") == sampleAccount)
            #if !canImport(Darwin)
            #expect(try listing(store.directory) == [".archivestore.lock", ".archivestore.names.lock", "account"])
            #endif
        }
    }

    @Test("A symbolic link planted as the names lock is not followed")
    func namesLockLink() throws {
        try withScratchFolder { folder in
            let inner = folder.appendingPathComponent("store")
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
            let victim = folder.appendingPathComponent("victim")
            try FileManager.default.createSymbolicLink(at: inner.appendingPathComponent(".archivestore.names.lock"), withDestinationURL: victim)
            let store = try ArchiveStore(directory: inner)
            let error = #expect(throws: ArchiveStoreError.self) { try store.save(1, as: "one") }
            #expect(error?.code == .writeFailed)
            #expect(error?.cause.contains(".archivestore.names.lock") == true, "\(error?.cause ?? "")")
            #expect(throws: ArchiveStoreError.self) { try store.remove(named: "one") }
            #expect(!FileManager.default.fileExists(atPath: victim.path), "the store created a file through the link")
            #expect(try listing(inner) == [".archivestore.lock", ".archivestore.names.lock"])
        }
    }

    // MARK: - On Apple platforms (compiled and run only there)

    #if canImport(ObjectiveC)
    @Test("On a case-insensitive volume, the other name's file is not loaded or removed")
    func darwinCaseInsensitiveVolume() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try store.save(1, as: "Session")
            #expect(try store.load(Int.self, named: "session") == nil)
            try store.remove(named: "session")
            #expect(try store.load(Int.self, named: "Session") == 1)
        }
    }

    @Test("excludedFromBackup sets the folder's resource value")
    func darwinExcludedFromBackup() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder.appendingPathComponent("store"), excludedFromBackup: true)
            let values = try store.directory.resourceValues(forKeys: [.isExcludedFromBackupKey])
            #expect(values.isExcludedFromBackup == true)
        }
    }
    #endif
}
