#if canImport(KeyedArchiveCodegen)
import KeyedArchiveCodegen  // in the fuzz target, the generator is compiled into the same module
#endif

// Shared by CodegenPropertyTests and the fuzz target Fuzz/Sources/FuzzSwiftCodegen (through
// a symlink), with SwiftSourceScanner.swift.

/// What the emitted file must look like, given the plan.
enum GeneratedFileShape {
    /// Identifiers the generator writes itself (besides declared names and Foundation types).
    static let vocabulary: Set<String> = [
        "Foundation", "KeyedArchive", "Codable", "Hashable", "Sendable", "ArchivedClass", "archivedClassName",
        "archivedSuperclassNames", "CodingKeys", "CodingKey", "Decoder", "Encoder", "decoder", "encoder", "container",
        "singleValueContainer", "decode", "encode", "value", "archivedClassNames", "first", "map", "split", "separator",
        "last", "DecodingError", "dataCorruptedError", "dataCorrupted", "Context", "codingPath", "debugDescription",
        "to", "from", "data", "ArchiveDecoder", "forKey", "archive", "Set", "$0", "String",
    ]

    /// What a class that decodes in two phases (`ArchiveReferenceCodable`, an object on a
    /// cycle; see SwiftEmitter+TwoPhase.swift) adds to that vocabulary.
    static let twoPhaseVocabulary: Set<String> = [
        "ArchiveReferenceCodable", "decodeFields", "decodeIfPresent", "weak", "unkeyedContainer", "isAtEnd",
        "append", "while", "for", "item", "keyedBy", "archiveBackEdges", "ArchiveBackEdge", "elements",
    ]

    /// Members every declared type may have besides its properties and cases.
    static let helperMembers: Set<String> = [
        "let archivedClassName", "let archivedSuperclassNames", "init init", "func encode", "enum CodingKeys",
    ]

    static func problems(in code: String, planned: SwiftDeclarations) -> [String] {
        let tokens: [SwiftSourceScanner.Token]
        do {
            tokens = try SwiftSourceScanner.tokens(code)
        } catch {
            return ["does not tokenize: \(error)"]
        }
        var problems: [String] = []
        var allowed = vocabulary.union(FoundationType.names).union(FoundationType.unitNames)
        let prefix = planned.namespace.map { [$0.name] } ?? []
        var expectedTypes: Set<SwiftSourceScanner.Declaration> = []
        var members: [String: Set<String>] = [:]  // type path -> "keyword name"
        if let namespace = planned.namespace {
            expectedTypes.insert(.init(keyword: "enum", path: [namespace.name]))
            allowed.insert(namespace.name)
        }
        allowed.insert(planned.rootName.name)
        switch planned.root {
        case .alias: expectedTypes.insert(.init(keyword: "typealias", path: prefix + [planned.rootName.name]))
        case .composite(nil) where planned.namespace == nil:
            expectedTypes.insert(.init(keyword: "extension", path: [planned.rootName.name]))
        default: break
        }
        for composite in planned.composites {
            let path = prefix + [composite.name.name]
            expectedTypes.insert(.init(keyword: composite.isClass || composite.holdsItself ? "class" : "struct", path: path))
            allowed.insert(composite.name.name)
            var names: Set<String> = []
            if composite.isTwoPhase {
                names.insert("func decodeFields")
                allowed.formUnion(twoPhaseVocabulary)
                if case .list = composite.origin { names.insert("var archiveBackEdges") }
                if composite.properties.contains(where: \.isBackEdge) { names.insert("var archiveBackEdges") }
            }
            for property in composite.properties {
                names.insert("var " + property.name.name)
                allowed.insert(property.name.name)
            }
            members[path.joined(separator: "."), default: []].formUnion(names)
            members[(path + ["CodingKeys"]).joined(separator: "."), default: []]
                .formUnion(composite.properties.map { "case " + $0.name.name })
        }
        for union in planned.unions {
            let path = prefix + [union.name.name]
            expectedTypes.insert(.init(keyword: "enum", path: path))
            allowed.insert(union.name.name)
            for item in union.cases { allowed.insert(item.name.name) }
            members[path.joined(separator: "."), default: []].formUnion(union.cases.map { "case " + $0.name.name })
        }
        if planned.usesUnknown {
            expectedTypes.insert(.init(keyword: "enum", path: prefix + [SwiftDeclarations.unknownName.name]))
            allowed.insert(SwiftDeclarations.unknownName.name)
        }
        // Declarations: the planned types, and in each only its planned members and helpers.
        let declared = SwiftSourceScanner.declarations(tokens)
        let typeKeywords: Set<String> = ["struct", "class", "enum", "typealias", "extension"]
        var seenTypes: Set<SwiftSourceScanner.Declaration> = []
        var seenMembers: Set<String> = []
        for declaration in declared {
            let owner = declaration.path.dropLast().joined(separator: ".")
            let member = declaration.keyword + " " + (declaration.path.last ?? "")
            if typeKeywords.contains(declaration.keyword), expectedTypes.contains(declaration) {
                if !seenTypes.insert(declaration).inserted { problems.append("declared twice: \(declaration)") }
            } else if members[owner]?.contains(member) == true {
                if !seenMembers.insert(owner + " " + member).inserted { problems.append("declared twice: \(declaration)") }
            } else if !helperMembers.contains(member) || owner.isEmpty {
                problems.append("unplanned declaration: \(declaration)")
            }
        }
        for missing in expectedTypes.subtracting(seenTypes) { problems.append("missing: \(missing)") }
        // Every identifier is the generator's; every comment stays on its line.
        for token in tokens {
            switch token {
            case .identifier(let name) where !allowed.contains(name):
                problems.append("unexpected identifier \(name.debugDescription)")
            case .comment(let text) where text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format || $0.properties.generalCategory == .lineSeparator || $0.properties.generalCategory == .paragraphSeparator }):
                problems.append("comment with an invisible or line-breaking character: \(text.debugDescription)")
            default: break
            }
        }
        return problems
    }
}
