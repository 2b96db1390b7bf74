import Foundation
import Testing
@testable import KeyedArchive

/// Archive text never reaches a terminal with control characters or bidi overrides in it:
/// keys, `$top` keys, class names and values are escaped through `ArchiveText`.
@Suite("Terminal escaping")
struct TerminalEscapingTests {
    /// Text that would rewrite a terminal: ESC sequences (cursor, title, OSC 52 clipboard
    /// write), BEL, CR (overwrite the line), a fake new line, DEL, a C1 CSI, bidi overrides.
    static let hostile = [
        "\u{1B}[2J\u{1B}[H", "title\u{1B}]0;owned\u{07}", "clip\u{1B}]52;c;cm0gLXJmIH4=\u{07}", "bell\u{07}",
        "line\rOK", "fake\nerror: line", "del\u{7F}", "csi\u{9B}31m", "rtl\u{202E}txt.exe", "iso\u{2066}x\u{2069}",
    ]

    /// An archive whose `$top` keys, field keys, class names, dictionary keys and values all
    /// carry one piece of hostile text each.
    static func archiveWithHostileText() -> Data {
        var objects: [PropertyListValue] = []
        var top: [(String, PropertyListValue)] = []
        for (i, text) in hostile.enumerated() {
            let base = UInt64(objects.count + 1)
            objects.append(dict(["$class": uid(base + 1), "key \(text)": uid(base + 2), "plain": .string(text)]))
            objects.append(classEntry("Class\(text)"))
            objects.append(.string("value \(text)"))
            top.append(("top\(i) \(text)", uid(base)))
        }
        // An NSDictionary whose key is hostile (shown through the dictionary summary).
        let base = UInt64(objects.count + 1)
        objects.append(dict(["$class": uid(base + 1), "NS.keys": .array([uid(base + 2)]), "NS.objects": .array([uid(base + 2)])]))
        objects.append(classEntry("NSDictionary"))
        objects.append(.string(hostile[2]))
        top.append(("dictionary", uid(base)))
        return archive(objects, top: .dictionary(top.map { PropertyListEntry(key: $0.0, value: $0.1) }))
    }

    /// The characters of `text` that must not reach a terminal (line feeds between lines
    /// are the output's own).
    static func unsafe(_ text: String) -> [String] {
        text.unicodeScalars.filter { $0 != "\n" && ArchiveText.mustEscape($0) }.map { String(format: "U+%04X", $0.value) }
    }

    @Test("The escaping rule: C0, DEL, C1, separators and bidi controls as \\u{…}; all else kept")
    func rule() {
        #expect(ArchiveText.escaped("a\u{1B}]52;c;x\u{07}b") == "a\\u{1b}]52;c;x\\u{07}b")
        #expect(ArchiveText.escaped("r\r\n\t") == "r\\r\\n\\t")
        #expect(ArchiveText.escaped("\u{7F}\u{80}\u{9F}\u{2028}\u{202A}\u{202E}\u{2066}\u{2069}")
                == "\\u{7f}\\u{80}\\u{9f}\\u{2028}\\u{202a}\\u{202e}\\u{2066}\\u{2069}")
        #expect(ArchiveText.escaped("Ünïcødé 日本 \u{A0}\u{202F}\u{200D}") == "Ünïcødé 日本 \u{A0}\u{202F}\u{200D}")
        #expect(ArchiveText.quoted("say \"hi\\\"\u{1B}") == "\"say \\\"hi\\\\\\\"\\u{1b}\"")
    }

    @Test("render() escapes keys, $top keys, class names and values")
    func render() throws {
        let view = try KeyedArchiveView(data: Self.archiveWithHostileText())
        let text = view.render()
        #expect(Self.unsafe(text) == [])
        #expect(text.contains("top0 \\u{1b}[2J\\u{1b}[H"), "\(text)")
        #expect(text.contains("Classclip\\u{1b}]52;c;cm0gLXJmIH4=\\u{07}"), "\(text)")
        #expect(text.contains("key line\\rOK"), "\(text)")
        #expect(text.contains("rtl\\u{202e}txt.exe"), "\(text)")
        // Every line of the output is one the renderer wrote: no key starts a line of its own.
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("error:") })
        let colored = view.render(options: .init(colors: true))
        let withoutStyles = colored.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
        #expect(Self.unsafe(withoutStyles) == [])
    }

    @Test("dump, json and verify print no control characters from the archive")
    func tool() throws {
        let data = Self.archiveWithHostileText()
        for command in [["dump", "-"], ["json", "-"], ["verify", "-"], ["dump", "--expand-nested", "-"]] {
            let result = try CLI.run(command, stdin: data)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(Self.unsafe(result.stdout) == [], "\(command) stdout")
            #expect(Self.unsafe(result.stderr) == [], "\(command) stderr")
        }
        let json = try CLI.run(["json", "-"], stdin: data)
        #expect(json.stdout.contains(#"clip\u001b]52;c;cm0gLXJmIH4=\u0007"#), "\(json.stdout)")
        #expect(json.stdout.contains(#"rtl\u202etxt.exe"#))
        #expect(json.stdout.contains(#"csi\u009b31m"#))
        // Still valid JSON, with the text intact.
        let parsed = try JSONSerialization.jsonObject(with: json.stdoutData)
        #expect(String(describing: parsed).contains("cm0gLXJmIH4="))
    }

    @Test("Error messages quoting archive text are escaped")
    func errors() throws {
        let data = Self.archiveWithHostileText()
        let missing = try CLI.run(["dump", "--key", "nope\u{1B}]0;x\u{07}", "-"], stdin: data)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("top0 \\u{1b}[2J"), "\(missing.stderr)")
        #expect(Self.unsafe(missing.stderr) == [], "\(missing.stderr)")

        let badArchiver = dict([
            "$archiver": .string("Evil\u{1B}]52;c;eA==\u{07}\nerror: fake"), "$version": .integer(100_000),
            "$top": dict(["root": uid(1)]), "$objects": .array([.string("$null"), .string("x")]),
        ]).propertyListData(format: .binary)
        for command in ["dump", "json", "verify"] {
            let result = try CLI.run([command, "-"], stdin: badArchiver)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("Evil\\u{1b}]52"), "\(command): \(result.stderr)")
            #expect(Self.unsafe(result.stderr) == [], "\(command): \(result.stderr)")
        }
    }

    /// Names that would print alike without the file-name rule (issue 53 §7): bytes that
    /// are not UTF-8 against U+FFFD and against the text of their escape, a backslash and
    /// `n` against a line feed, a C1 control against its escape's text.
    static let awkwardNames: [[UInt8]] = [
        [0x61, 0xFF], [0x61, 0xFE], Array("a\\xff".utf8), Array("a\u{FFFD}".utf8), Array("a\\\\xff".utf8), [0x61, 0x5C, 0xFF],
        Array("b\\n".utf8), Array("b\n".utf8), Array("b\\\n".utf8), Array("c\u{85}".utf8), Array("c\\u{85}".utf8),
        [0xC3], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xC0, 0xAF], Array("plain.plist".utf8), [],
    ]

    @Test("File names: backslash as \\\\, bytes that are not UTF-8 as \\xNN; distinct names print distinctly and read back")
    func fileNames() {
        #expect(ArchiveText.escapedPath(Array("a\\n".utf8) + [0xFF]) == "a\\\\n\\xff")
        #expect(ArchiveText.escapedPath(Array("b\n".utf8)) == "b\\n")
        #expect(ArchiveText.escapedPath([0xED, 0xA0, 0x80]) == "\\xed\\xa0\\x80", "a UTF-16 surrogate in UTF-8 is not UTF-8")
        #expect(ArchiveText.escapedPath(Array("caf\u{E9} \u{1F600}".utf8)) == "caf\u{E9} \u{1F600}")
        let printed = Self.awkwardNames.map(ArchiveText.escapedPath)
        #expect(Set(printed).count == Self.awkwardNames.count, "\(printed)")
        for (name, text) in zip(Self.awkwardNames, printed) {
            #expect(!text.unicodeScalars.contains(where: ArchiveText.mustEscape), "\(text)")
            #expect(Self.unescapedPath(text) == name, "\(text)")
        }
    }

    /// The bytes a name printed by `escapedPath` stands for: the inverse of the rule, to
    /// show that no information is lost.
    static func unescapedPath(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var scalars = Substring(text).unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\" else {
                bytes += Array(String(scalar).utf8)
                continue
            }
            switch scalars.popFirst() {
            case "\\": bytes.append(0x5C)
            case "n": bytes.append(0x0A)
            case "r": bytes.append(0x0D)
            case "t": bytes.append(0x09)
            case "x":
                guard scalars.count >= 2, let byte = UInt8(String(String.UnicodeScalarView(scalars.prefix(2))), radix: 16) else { return nil }
                bytes.append(byte)
                scalars = scalars.dropFirst(2)
            case "u":
                guard scalars.popFirst() == "{", let end = scalars.firstIndex(of: "}"),
                      let value = UInt32(String(String.UnicodeScalarView(scalars[..<end])), radix: 16),
                      let escaped = Unicode.Scalar(value) else { return nil }
                bytes += Array(String(escaped).utf8)
                scalars = scalars[scalars.index(after: end)...]
            default: return nil
            }
        }
        return bytes
    }
}
