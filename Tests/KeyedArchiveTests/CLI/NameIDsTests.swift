@testable import KeyedArchiveCodegen
import Testing

/// ``NameIDs`` gives one id per distinct text, in the order names are first met, and
/// hashes a long name's text once per distinct storage.
@Suite("Codegen: name ids")
struct NameIDsTests {
    /// `text` in a storage of its own (not shared with `text`).
    static func copy(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }

    @Test("the same text gets the same id from any storage; ids follow first use")
    func ids() {
        var table = NameIDs()
        let long = String(repeating: "L", count: 1_000)
        #expect(table.id("a") == 0)
        #expect(table.id(long) == 1)
        #expect(table.id("b") == 2)
        #expect(table.id(Self.copy(long)) == 1)
        #expect(table.id("a") == 0)
        #expect(table.id(long + "x") == 3)
        #expect(table[1] == long)
        #expect(table[3] == long + "x")
        #expect(table.names.count == 4)
    }

    @Test("a long name met many times from one storage is hashed once; another storage once more")
    func hashesOncePerStorage() {
        var table = NameIDs()
        let long = String(repeating: "n", count: 5_000)
        for _ in 0..<1_000 { #expect(table.id(long) == 0) }
        #expect(table.hashedBytes == 5_000)
        let other = Self.copy(long)
        for _ in 0..<1_000 { #expect(table.id(other) == 0) }
        #expect(table.hashedBytes == 10_000)
    }

    @Test("short names are looked up by text: each lookup hashes at most the short length")
    func shortNames() {
        var table = NameIDs()
        let short = String(repeating: "s", count: NameIDs.shortLength)
        for _ in 0..<10 { #expect(table.id(short) == 0) }
        #expect(table.hashedBytes == 10 * NameIDs.shortLength)
        #expect(table.id("") == 1)
        #expect(table[1] == "")
    }
}
