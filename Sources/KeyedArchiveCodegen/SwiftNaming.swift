/// Swift names for archived class names and keys: sanitised, camel-cased, free of
/// keywords and of the names the generated code itself uses.
package enum SwiftNaming {
    /// Swift keywords that need backticks as property or case names.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]

    /// Type names a generated type must not take, so that it never shadows a type the
    /// generated code or its reader uses: every name the generated code spells (the
    /// Foundation types of ``FoundationType``, the protocols and helpers it uses), the
    /// modules it imports, and the standard library's and Foundation's common types.
    static let reservedTypeNames: Set<String> = FoundationType.names.union([
        // Spelled by the generated code.
        "ArchiveDecoder", "ArchivedClass", "Codable", "CodingKey", "CodingKeys", "Decoder", "DecodingError",
        "Encoder", "Error", "Hashable", "Sendable", "String", "UnknownValue", "ArchiveReferenceCodable",
        "ArchiveReferenceDecodable",
        // Modules.
        "Foundation", "KeyedArchive", "Swift", "Dispatch", "CoreFoundation", "FoundationEssentials", "_Concurrency",
        // The standard library.
        "Any", "AnyClass", "AnyHashable", "AnyObject", "Array", "ArraySlice", "Bool", "Character", "ClosedRange",
        "Collection", "Comparable", "ContiguousArray", "CustomStringConvertible", "Decodable", "Dictionary", "Double",
        "Encodable", "EncodingError", "Equatable", "Float", "Float16", "Float32", "Float64", "Float80", "Hasher",
        "Identifiable", "Int", "Int8", "Int16", "Int32", "Int64", "Int128", "Never", "Optional", "Protocol",
        "Range", "RawRepresentable", "Result", "Self", "Sequence", "Set", "StaticString", "Substring", "Task",
        "Type", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "UInt128", "Unicode", "Void", "MainActor", "Actor",
        "Error", "KeyPath", "Mirror", "ObjectIdentifier", "OptionSet", "SIMD", "Slice", "Strideable",
        "CustomDebugStringConvertible", "ExpressibleByStringLiteral", "LosslessStringConvertible", "Numeric",
        "BinaryInteger", "FixedWidthInteger", "FloatingPoint", "SignedInteger", "UnsignedInteger", "CodingUserInfoKey",
        "KeyedDecodingContainer", "KeyedEncodingContainer", "SingleValueDecodingContainer",
        "SingleValueEncodingContainer", "UnkeyedDecodingContainer", "UnkeyedEncodingContainer",
        // Foundation.
        "AffineTransform", "AttributedString", "Bundle", "Calendar", "CharacterSet", "Data", "DataProtocol", "Date",
        "DateComponents", "DateFormatter", "DateInterval", "Decimal", "FileHandle", "FileManager", "IndexPath",
        "IndexSet", "JSONDecoder", "JSONEncoder", "JSONSerialization", "Locale", "Measurement", "Notification",
        "NotificationCenter", "NumberFormatter", "OperationQueue", "PersonNameComponents", "ProcessInfo",
        "PropertyListDecoder", "PropertyListEncoder", "PropertyListSerialization", "Thread", "TimeInterval",
        "TimeZone", "Timer", "Unit", "UnitConverter", "UnitConverterLinear", "URL", "URLComponents", "URLQueryItem",
        "URLRequest", "URLSession", "UserDefaults", "UUID", "CGFloat", "CGPoint", "CGRect", "CGSize", "CGVector",
        "NSRange", "NSObject", "NSCoding", "NSCoder", "NSSecureCoding", "NSKeyedArchiver", "NSKeyedUnarchiver",
        // The library's public types.
        "ArchiveEncoder", "ArchiveStore", "ArchivedField", "ArchivedObject", "ArchivedValue", "KeyedArchiveView",
        "NSCodingObject", "ArchivedColor", "ArchivedColorSpace", "ArchivedFont", "ArchivedParagraphStyle",
        "ArchivedTextTab", "ArchivedAttributedString", "ArchivedTextAttribute", "ArchivedAppKitValue",
    ])

    /// The type name for an archived class: module prefix dropped (`MyApp.Note`, or the
    /// mangled `_TtC5MyApp4Note`), sanitised to an upper-camel-case identifier. Names in
    /// Apple's `NS` namespace, and names the generated code or the libraries it imports
    /// use, get an `Archived` prefix so that they never shadow them.
    static func typeName(forClass className: String) -> SwiftIdentifier {
        var name = demangled(className) ?? String(className.split(separator: ".").last ?? Substring(className))
        name = SwiftIdentifier(upperCamel(name), prefix: "Archived").name
        let isApple = name.hasPrefix("NS") && name.dropFirst(2).first.map { $0.isUppercase } == true
        if isApple || reservedTypeNames.contains(name) || keywords.contains(name) || !name.hasPrefix("Archived") && name.first?.isUppercase != true {
            name = "Archived" + upperFirst(name)
        }
        return SwiftIdentifier(name, prefix: "Archived")
    }

    /// A name for a type the generator invents (a record, an enum), from the names of
    /// its owner and property; reserved names get the `Archived` prefix too.
    static func typeName(composed name: String) -> SwiftIdentifier {
        let identifier = SwiftIdentifier(upperFirst(name), prefix: "Archived")
        guard reservedTypeNames.contains(identifier.name) || keywords.contains(identifier.name) else { return identifier }
        return SwiftIdentifier("Archived" + identifier.name, prefix: "Archived")
    }

    /// The last identifier of a simple mangled Swift class name: `_TtC5MyApp4Note` → `Note`.
    static func demangled(_ name: String) -> String? {
        guard name.hasPrefix("_TtC") else { return nil }
        var rest = Substring(name.dropFirst(4))
        while rest.first == "C" { rest = rest.dropFirst() }
        var last: String?
        while let digitEnd = rest.firstIndex(where: { !$0.isNumber }), digitEnd != rest.startIndex,
              let length = Int(rest[rest.startIndex..<digitEnd]), length > 0,
              rest.distance(from: digitEnd, to: rest.endIndex) >= length {
            let end = rest.index(digitEnd, offsetBy: length)
            last = String(rest[digitEnd..<end])
            rest = rest[end...]
        }
        return last
    }

    /// The property name for an archived key: `NS.rangeval.length` → `rangevalLength`,
    /// `Array key` → `arrayKey`, `$0` → `value0`, `class` → `` `class` `` (in backticks
    /// when written), `self` → `selfValue`.
    static func propertyName(forKey key: String) -> SwiftIdentifier {
        var words = key.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        if words.count > 1, words[0] == "NS" { words.removeFirst() }
        var name = words.isEmpty ? "value" : lowerFirst(words[0]) + words.dropFirst().map(upperFirst).joined()
        if name.first?.isNumber == true { name = "value" + name }
        // Names that stay special even in backticks, as members or parameters.
        if ["self", "super", "init", "inout", "var", "let", "Type", "Protocol", "deinit", "subscript", "Self", "Any"].contains(name) { name += "Value" }
        return SwiftIdentifier(name, prefix: "value")
    }

    /// A case name for an enum member: the type's name, lower camel case.
    static func caseName(forType typeName: String) -> SwiftIdentifier {
        var name = lowerFirst(upperCamel(typeName))
        if SwiftIdentifier.alwaysSpecial.contains(name) { name += "Value" }
        return SwiftIdentifier(name, prefix: "value")
    }

    /// `text` as a type name given on the command line (`--root-name`, `--namespace`):
    /// nil unless it is an identifier as written, begins with a letter, and is neither a
    /// keyword nor a reserved type name.
    package static func validTypeName(_ text: String) -> SwiftIdentifier? {
        let identifier = SwiftIdentifier(text, prefix: "_")
        guard identifier.name == text, text.first?.isLetter == true, !keywords.contains(text),
              !reservedTypeNames.contains(text) else { return nil }
        return identifier
    }

    /// Words joined with their first letters upper-cased: `foo_bar baz` → `FooBarBaz`.
    static func upperCamel(_ text: String) -> String {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map { upperFirst(String($0)) }.joined()
    }

    static func upperFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// The first letter lower-cased, or a leading run of capitals (`URLString` → `urlString`).
    static func lowerFirst(_ word: String) -> String {
        let capitals = word.prefix(while: { $0.isUppercase })
        if capitals.count <= 1 || capitals.count == word.count { return capitals.count == word.count ? word.lowercased() : word.prefix(1).lowercased() + word.dropFirst() }
        // Keep the capital that starts the next word: `URLString` → `url` + `String`.
        let head = word.prefix(capitals.count - 1)
        return head.lowercased() + word.dropFirst(head.count)
    }

    /// Whether `a` sorts before `b` with runs of digits compared as numbers (`value2`
    /// before `value10`), then by code point, so that the order never depends on locale.
    static func naturalLess(_ a: String, _ b: String) -> Bool {
        var x = Substring(a), y = Substring(b)
        while let c = x.first, let d = y.first {
            if c.isASCII, c.isNumber, d.isASCII, d.isNumber {
                let m = x.prefix(while: { $0.isASCII && $0.isNumber }), n = y.prefix(while: { $0.isASCII && $0.isNumber })
                let p = m.drop(while: { $0 == "0" }), q = n.drop(while: { $0 == "0" })
                if p.count != q.count { return p.count < q.count }
                if p != q { return p < q }
                x = x.dropFirst(m.count)
                y = y.dropFirst(n.count)
                continue
            }
            if c != d { return c.unicodeScalars.first?.value ?? 0 < d.unicodeScalars.first?.value ?? 0 }
            x = x.dropFirst()
            y = y.dropFirst()
        }
        return x.isEmpty && !y.isEmpty || (x.isEmpty && y.isEmpty && a < b)
    }

}

/// The names taken in one scope, and the next number to try after each base name, so that
/// K names from one base cost K steps, not K² (`value`, `value2`… `valueK`).
struct NameTable {
    private var taken: Set<String> = []
    private var next: [String: Int] = [:]

    mutating func insert(_ name: SwiftIdentifier) { taken.insert(name.name) }

    /// `base`, or `base2`, `base3`… whichever is not taken yet; the result is taken.
    mutating func unique(_ base: SwiftIdentifier) -> SwiftIdentifier {
        var candidate = base
        var number = next[base.name] ?? 2
        while taken.contains(candidate.name) {
            candidate = base.appending(number)
            number += 1
        }
        next[base.name] = number
        taken.insert(candidate.name)
        return candidate
    }
}
