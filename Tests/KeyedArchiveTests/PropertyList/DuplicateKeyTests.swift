import Foundation
import HostileArchives
import Testing
@testable import KeyedArchive

/// A key repeated in one dictionary counts once, as CoreFoundation reads it: the first
/// occurrence in a binary property list, the last in an XML one — on every path.
@Suite("Duplicate dictionary keys")
struct DuplicateKeyTests {
    struct NameFirst: Codable, Equatable { var name: String; var age: Int }
    struct AgeFirst: Codable, Equatable { var age: Int; var name: String }

    /// A binary archive whose root object holds `name` twice ("first", then "second"),
    /// around `age`. With `separateKeyStrings`, the two keys are distinct string objects
    /// with the same text (a writer that does not unique strings); `padding` adds fields
    /// so the object is larger than the decoder's scanning limit.
    static func binary(separateKeyStrings: Bool = false, padding: Int = 0, duplicateRoot: Bool = false) -> Data {
        var plist = RawBinaryPlist()
        let s = { (text: String) in plist.add(.string(text)) }
        let nameKey = s("name")
        let secondNameKey = separateKeyStrings ? s("name") : nameKey
        var keys = [s("$class"), nameKey, s("age")]
        var values = [plist.add(.uid(2)), s("first"), plist.add(.integer(30))]
        for i in 0..<padding {
            keys.append(s("pad\(i)"))
            values.append(plist.add(.integer(Int64(i))))
        }
        keys.append(secondNameKey)
        values.append(s("second"))
        let object = plist.add(.dictionary(keys: keys, values: values))
        let classEntry = plist.add(.dictionary(keys: [s("$classname"), s("$classes")],
                                               values: [s("Person"), plist.add(.array([s("Person"), s("NSObject")]))]))
        let other = plist.add(.string("other root"))
        let objects = plist.add(.array([s("$null"), object, classEntry, other]))
        let rootKey = s("root")
        let top = plist.add(.dictionary(keys: duplicateRoot ? [rootKey, rootKey] : [rootKey],
                                        values: duplicateRoot ? [plist.add(.uid(3)), plist.add(.uid(1))] : [plist.add(.uid(1))]))
        let envelope = plist.add(.dictionary(keys: [s("$archiver"), s("$version"), s("$top"), s("$objects")],
                                             values: [s("NSKeyedArchiver"), plist.add(.integer(100_000)), top, objects]))
        return plist.data(top: envelope)
    }

    /// The same archive as XML: `name` is "first", then "second".
    static let xml = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>$archiver</key><string>NSKeyedArchiver</string>
        <key>$version</key><integer>100000</integer>
        <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
        <key>$objects</key><array><string>$null</string>
        <dict><key>$class</key><dict><key>CF$UID</key><integer>2</integer></dict>
        <key>name</key><string>first</string><key>age</key><integer>30</integer><key>name</key><string>second</string></dict>
        <dict><key>$classname</key><string>Person</string><key>$classes</key><array><string>Person</string><string>NSObject</string></array></dict>
        </array></dict></plist>
        """.utf8)

    /// Which `name` CoreFoundation's reader keeps for `data` (Foundation on this machine).
    static func foundationName(_ data: Data) throws -> String? {
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any]
        let objects = plist?["$objects"] as? [Any]
        return (objects?[1] as? [String: Any])?["name"] as? String
    }

    static var cases: [(label: String, data: Data, expected: String)] {
        [("binary", binary(), "first"), ("binary, separate key strings", binary(separateKeyStrings: true), "first"),
         ("binary, large object", binary(padding: 20), "first"), ("XML", xml, "second")]
    }

    @Test("CoreFoundation keeps the first occurrence in binary and the last in XML; so do we",
          arguments: 0..<4)
    func followsFoundation(_ index: Int) throws {
        let (label, data, expected) = Self.cases[index]
        #expect(try Self.foundationName(data) == expected, "\(label): Foundation's reader changed")
        // Typed decoding, whatever the property order.
        #expect(try ArchiveDecoder().decode(NameFirst.self, from: data).name == expected, "\(label)")
        #expect(try ArchiveDecoder().decode(AgeFirst.self, from: data).name == expected, "\(label)")
        // The view: one `name` field.
        let view = try KeyedArchiveView(data: data)
        let names = view.objects[1].fields.filter { $0.key == "name" }
        #expect(names.map(\.value) == [.string(expected)], "\(label)")
        // render(), dump and json show the same one.
        let other = expected == "first" ? "second" : "first"
        #expect(view.render().contains("\"\(expected)\"") && !view.render().contains("\"\(other)\""), "\(label)")
        for command in ["dump", "json"] {
            let result = try CLI.run([command, "-"], stdin: data)
            #expect(result.status == 0, "\(label) \(command): \(result.stderr)")
            #expect(result.stdout.contains("\"\(expected)\"") && !result.stdout.contains("\"\(other)\""), "\(label) \(command)")
        }
        // The property-list tree, both ways of reading it.
        for tree in [try PropertyListValue(propertyList: data), try PropertyListValue(propertyList: data, limits: .init())] {
            guard case .dictionary(let envelope) = tree, case .array(let objects)? = envelope.first(where: { $0.key == "$objects" })?.value,
                  case .dictionary(let fields) = objects[1] else {
                Issue.record("\(label): unexpected tree")
                continue
            }
            #expect(fields.filter { $0.key == "name" }.map(\.value) == [.string(expected)], "\(label)")
        }
    }

    @Test("verify reports each repeated key and which occurrence is used", arguments: 0..<4)
    func verifyReports(_ index: Int) throws {
        let (label, data, expected) = Self.cases[index]
        let result = try CLI.run(["verify", "-"], stdin: data)
        #expect(result.status == 0, "\(label): \(result.stderr)")
        #expect(result.stdout.contains("1 warning"), "\(label): \(result.stdout)")
        #expect(result.stderr.contains("object #1 (Person): key 'name' appears 2 times in one dictionary"), "\(label): \(result.stderr)")
        #expect(result.stderr.contains(expected == "first" ? "the first is used" : "the last is used"), "\(label)")
        // A sound archive has no such warning.
        let clean = try CLI.run(["verify", "-"], stdin: try ArchiveEncoder().encode(NameFirst(name: "a", age: 1)))
        #expect(!clean.stderr.contains("appears"))
    }

    @Test("A repeated $top key: the first root is decoded from a binary archive, as Foundation does")
    func repeatedTopKey() throws {
        let data = Self.binary(duplicateRoot: true)  // root: "other root", then the Person
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        #expect(unarchiver.decodeObject(forKey: "root") as? String == "other root")
        #expect(try ArchiveDecoder().decode(String.self, from: data) == "other root")
        #expect(try ArchiveDecoder().topLevelKeys(in: data) == ["root"])
        #expect(try KeyedArchiveView(data: data).topLevelKeys == ["root"])
    }

    @Test("convert writes the entry every reader uses, so the XML it writes means the same")
    func convertKeepsTheRule() throws {
        let result = try CLI.run(["convert", "--to", "xml", "-"], stdin: Self.binary())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.foundationName(result.stdoutData) == "first")
        #expect(result.stdout.components(separatedBy: "<key>name</key>").count == 2)
    }

    @Test("Checking for repeated keys stays linear: thousands of offsets pointing at one large dictionary throw")
    func overlappingDictionaries() throws {
        // Object 0: the string "k". Objects 1…n: the same dictionary of 10,000 entries
        // "k" → "k", every offset pointing at it. Reading each would take n × 10,000 steps.
        let keys = 10_000, copies = 20_000
        var bytes = Array("bplist00".utf8) + [0x51, UInt8(ascii: "k")]
        let dictionary = bytes.count
        bytes += [0xDF, 0x11, UInt8(keys >> 8), UInt8(keys & 0xFF)] + [UInt8](repeating: 0, count: keys * 2 * 2)
        let table = bytes.count
        func append(_ value: Int, width: Int) {
            for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        append(8, width: 4)
        for _ in 0..<copies { append(dictionary, width: 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 2]
        for field in [copies + 1, 1, table] { append(field, width: 8) }
        let error = #expect(throws: PropertyListError.self) { _ = try PropertyListValue(propertyList: Data(bytes)) }
        #expect(error?.message.contains("overlap") == true, "\(String(describing: error))")
        #expect(throws: (any Error).self) { _ = try KeyedArchiveView(data: Data(bytes)) }
    }

    @Test("Files without repeated keys are read as they are, with nothing to report")
    func noDuplicates() throws {
        let data = try ArchiveEncoder().encode([NameFirst(name: "a", age: 1), NameFirst(name: "b", age: 2)])
        try data.withUnsafeBytes { callers in
            try PropertyListInput.read(callers, maxDepth: 512) { plist in
                #expect(plist.duplicateKeys.isEmpty)
                #expect(plist.bytes.base == callers.baseAddress && plist.bytes.count == callers.count,
                        "a file without duplicates must be read in place, neither rewritten nor copied")
            }
        }
        #expect(try KeyedArchiveView.duplicateKeys(in: data).isEmpty)
    }
}
