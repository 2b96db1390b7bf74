import Foundation
import Testing
@testable import KeyedArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// ArchiveStore: round trips, names, files read by independent readers (Foundation), loading
// that never destroys data, and what removeAll() counts as the store's own files.

@Suite("ArchiveStore")
struct ArchiveStoreTests {
    // MARK: - Round trips

    @Test("Values round-trip by name, and a second save replaces the first")
    func roundTrips() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try store.save(sampleAccount, as: "account")
            try store.save(42, as: "answer")
            try store.save(["b": 2, "a": 1], as: "counts")
            try store.save("ünïcödé ✓", as: "text")
            try store.save([sampleProfile, sampleProfile], as: "profiles")
            #expect(try store.load(StoredAccount.self, named: "account") == sampleAccount)
            #expect(try store.load(Int.self, named: "answer") == 42)
            #expect(try store.load([String: Int].self, named: "counts") == ["a": 1, "b": 2])
            #expect(try store.load(String.self, named: "text") == "ünïcödé ✓")
            #expect(try store.load([StoredProfile].self, named: "profiles") == [sampleProfile, sampleProfile])

            var changed = sampleAccount
            changed.note = "second save"
            try store.save(changed, as: "account")
            #expect(try store.load(StoredAccount.self, named: "account") == changed)

            // A second store on the same folder sees the same values.
            #expect(try ArchiveStore(directory: folder).load(StoredAccount.self, named: "account") == changed)
        }
    }

    @Test("A missing name loads as nil and removing it does nothing")
    func missingName() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            #expect(try store.load(StoredAccount.self, named: "nothing") == nil)
            try store.remove(named: "nothing")
            try store.save(1, as: "one")
            try store.remove(named: "one")
            #expect(try store.load(Int.self, named: "one") == nil)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("one").path))
        }
    }

    @Test("names() lists the stored names, sorted, and nothing else")
    func namesAreSorted() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            for name in ["zeta", "Alpha", "beta", "日本", "with space", "a.b", "..a-not-hidden".dropFirst(2).description] {
                try store.save(name, as: name)
            }
            let expected = ["zeta", "Alpha", "beta", "日本", "with space", "a.b", "a-not-hidden"].sorted()
            #expect(try store.names() == expected)
            #expect(try listing(folder).contains(".archivestore.lock"))
        }
    }

    @Test("url(forName:) is the file in the directory, an ordinary keyed archive ArchiveDecoder reads")
    func urlIsAnOrdinaryArchive() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder.appendingPathComponent("nested/deeper"))
            try store.save(sampleAccount, as: "account")
            let url = try store.url(forName: "account")
            #expect(url.standardizedFileURL == folder.appendingPathComponent("nested/deeper/account").standardizedFileURL)
            #expect(store.directory.standardizedFileURL == folder.appendingPathComponent("nested/deeper").standardizedFileURL)
            let data = try Data(contentsOf: url)
            #expect(data.starts(with: Array("bplist00".utf8)))
            #expect(try ArchiveDecoder().decode(StoredAccount.self, from: data) == sampleAccount)
            #expect(try ArchiveEncoder().encode(sampleAccount) == data, "the file holds exactly the encoder's bytes")
        }
    }

    @Test("The store uses its encoder's and decoder's options")
    func encoderOptions() throws {
        try withScratchFolder { folder in
            let encoder = ArchiveEncoder()
            encoder.outputFormat = .xml
            let store = try ArchiveStore(directory: folder, encoder: encoder)
            try store.save(sampleProfile, as: "profile")
            let text = String(decoding: try Data(contentsOf: store.url(forName: "profile")), as: UTF8.self)
            #expect(text.hasPrefix("<?xml"))
            #expect(try store.load(StoredProfile.self, named: "profile") == sampleProfile)
            #expect(try store.names() == ["profile"])
        }
    }

    // MARK: - Names

    /// Bad names and the rule each breaks.
    static let badNames: [(String, ArchiveStoreError.NameRule)] = [
        ("", .empty),
        (String(repeating: "n", count: 201), .tooLong),
        (String(repeating: "é", count: 100) + "x", .tooLong),   // 101 characters, 201 bytes
        ("a/b", .containsSlash),
        ("../escape", .containsSlash),
        ("/etc/passwd", .containsSlash),
        ("a\0b", .containsNUL),
        (".", .dotOrDotDot),
        ("..", .dotOrDotDot),
        (".hidden", .leadingDot),
        (".archivestore.lock", .leadingDot),
        (".archivestore-0123456789abcdef.tmp", .leadingDot),
    ]

    @Test("Every bad name throws the rule it breaks, from every operation, and creates nothing",
          arguments: badNames.indices)
    func badName(_ index: Int) throws {
        let (name, rule) = Self.badNames[index]
        try withScratchFolder { folder in
            let inner = folder.appendingPathComponent("store")
            let store = try ArchiveStore(directory: inner)
            let before = (try listing(folder), try listing(inner))
            let operations: [(String, () throws -> Void)] = [
                ("save", { try store.save(1, as: name) }),
                ("load", { _ = try store.load(Int.self, named: name) }),
                ("remove", { try store.remove(named: name) }),
                ("url", { _ = try store.url(forName: name) }),
            ]
            for (operation, body) in operations {
                let error = #expect(throws: ArchiveStoreError.self, "\(operation)") { try body() }
                #expect(error?.code == .invalidName, "\(operation)")
                #expect(error?.rule == rule, "\(operation): \(String(describing: error))")
                #expect(error?.name == name)
                #expect(error.map { "\($0)".contains(rule.description) } == true)
            }
            #expect(try listing(folder) == before.0)
            #expect(try listing(inner) == before.1)
        }
    }

    @Test("Names at the limits are accepted")
    func goodNamesAtTheLimits() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            let names = [String(repeating: "n", count: 200), String(repeating: "é", count: 100), "x", "a..b", "back\\slash", "tab\there"]
            for name in names {
                #expect(ArchiveStoreName.brokenRule(name) == nil)
                try store.save(name, as: name)
                #expect(try store.load(String.self, named: name) == name)
            }
            #expect(try store.names() == names.sorted())
        }
    }

    // MARK: - Loading never destroys data

    /// Files that are not keyed archives with a root value.
    static let corruptFiles: [(String, Data)] = {
        let archive = (try? ArchiveEncoder().encode(sampleAccount)) ?? Data()
        let noRoot = (try? ArchiveEncoder().encode(topLevel: ["other": 1])) ?? Data()
        let plainPlist = (try? PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)) ?? Data()
        return [
            ("truncated archive", archive.prefix(archive.count / 2)),
            ("archive cut to its header", archive.prefix(8)),
            ("empty file", Data()),
            ("random bytes", Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })),
            ("JSON text", Data(#"{"owner": "ada"}"#.utf8)),
            ("a property list that is not an archive", plainPlist),
            ("an archive without a root value", noRoot),
        ]
    }()

    @Test("A corrupt file throws an error naming the file and the cause, and is left byte for byte",
          arguments: corruptFiles.indices)
    func corruptFileIsUntouched(_ index: Int) throws {
        let (label, bytes) = Self.corruptFiles[index]
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            let url = try store.url(forName: "account")
            try bytes.write(to: url)
            let error = #expect(throws: ArchiveStoreError.self, "\(label)") {
                _ = try store.load(StoredAccount.self, named: "account")
            }
            #expect(error?.code == .corruptFile, "\(label): \(String(describing: error))")
            #expect(error?.file?.standardizedFileURL == url.standardizedFileURL)
            #expect(error?.name == "account")
            #expect(error.map { !$0.cause.isEmpty && "\($0)".contains(url.path) } == true, "\(String(describing: error))")
            #expect(try Data(contentsOf: url) == bytes, "\(label): the file changed")
            // Loading again gives the same answer: nothing was repaired or removed.
            #expect(throws: ArchiveStoreError.self) { _ = try store.load(StoredAccount.self, named: "account") }
            #expect(try Data(contentsOf: url) == bytes)
        }
    }

    @Test("A file that cannot be read throws unreadableFile naming it")
    func unreadableFile() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("session"), withIntermediateDirectories: false)
            let error = #expect(throws: ArchiveStoreError.self) { _ = try store.load(Int.self, named: "session") }
            #expect(error?.code == .unreadableFile)
            #expect(error?.file?.lastPathComponent == "session")
            #expect(error.map { $0.cause.contains("directory") } == true, "\(String(describing: error))")
            // A FIFO in a file's place throws at once instead of waiting for a writer.
            let fifo = try store.url(forName: "pipe")
            try #require(mkfifo(fifo.path, 0o644) == 0)
            let fifoError = #expect(throws: ArchiveStoreError.self) { _ = try store.load(Int.self, named: "pipe") }
            #expect(fifoError?.code == .unreadableFile)
            #expect(fifoError.map { $0.cause.contains("not a regular file") } == true, "\(String(describing: fifoError))")
            #expect(try store.names() == [])
        }
    }

    @Test("A type that no longer matches throws the DecodingError, never nil, and the file stays")
    func schemaDrift() throws {
        struct Version1: Codable { var name: String }
        struct Version2: Codable { var name: String; var age: Int }   // a new non-optional property
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try store.save(Version1(name: "ada"), as: "person")
            let bytes = try Data(contentsOf: store.url(forName: "person"))
            let error = #expect(throws: DecodingError.self) { _ = try store.load(Version2.self, named: "person") }
            if case .keyNotFound(let key, _)? = error {
                #expect(key.stringValue == "age")
            } else {
                Issue.record("expected keyNotFound(age), got \(String(describing: error))")
            }
            // A different type altogether is a DecodingError too.
            let mismatch = #expect(throws: DecodingError.self) { _ = try store.load(Int.self, named: "person") }
            if case .typeMismatch? = mismatch {} else { Issue.record("expected typeMismatch, got \(String(describing: mismatch))") }
            #expect(try Data(contentsOf: store.url(forName: "person")) == bytes)
            #expect(try store.load(Version1.self, named: "person")?.name == "ada")
        }
    }

    // MARK: - Foundation, both directions

    @Test("NSKeyedUnarchiver reads a stored value into the NSCoding class")
    func foundationReadsTheFile() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try store.save(sampleProfile, as: "profile")
            let data = try Data(contentsOf: store.url(forName: "profile"))
            let object = try foundationUnarchive(data, classes: ["Profile": LegacyProfile.self])
            let profile = try #require(object as? LegacyProfile)
            #expect(profile.nickname == sampleProfile.nickname)
            #expect(profile.level == sampleProfile.level)
            #expect(profile.ratio == sampleProfile.ratio)
            #expect(profile.joined == sampleProfile.joined)
        }
    }

    @Test("A file NSKeyedArchiver wrote is adopted in place under its file name",
          arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func adoptsFoundationFiles(_ format: PropertyListSerialization.PropertyListFormat) throws {
        try withScratchFolder { folder in
            // What `NSKeyedArchiver.archiveRootObject(profile, toFile: folder/legacy)` writes.
            let legacy = LegacyProfile(nickname: "ada", level: 7, ratio: 0.25, joined: sampleProfile.joined)
            let bytes = foundationArchive(legacy, format: format)
            try bytes.write(to: folder.appendingPathComponent("legacy"))
            let store = try ArchiveStore(directory: folder)
            #expect(try store.names() == ["legacy"])
            #expect(try store.load(StoredProfile.self, named: "legacy") == sampleProfile)
            #expect(try Data(contentsOf: store.url(forName: "legacy")) == bytes, "loading changed the file")
            // Saving under the name replaces it with our archive, still readable by Foundation.
            try store.save(sampleProfile, as: "legacy")
            let object = try foundationUnarchive(Data(contentsOf: store.url(forName: "legacy")), classes: ["Profile": LegacyProfile.self])
            #expect((object as? LegacyProfile)?.nickname == "ada")
        }
    }

    // MARK: - The store's own files

    @Test("removeAll() removes the values and leftover temporary files, and nothing else")
    func removeAllRemovesOnlyOwnFiles() throws {
        try withScratchFolder { folder in
            let inner = folder.appendingPathComponent("store")
            let store = try ArchiveStore(directory: inner)
            try store.save(1, as: "one")
            try store.save(sampleAccount, as: "account")
            let outside = folder.appendingPathComponent("outside-archive")
            try ArchiveEncoder().encode(2).write(to: outside)
            let fm = FileManager.default
            try Data("plain text\n".utf8).write(to: inner.appendingPathComponent("notes.txt"))
            try Data(#"{"a": 1}"#.utf8).write(to: inner.appendingPathComponent("data.json"))
            try Data("SQLite format 3\0".utf8).write(to: inner.appendingPathComponent("cache.sqlite"))
            try fm.createDirectory(at: inner.appendingPathComponent("folder"), withIntermediateDirectories: false)
            try fm.createSymbolicLink(at: inner.appendingPathComponent("link"), withDestinationURL: outside)
            try ArchiveEncoder().encode(3).write(to: inner.appendingPathComponent(".DS_Store"))
            let stale = ".archivestore-0123456789abcdef.tmp"
            try ArchiveEncoder().encode(4).write(to: inner.appendingPathComponent(stale))

            #expect(try store.names() == ["account", "one"])
            try store.removeAll()
            #expect(try store.names() == [])
            #expect(try listing(inner) == [".DS_Store", ".archivestore.lock", ".archivestore.names.lock", "cache.sqlite", "data.json", "folder", "link", "notes.txt"])
            #expect(try ArchiveDecoder().decode(Int.self, from: Data(contentsOf: outside)) == 2, "the link's target was touched")
            // The store still works after clearing.
            try store.save(5, as: "five")
            #expect(try store.load(Int.self, named: "five") == 5)
        }
    }

    @Test("Stale temporary files are never listed and the next init removes them")
    func staleTemporaryFiles() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try store.save(1, as: "one")
            let stale = [".archivestore-0000000000000000.tmp", ".archivestore-ffffffffffffffff.tmp"]
            let notOurs = [".archivestore-notours.tmp", ".archivestore-0123.tmp", ".archivestore-0123456789ABCDEF.tmp", ".other.tmp"]
            for name in stale + notOurs {
                try ArchiveEncoder().encode(name).write(to: folder.appendingPathComponent(name))
            }
            #expect(try store.names() == ["one"])
            _ = try ArchiveStore(directory: folder)
            #expect(try temporaryFiles(in: folder).sorted() == [".archivestore-0123.tmp", ".archivestore-0123456789ABCDEF.tmp", ".archivestore-notours.tmp"])
            #expect(try listing(folder) == ([".archivestore.lock", ".archivestore.names.lock", "one"] + notOurs).sorted())
            #expect(try store.load(Int.self, named: "one") == 1)
        }
    }

    @Test("A file where the directory should be throws directoryFailed")
    func directoryInTheWay() throws {
        try withScratchFolder { folder in
            let file = folder.appendingPathComponent("file")
            try Data("x".utf8).write(to: file)
            let error = #expect(throws: ArchiveStoreError.self) { _ = try ArchiveStore(directory: file) }
            #expect(error?.code == .directoryFailed)
            #expect(error?.file?.lastPathComponent == "file")
        }
    }

    #if !canImport(Darwin)
    @Test("The default location follows XDG_DATA_HOME, else ~/.local/share, under the executable's name")
    func defaultLocation() throws {
        let name = ProcessInfo.processInfo.processName
        #expect(try ArchiveStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/data/home", "HOME": "/home/ada"]).path
                == "/data/home/\(name)")
        #expect(try ArchiveStore.defaultDirectory(environment: ["XDG_DATA_HOME": "relative/ignored", "HOME": "/home/ada"]).path
                == "/home/ada/.local/share/\(name)")
        #expect(try ArchiveStore.defaultDirectory(environment: ["HOME": "/home/ada"]).path == "/home/ada/.local/share/\(name)")
    }
    #endif
}
