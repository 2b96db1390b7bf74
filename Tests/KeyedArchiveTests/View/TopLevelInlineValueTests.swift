import Foundation
import HostileArchives
import KeyedArchive
import Testing

/// Values written inline under `$top` (a number or a string in the `$top` dictionary
/// itself, not a reference into `$objects`): every reader shows them, none drops them.
@Suite("Inline $top values")
struct TopLevelInlineValueTests {
    /// `$top = {count: 42, flag: true, name: UID 1, list: [UID 1, 7]}`, `$objects = [$null, "hello"]`.
    static func archive() -> Data {
        var plist = RawBinaryPlist()
        let s = { (text: String) in plist.add(.string(text)) }
        let hello = s("hello")
        let objects = plist.add(.array([s("$null"), hello]))
        let list = plist.add(.array([plist.add(.uid(1)), plist.add(.integer(7))]))
        let top = plist.add(.dictionary(keys: [s("count"), s("flag"), s("name"), s("list")],
                                        values: [plist.add(.integer(42)), plist.add(.bool(true)), plist.add(.uid(1)), list]))
        let envelope = plist.add(.dictionary(keys: [s("$archiver"), s("$version"), s("$top"), s("$objects")],
                                             values: [s("NSKeyedArchiver"), plist.add(.integer(100_000)), top, objects]))
        return plist.data(top: envelope)
    }

    @Test("the view lists every $top entry, inline values included, in file order")
    func view() throws {
        let view = try KeyedArchiveView(data: Self.archive())
        #expect(view.topLevelKeys == ["count", "flag", "name", "list"])
        #expect(view.value(forKey: "count") == .integer(42))
        #expect(view.value(forKey: "flag") == .bool(true))
        #expect(view.value(forKey: "name") == .reference(1))
        #expect(view.value(forKey: "list") == .array([.reference(1), .integer(7)]))
        let text = view.render()
        #expect(text.contains("count = 42"), "render() dropped an inline value:\n\(text)")
        #expect(text.contains("\"hello\""))
    }

    @Test("a UID out of range inside an inline $top value throws, naming the key")
    func outOfRange() throws {
        var plist = RawBinaryPlist()
        let s = { (text: String) in plist.add(.string(text)) }
        let objects = plist.add(.array([s("$null")]))
        let top = plist.add(.dictionary(keys: [s("list")], values: [plist.add(.array([plist.add(.uid(5))]))]))
        let envelope = plist.add(.dictionary(keys: [s("$archiver"), s("$version"), s("$top"), s("$objects")],
                                             values: [s("NSKeyedArchiver"), plist.add(.integer(100_000)), top, objects]))
        #expect {
            _ = try KeyedArchiveView(data: plist.data(top: envelope))
        } throws: { error in
            let message = "\(error)"
            return message.contains("UID 5") && message.contains("list")
        }
    }

    @Test("Foundation's archiver writes an integer inline under $top; the view and the decoder read it")
    func foundationWritten() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(42, forKey: "count")
        archiver.encode("hello" as NSString, forKey: "name")
        archiver.finishEncoding()
        let data = archiver.encodedData
        let view = try KeyedArchiveView(data: data)
        #expect(Set(view.topLevelKeys) == ["count", "name"])
        #expect(view.value(forKey: "count") == .integer(42))
        #expect(try ArchiveDecoder().decode(Int.self, forKey: "count", from: data) == 42)
        #expect(try ArchiveDecoder().decode(String.self, forKey: "name", from: data) == "hello")
    }

    @Test("json and dump show inline $top values")
    func tool() throws {
        let path = try CLI.temporaryFile(Self.archive())
        let json = try CLI.run(["json", path])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect(object["count"] as? Int == 42)
        #expect(object["flag"] as? Bool == true)
        #expect(object["name"] as? String == "hello")
        let dump = try CLI.run(["dump", path])
        #expect(dump.status == 0)
        #expect(dump.stdout.contains("count = 42"), "dump dropped an inline value:\n\(dump.stdout)")
    }
}
