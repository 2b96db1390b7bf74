// The enums `keyedarchive swift` writes: one per place that holds several kinds of value,
// and `UnknownValue`.

extension SwiftEmitter {
    mutating func emit(_ union: SwiftDeclarations.Union) {
        line()
        line("/// The kinds of value found in \(SwiftEmitter.describe(union.usedAt)).")
        line("///")
        let byClass = union.cases.filter { $0.archivedClass != nil }
        if byClass.isEmpty {
            line("/// Decoding tries each case's type in the order below and keeps the first that reads")
            line("/// the value.")
        } else {
            line("/// An archived object decodes as the case of its class (`decoder.archivedClassNames`,")
            line("/// module prefix ignored); other values try each case's type in the order below and")
            line("/// keep the first that reads the value.")
        }
        var conformances: [SwiftCode] = ["Codable"]
        if union.isPlain { conformances += ["Hashable", "Sendable"] }
        let indirect: SwiftCode = union.isIndirect ? "indirect " : ""
        line("\(modifier)\(indirect)enum \(union.name): \(SwiftCode.joined(conformances, separator: ", ")) {")
        for item in union.cases { line("    case \(item.name)(\(item.type))") }
        line()
        line("    \(modifier)init(from decoder: any Decoder) throws {")
        line("        let container = try decoder.singleValueContainer()")
        let fullNames = byClass.filter(\.matchesFullName)
        if !fullNames.isEmpty {
            // Classes whose names differ only in their module prefix: matched in full.
            line("        switch decoder.archivedClassNames?.first {")
            for item in fullNames { classCase(item, name: item.archivedClass ?? "") }
            line("        default: break")
            line("        }")
        }
        let shortNames = byClass.filter { !$0.matchesFullName }
        if !shortNames.isEmpty {
            line("        switch decoder.archivedClassNames?.first.map({ $0.split(separator: \".\").last.map(String.init) ?? $0 }) {")
            for item in shortNames { classCase(item, name: SwiftDeclarations.shortName(item.archivedClass ?? "")) }
            line("        default: break")
            line("        }")
        }
        for (index, item) in union.cases.enumerated() {
            let keyword: SwiftCode = index == 0 ? "if" : "} else if"
            line("        \(keyword) let value = try? container.decode(\(item.type).self) {")
            line("            self = .\(item.name)(value)")
        }
        let expected = union.cases.map(\.type.source).joined(separator: ", ")
        line("        } else {")
        line("            throw DecodingError.dataCorruptedError(in: container, debugDescription: \(SwiftCode.literal("Expected one of: " + expected + ".")))")
        line("        }")
        line("    }")
        line()
        line("    \(modifier)func encode(to encoder: any Encoder) throws {")
        line("        var container = encoder.singleValueContainer()")
        line("        switch self {")
        for item in union.cases {
            line("        case .\(item.name)(let value): try container.encode(value)")
        }
        line("        }")
        line("    }")
        line("}")
    }

    private mutating func classCase(_ item: SwiftDeclarations.Union.Case, name: String) {
        line("        case \(SwiftCode.literal(name))?: self = .\(item.name)(try container.decode(\(item.type).self)); return")
    }

    mutating func unknownValue() {
        line()
        line("/// Stands for values this archive never shows (a key that is always nil, a collection")
        line("/// that is always empty or that contains itself). It has no values: decoding one")
        line("/// throws. Replace it with the real type when you know it.")
        line("\(modifier)enum \(SwiftDeclarations.unknownName): Codable, Hashable, Sendable {")
        line("    \(modifier)init(from decoder: any Decoder) throws {")
        line("        throw DecodingError.dataCorrupted(DecodingError.Context(")
        line("            codingPath: decoder.codingPath, debugDescription: \"No value was seen here when the type was generated.\"))")
        line("    }")
        line()
        line("    \(modifier)func encode(to encoder: any Encoder) throws {}")
        line("}")
    }
}
