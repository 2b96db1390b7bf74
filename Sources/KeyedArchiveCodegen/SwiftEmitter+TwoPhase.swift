// The body of a class that decodes in two phases (`ArchiveReferenceCodable`): stored
// properties with initial values, `init()`, and `decodeFields(from:)`, which reads what
// the synthesized `init(from:)` would.

extension SwiftEmitter {
    mutating func twoPhaseBody(_ composite: SwiftDeclarations.Composite) {
        if case .list = composite.origin {
            listBody(composite)
            return
        }
        for property in composite.properties {
            if property.type.mentions(SwiftDeclarations.unknownName) {
                line("    /// Always nil or empty in this archive, so its type is unknown.")
            }
            if property.isWeak {
                line("    /// `weak`: a back edge; the object is owned elsewhere in the decoded graph.")
                line("    \(modifier)weak var \(property.name): \(property.type)?")
            } else if !property.isOptional, let initial = Self.initialValue(property.type) {
                line("    \(modifier)var \(property.name): \(property.type) = \(initial)")
            } else {
                // Optional until the fields are read (decodeFields requires the key when
                // every object in the archive has it).
                line("    \(modifier)var \(property.name): \(property.type)?")
            }
        }
        line()
        line("    \(modifier)init() {}")
        line()
        codingKeys(composite)
        backEdges(composite)
        line()
        line("    \(modifier)func decodeFields(from decoder: any Decoder) throws {")
        if composite.properties.isEmpty {
            line("        _ = try decoder.container(keyedBy: CodingKeys.self)")
        } else {
            line("        let container = try decoder.container(keyedBy: CodingKeys.self)")
        }
        for property in composite.properties {
            let method: SwiftCode = property.isOptional ? "decodeIfPresent" : "decode"
            line("        self.\(label: property.name) = try container.\(method)(\(property.type).self, forKey: .\(property.name))")
        }
        line("    }")
    }

    /// A collection that contains itself: its elements, read and written in order.
    private mutating func listBody(_ composite: SwiftDeclarations.Composite) {
        guard let items = composite.properties.first, case .array(let element) = items.type else { return }
        line("    \(modifier)var \(items.name): \(items.type) = []")
        line()
        line("    \(modifier)init() {}")
        line()
        line("    /// It lists itself: its elements are a back edge, strong (empty `\(items.name)` when you are done).")
        line("    \(modifier)static var archiveBackEdges: [any CodingKey] { [ArchiveBackEdge.elements] }")
        line()
        line("    \(modifier)func decodeFields(from decoder: any Decoder) throws {")
        line("        var container = try decoder.unkeyedContainer()")
        line("        while !container.isAtEnd { \(items.name).append(try container.decode(\(element).self)) }")
        line("    }")
        line()
        line("    \(modifier)func encode(to encoder: any Encoder) throws {")
        line("        var container = encoder.unkeyedContainer()")
        line("        for item in \(items.name) { try container.encode(item) }")
        line("    }")
    }

    /// `archiveBackEdges`: the keys through which the decoder accepts a reference to an
    /// object still being decoded (``SwiftDeclarations/decideBackEdges()``), none if the
    /// archive has no such reference.
    private mutating func backEdges(_ composite: SwiftDeclarations.Composite) {
        let edges = composite.properties.filter(\.isBackEdge)
        guard !edges.isEmpty else { return }
        line()
        let strong = edges.filter { !$0.isWeak }
        if strong.isEmpty {
            line("    /// The back edges, all `weak`: the decoder accepts a reference to an object still being decoded only through these.")
        } else {
            let names = SwiftCode.joined(strong.map { SwiftCode.codeSpan($0.name.name) }, separator: ", ")
            line("    /// The back edges: the decoder accepts a reference to an object still being decoded only through these.")
            line("    /// Strong (\(names)): break such cycles (set them to nil) when you are done with the graph.")
        }
        let keys = SwiftCode.joined(edges.map { "CodingKeys.\($0.name)" }, separator: ", ")
        line("    \(modifier)static var archiveBackEdges: [any CodingKey] { [\(keys)] }")
    }

    /// The initial value of a stored property of type `type`, or nil when the type has
    /// none worth writing (the property is then optional until its field is read).
    static func initialValue(_ type: SwiftType) -> SwiftCode? {
        switch type {
        case .array, .set: return "[]"
        case .dictionary: return "[:]"
        case .foundation(let foundation):
            switch foundation {
            case .bool: return "false"
            case .int, .uint64, .int128, .uint128, .double, .decimal: return "0"
            case .string: return "\"\""
            case .data: return "Data()"
            case .indexSet: return "IndexSet()"
            case .indexPath: return "IndexPath()"
            default: return nil
            }
        case .declared, .optional: return nil
        }
    }
}
