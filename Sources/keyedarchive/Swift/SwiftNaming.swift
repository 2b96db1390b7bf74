/// Swift names for archived class names and keys: sanitised, camel-cased, free of
/// keywords and of the names the generated code itself uses.
enum SwiftNaming {
    /// Swift keywords that need backticks as property or case names.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]

    /// Type names a generated type must not take: the types the generated code uses and
    /// those of the library.
    static let reservedTypeNames: Set<String> = [
        "Any", "Array", "Bool", "CGPoint", "CGRect", "CGSize", "Codable", "CodingKey", "CodingKeys", "Data", "Date",
        "Decimal", "Decodable", "Decoder", "Dictionary", "Dimension", "Double", "Encodable", "Encoder", "Equatable",
        "Error", "Float", "Foundation", "Hashable", "IndexPath", "IndexSet", "Int", "Locale", "Measurement", "Never",
        "Optional", "Protocol", "Self", "Sendable", "Set", "String", "TimeZone", "Type", "UInt64", "URL", "UUID",
        "ArchiveDecoder", "ArchiveEncoder", "ArchivedClass", "ArchivedField", "ArchivedObject", "ArchivedValue",
        "KeyedArchive", "KeyedArchiveView", "UnknownValue",
    ]

    /// The type name for an archived class: module prefix dropped (`MyApp.Note`, or the
    /// mangled `_TtC5MyApp4Note`), sanitised to an upper-camel-case identifier. Names in
    /// Apple's `NS` namespace, and names of types the generated code uses, get an
    /// `Archived` prefix so that they never shadow Foundation's classes.
    static func typeName(forClass className: String) -> String {
        var name = demangled(className) ?? String(className.split(separator: ".").last ?? Substring(className))
        name = upperCamel(name)
        if name.isEmpty { name = "Object" }
        let isApple = name.hasPrefix("NS") && name.dropFirst(2).first.map { $0.isUppercase } == true
        if isApple || reservedTypeNames.contains(name) || name.first?.isNumber == true { name = "Archived" + name }
        return name
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
    /// `Array key` → `arrayKey`, `$0` → `value0`, `class` → `` `class` ``.
    static func propertyName(forKey key: String) -> String {
        var words = key.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        if words.count > 1, words[0] == "NS" { words.removeFirst() }
        guard !words.isEmpty else { return "value" }
        var name = lowerFirst(words[0]) + words.dropFirst().map(upperFirst).joined()
        if name.first?.isNumber == true { name = "value" + name }
        // Names that stay special even in backticks, as members or parameters.
        if ["self", "super", "init", "inout", "var", "let", "Type", "Protocol"].contains(name) { name += "Value" }
        return name
    }

    /// A case name for an enum member: the type's name, lower camel case.
    static func caseName(forType typeName: String) -> String {
        lowerFirst(upperCamel(typeName))
    }

    /// `name` in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Whether `text` is a Swift identifier that needs no escaping.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isXIDStart else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isXIDContinue } && !keywords.contains(text)
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

    /// `base`, or `base2`, `base3`… whichever `taken` does not hold; the result is added.
    static func unique(_ base: String, in taken: inout Set<String>) -> String {
        var candidate = base
        var number = 2
        while taken.contains(candidate) {
            candidate = base + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
