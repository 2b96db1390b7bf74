import Foundation
import Testing

/// Folders for the tests of `json`, `verify` and `swift --check` on folders: archives written
/// by Foundation's NSKeyedArchiver (binary and XML) among files that are not archives.
enum FolderFixtures {
    /// A fresh, empty scratch folder.
    static func folder() throws -> URL {
        try Scratch.folder("folder")
    }

    /// A binary keyed archive of `["item", index]`.
    static func archive(_ index: Int) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: ["item", NSNumber(value: index)]), requiringSecureCoding: false)
    }

    /// The same archive as an XML property list.
    static func xmlArchive(_ index: Int) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        archiver.encode(NSArray(array: ["xml", NSNumber(value: index)]), forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    /// A plain property list (a settings file), not a keyed archive.
    static func plainPropertyList() throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: ["volume": 7, "name": "settings"], format: .binary, options: 0)
    }

    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46])
    /// Starts like a binary property list and is not one: a damaged archive.
    static let damaged = Data("bplist00 this is not the rest of a property list".utf8)

    /// Writes `files` (paths relative to `root`, folders made as needed).
    static func write(_ files: [String: Data], in root: URL) throws {
        for (path, data) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }

    /// A folder of every kind of file: two archives (one XML), a plain property list, a
    /// JPEG, an empty file, a damaged archive, and a nested folder holding one more archive.
    static func mixed() throws -> URL {
        let root = try folder()
        try write([
            "a.plist": try archive(1),
            "b.xml.plist": xmlArchive(2),
            "settings.plist": try plainPropertyList(),
            "photo.jpg": jpeg,
            "empty": Data(),
            "damaged.plist": damaged,
            "sub/deeper/c.plist": try archive(3),
            "sub/notes.txt": Data("hello".utf8),
        ], in: root)
        return root
    }

    /// The lines of JSON Lines output, each parsed by Foundation's JSONSerialization.
    static func jsonLines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line)")
        }
    }
}
