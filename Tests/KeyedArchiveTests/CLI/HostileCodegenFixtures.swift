import Foundation

// Archives written by Foundation's NSKeyedArchiver whose keys, `$top` keys and class names
// try to inject code into what `keyedarchive swift` generates, or to give it names that
// clash. Foundation only, like CodegenFixtures.swift: Scripts/check-generated-code.sh
// compiles both into the program that writes the archives it checks. Every payload, were it
// code, would print `HostileCodegenFixtures.marker` and exit.

/// An object with one field under each of `keys`, holding `value`.
final class CodegenKeyed: NSObject, NSCoding {
    let keys: [String]
    let value: Int
    init(keys: [String], value: Int) {
        self.keys = keys
        self.value = value
    }
    func encode(with coder: NSCoder) {
        for key in keys { coder.encode(value, forKey: key) }
    }
    required init?(coder: NSCoder) { nil }
}

/// Distinct classes for archives that rename them (`setClassName`): each writes `number`
/// and a field of its own, so that an enum tells them apart.
class CodegenTagged: NSObject, NSCoding {
    let number: Int
    init(number: Int) { self.number = number }
    func encode(with coder: NSCoder) {
        coder.encode(number, forKey: "number")
        coder.encode("\(type(of: self))" as NSString, forKey: "kind\(String(describing: type(of: self)).suffix(1))")
    }
    required init?(coder: NSCoder) { nil }
}

final class CodegenTaggedA: CodegenTagged {}
final class CodegenTaggedB: CodegenTagged {}
final class CodegenTaggedC: CodegenTagged {}
final class CodegenTaggedD: CodegenTagged {}
final class CodegenTaggedE: CodegenTagged {}
final class CodegenTaggedF: CodegenTagged {}
final class CodegenTaggedG: CodegenTagged {}

enum HostileCodegenFixtures {
    /// Printed by any payload that runs.
    static let marker = "CODEGEN-INJECTED"
    /// A statement that prints the marker and exits.
    static let payload = "print(\"\(marker)\"); exit(3)"

    /// Texts that end a comment or a literal, or open an interpolation, each followed by code.
    static let breakers: [String] = [
        "a\n    init(from decoder: any Decoder) throws { \(payload) }\n//",
        "b\r    static let x: Void = { \(payload) }()\r//",
        "c\u{2028}d\u{2029}e\u{85}f\u{0B}g\u{0C}h */ \(payload) /*",
        "\"); \(payload); _ = (\"",
        "\\(\(payload))",
        "\\\"\\\\ #\"raw\"# `tick` \u{202E}bidi\u{202C} \u{200B}zero\u{0}nul\u{1B}[31mesc",
        "\u{301}combining", "$dollar", "", "class", "self", "init", "Type", "_", "`raw identifier`", "123",
    ]

    /// The archives, by file name.
    static func all() throws -> [(name: String, data: Data)] {
        [
            ("hostile-top-keys.archive", try topKeys()),
            ("hostile-field-keys.archive", try CodegenFixtures.archive(CodegenKeyed(keys: breakers, value: 1))),
            ("hostile-unit-class.archive", try unitClass()),
            ("hostile-reserved-names.archive", try reservedNames()),
            ("hostile-module-prefixes.archive", try modulePrefixes()),
            ("hostile-combining-names.archive", try combiningNames()),
            // A file name cannot hold `/`: a line break alone moves the rest out of the comment.
            ("hostile-name\nlet injected: Void = { \(payload) }()\n\u{2028}.archive", try CodegenFixtures.oneKey()),
        ]
    }

    /// `$top` keys that break comments and literals, no `root`: a struct of them.
    static func topKeys() throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        for (index, key) in breakers.enumerated() { archiver.encode("value \(index)" as NSString, forKey: key) }
        archiver.finishEncoding()
        return archiver.encodedData
    }

    /// An NSMeasurement whose unit class name carries code into `Measurement<…>`.
    static func unitClass() throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(NSMeasurement(doubleValue: 2, unit: UnitLength.meters), forKey: "root")
        archiver.finishEncoding()
        return try renamed(archiver.encodedData, [
            "NSUnitLength": "NSUnitLength>; let injected: Void = { \(payload) }(); typealias X = Measurement<UnitLength",
        ])
    }

    /// Classes named like the standard library's and Foundation's types the generated
    /// code uses, in one array (an enum), next to a measurement in `UnitLength`.
    static func reservedNames() throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        let names = ["DecodingError", "Int128", "Data", "UnitLength", "String", "Codable", "Measurement"]
        let objects = tagged()
        archiver.encode(NSDictionary(dictionary: [
            "items": NSArray(array: objects), "length": NSMeasurement(doubleValue: 2, unit: UnitLength.meters),
            "data": objects[2], "int": objects[1],
        ]), forKey: "root")
        archiver.finishEncoding()
        return try renamed(archiver.encodedData, Dictionary(uniqueKeysWithValues: zip(objects.map(className), names)))
    }

    /// `ModA.Item` and `ModB.Item`: one name once module prefixes are dropped.
    static func modulePrefixes() throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(NSArray(array: [CodegenTaggedA(number: 1), CodegenTaggedB(number: 2), CodegenTaggedC(number: 3)]),
                        forKey: "root")
        archiver.finishEncoding()
        return try renamed(archiver.encodedData, ["CodegenTaggedA": "ModA.Item", "CodegenTaggedB": "ModB.Item", "CodegenTaggedC": "Item"])
    }

    /// Class names that begin with a combining mark, are empty, digits or punctuation only.
    static func combiningNames() throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        let names = ["\u{301}Item", "\u{301}", "123", "$", "...", "\u{202E}Evil", "Ünïcödé"]
        let objects = tagged()
        archiver.encode(NSArray(array: objects), forKey: "root")
        archiver.finishEncoding()
        return try renamed(archiver.encodedData, Dictionary(uniqueKeysWithValues: zip(objects.map(className), names)))
    }

    /// One object of each tagged class.
    private static func tagged() -> [CodegenTagged] {
        [
            CodegenTaggedA(number: 1), CodegenTaggedB(number: 2), CodegenTaggedC(number: 3), CodegenTaggedD(number: 4),
            CodegenTaggedE(number: 5), CodegenTaggedF(number: 6), CodegenTaggedG(number: 7),
        ]
    }

    private static func className(_ object: AnyObject) -> String { String(describing: type(of: object)) }

    /// `data` with the classes renamed: `$classname` and `$classes` entries whose name,
    /// module prefix dropped, is a key of `names` (Linux Foundation's archiver ignores
    /// `setClassName(_:for:)`, so the names are changed in the written file).
    static func renamed(_ data: Data, _ names: [String: String]) throws -> Data {
        var format = PropertyListSerialization.PropertyListFormat.binary
        guard var archive = try PropertyListSerialization.propertyList(from: data, format: &format) as? [String: Any],
              let objects = archive["$objects"] as? [Any] else { return data }
        func rename(_ name: String) -> String {
            names[String(name.split(separator: ".").last ?? Substring(name))] ?? name
        }
        archive["$objects"] = objects.map { object -> Any in
            guard var entry = object as? [String: Any], let name = entry["$classname"] as? String else { return object }
            entry["$classname"] = rename(name)
            if let chain = entry["$classes"] as? [String] { entry["$classes"] = chain.map(rename) }
            return entry
        }
        return try PropertyListSerialization.data(fromPropertyList: archive, format: .binary, options: 0)
    }
}
