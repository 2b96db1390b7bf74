import Foundation
import Testing
@testable import KeyedArchive

/// The store lists and removes only its own files, and never writes through a symbolic link.
@Suite("ArchiveStore: only its own files")
struct ArchiveStoreOwnFilesTests {
    /// Files that are not the store's, by name, with their contents: other programs' property
    /// lists in both formats, XML-looking text, keyed archives it cannot load as a value.
    static func foreignFiles() throws -> [(name: String, data: Data)] {
        let preferences = try PropertyListSerialization.data(
            fromPropertyList: ["NSWindowFrame": "0 0 100 100", "Count": 3], format: .binary, options: 0)
        let xmlPreferences = try PropertyListSerialization.data(
            fromPropertyList: ["Theme": "dark"], format: .xml, options: 0)
        let binaryArray = try PropertyListSerialization.data(fromPropertyList: [1, 2, 3], format: .binary, options: 0)
        // A keyed archive with no root value: another program's, under its own top key.
        let otherArchiver = NSKeyedArchiver(requiringSecureCoding: false)
        otherArchiver.encode("theirs" as NSString, forKey: "payload")
        otherArchiver.finishEncoding()
        return [
            ("Preferences.plist", preferences),
            ("settings", xmlPreferences),
            ("numbers", binaryArray),
            ("other-archive", otherArchiver.encodedData),
            ("README", Data("<?xml version=\"1.0\"?>\n<note>not a property list</note>\n".utf8)),
            ("broken.plist", Data("<plist version=\"1.0\"><dict><key>a</key>".utf8)),
            ("bplist-ish", Data("bplist00 but nothing else".utf8)),
            ("empty", Data()),
        ]
    }

    @Test("names() and removeAll() cover only files the store loads; plists, text, folders, dot files and links stay")
    func onlyLoadableArchives() throws {
        try withScratchFolder { folder in
            let inner = folder.appendingPathComponent("store")
            let store = try ArchiveStore(directory: inner)
            try store.save(1, as: "one")
            try store.save(sampleAccount, as: "account")
            // An archive NSKeyedArchiver wrote under the root key is a value the store loads.
            try NSKeyedArchiver.archivedData(withRootObject: "legacy" as NSString, requiringSecureCoding: false)
                .write(to: inner.appendingPathComponent("legacy"))
            let foreign = try Self.foreignFiles()
            for file in foreign { try file.data.write(to: inner.appendingPathComponent(file.name)) }
            let fm = FileManager.default
            let outside = folder.appendingPathComponent("outside-archive")
            try ArchiveEncoder().encode(2).write(to: outside)
            try fm.createDirectory(at: inner.appendingPathComponent("folder"), withIntermediateDirectories: false)
            try ArchiveEncoder().encode(6).write(to: inner.appendingPathComponent("folder/inside"))
            try fm.createSymbolicLink(at: inner.appendingPathComponent("link"), withDestinationURL: outside)
            try fm.createSymbolicLink(atPath: inner.appendingPathComponent("link-in").path, withDestinationPath: "one")
            try ArchiveEncoder().encode(3).write(to: inner.appendingPathComponent(".hidden"))
            // The temporary-file pattern on things that are not temporary files.
            try fm.createDirectory(at: inner.appendingPathComponent(".archivestore-00000000000000aa.tmp"), withIntermediateDirectories: false)
            try fm.createSymbolicLink(at: inner.appendingPathComponent(".archivestore-00000000000000bb.tmp"), withDestinationURL: outside)
            let before = try listing(inner)

            #expect(try store.names() == ["account", "legacy", "one"])
            for file in foreign {
                #expect(throws: ArchiveStoreError.self, "\(file.name) loads as a value") {
                    _ = try store.load(Int.self, named: file.name)
                }
            }
            try store.removeAll()
            #expect(try store.names() == [])
            let expected = before.filter { !["account", "legacy", "one"].contains($0) }
            #expect(try listing(inner) == expected)
            for file in foreign {
                #expect(try Data(contentsOf: inner.appendingPathComponent(file.name)) == file.data, "\(file.name) changed")
            }
            #expect(try ArchiveDecoder().decode(Int.self, from: Data(contentsOf: outside)) == 2, "the link's target was touched")
            #expect(try ArchiveDecoder().decode(Int.self, from: Data(contentsOf: inner.appendingPathComponent("folder/inside"))) == 6)
        }
    }

    @Test("A symbolic link planted as the lock file is not followed: saves fail clearly and nothing is created outside",
          arguments: [false, true])
    func lockFileLink(targetExists: Bool) throws {
        try withScratchFolder { folder in
            let inner = folder.appendingPathComponent("store")
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
            let victim = folder.appendingPathComponent("victim")
            if targetExists { try Data("keep".utf8).write(to: victim) }
            try FileManager.default.createSymbolicLink(at: inner.appendingPathComponent(".archivestore.lock"), withDestinationURL: victim)

            let store = try ArchiveStore(directory: inner)
            let error = #expect(throws: ArchiveStoreError.self) { try store.save(1, as: "one") }
            #expect(error?.code == .writeFailed)
            #expect(error?.cause.contains(".archivestore.lock") == true, "\(error?.cause ?? "")")
            #expect(error?.cause.contains("symbolic link") == true, "\(error?.cause ?? "")")
            #expect(throws: ArchiveStoreError.self) { try store.removeAll() }
            if targetExists {
                #expect(try Data(contentsOf: victim) == Data("keep".utf8))
            } else {
                #expect(!FileManager.default.fileExists(atPath: victim.path), "the store created a file through the link")
            }
            #expect(try listing(inner) == [".archivestore.lock"])
        }
    }

    @Test("A folder planted as the lock file throws a clear error")
    func lockFileFolder() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(".archivestore.lock"), withIntermediateDirectories: false)
            let store = try ArchiveStore(directory: folder)
            let error = #expect(throws: ArchiveStoreError.self) { try store.save(1, as: "one") }
            #expect(error?.code == .writeFailed)
            #expect(error?.cause.contains(".archivestore.lock") == true, "\(error?.cause ?? "")")
        }
    }

    @Test("Saving over a symbolic link replaces the link, never the file it points to")
    func saveReplacesLink() throws {
        try withScratchFolder { folder in
            let inner = folder.appendingPathComponent("store")
            let store = try ArchiveStore(directory: inner)
            let victim = folder.appendingPathComponent("victim")
            try Data("keep".utf8).write(to: victim)
            try FileManager.default.createSymbolicLink(at: inner.appendingPathComponent("one"), withDestinationURL: victim)
            try store.save(1, as: "one")
            #expect(try Data(contentsOf: victim) == Data("keep".utf8))
            #expect(try store.load(Int.self, named: "one") == 1)
            #expect(DurableFile.isRegularFile(inner.appendingPathComponent("one")))
        }
    }

    @Test("The write helper creates its temporary file exclusively: a link or file planted under the name is never opened")
    func temporaryFileIsExclusive() throws {
        try withScratchFolder { folder in
            let victim = folder.appendingPathComponent("victim")
            try Data("keep".utf8).write(to: victim)
            let planted = "planted.tmp"
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(planted), withDestinationURL: victim)
            try Data("theirs".utf8).write(to: folder.appendingPathComponent("existing.tmp"))
            let target = folder.appendingPathComponent("out")
            for name in [planted, "existing.tmp"] {
                let error = #expect(throws: SystemCallError.self) {
                    try DurableFile.replace(target, with: [UInt8]("new".utf8)) { name }
                }
                #expect(error?.code == EEXIST)
            }
            #expect(try Data(contentsOf: victim) == Data("keep".utf8))
            #expect(try Data(contentsOf: folder.appendingPathComponent("existing.tmp")) == Data("theirs".utf8))
            #expect(!FileManager.default.fileExists(atPath: target.path))
            // With fresh names it writes, and leaves no temporary file behind.
            try DurableFile.replace(target, with: [UInt8]("new".utf8)) { DurableFile.temporaryName(prefix: ".t-") }
            #expect(try Data(contentsOf: target) == Data("new".utf8))
            #expect(try listing(folder) == ["existing.tmp", "out", planted, "victim"].sorted())
        }
    }

    @Test("Temporary names are unpredictable: 16 random hex digits")
    func temporaryNamesDiffer() {
        let names = Set((0..<64).map { _ in DurableFile.temporaryName(prefix: ".x-") })
        #expect(names.count == 64)
        #expect(names.allSatisfy { $0.utf8.count == 3 + 16 + 4 && $0.hasSuffix(".tmp") })
    }
}
