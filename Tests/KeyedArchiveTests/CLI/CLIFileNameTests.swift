import Foundation
import Testing

/// Issue 53 §7: two different files never print the same name. In text (`verify`,
/// `swift --check`) a backslash prints as `\\` and a byte that is not UTF-8 as `\xNN`; in
/// JSON Lines such a name has `pathBytes`, its exact bytes in base64.
@Suite("CLI: file names in output")
struct CLIFileNameTests {
    /// Creates a file whose name is `name`'s bytes in `folder`, holding `data`; false when
    /// the file system refuses the name (APFS and HFS+ take UTF-8 names only).
    static func create(_ name: [UInt8], in folder: URL, _ data: Data) -> Bool {
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name
        let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == data.count
    }

    @Test("names that differ only in bytes that are not UTF-8 print differently, and their bytes can be read back")
    func namesThatAreNotUTF8() throws {
        let root = try FolderFixtures.folder()
        let archive = try FolderFixtures.archive(1)
        // 0xFE and 0xFF both decode to U+FFFD; the others spell U+FFFD or an escape's text.
        let names: [[UInt8]] = [[0x61, 0xFE], [0x61, 0xFF], Array("a\\xff".utf8), Array("a\u{FFFD}".utf8)]
        let created = names.filter { Self.create($0, in: root, archive) }
        #if os(Linux)
        #expect(created.count == names.count, "Linux file systems take any bytes but / and NUL")
        #endif
        guard created.count == names.count else { return }  // a file system that refuses non-UTF-8 names
        let prefix = root.path + "/"
        // Byte-wise name order: "a\" (0x5C) < "a\u{FFFD}" (0xEF …) < 0xFE < 0xFF.
        let shown = ["a\\\\xff", "a\u{FFFD}", "a\\xfe", "a\\xff"].map { prefix + $0 }

        let verify = try CLI.run(["verify", root.path])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout == shown.map { $0 + ": OK (5 objects)\n" }.joined(), "\(verify.stdout)")
        let check = try CLI.run(["swift", "--check", root.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.split(separator: "\n").map { String($0.prefix(while: { $0 != ":" })) } == shown, "\(check.stdout)")

        let json = try CLI.run(["json", root.path])
        let lines = try FolderFixtures.jsonLines(json.stdout)
        #expect(lines.map { $0["path"] as? String } == ["a\\xff", "a\u{FFFD}", "a\u{FFFD}", "a\u{FFFD}"].map { prefix + $0 })
        // Only the names that are not UTF-8 carry their bytes; with them, every line differs.
        let bytes = lines.map { ($0["pathBytes"] as? String).flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } }
        #expect(bytes == [nil, nil, Array(prefix.utf8) + [0x61, 0xFE], Array(prefix.utf8) + [0x61, 0xFF]])
        let recovered = zip(lines, bytes).map { line, bytes in bytes ?? Array(((line["path"] as? String) ?? "").utf8) }
        #expect(Set(recovered).count == names.count)
    }

    @Test("a name holding a backslash and n prints differently from one holding a line feed",
          arguments: [["verify"], ["swift", "--check"]])
    func backslashIsEscaped(command: [String]) throws {
        let root = try FolderFixtures.folder()
        try FolderFixtures.write(["b\\n.plist": try FolderFixtures.archive(1), "b\n.plist": try FolderFixtures.archive(2)], in: root)
        let result = try CLI.run(command + [root.path])
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.stdout.split(separator: "\n").map { String($0.prefix(while: { $0 != ":" })) }
        // Line feed (0x0A) sorts before backslash (0x5C).
        #expect(names == [root.path + "/b\\n.plist", root.path + "/b\\\\n.plist"], "\(result.stdout)")
    }
}
