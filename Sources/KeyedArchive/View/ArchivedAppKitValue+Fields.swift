import Foundation

// The plain-field form of an AppKit or UIKit value: what `keyedarchive json` and `dump`
// show in place of the object's archived fields.

extension ArchivedAppKitValue {
    /// The value as named plain fields (no references): a colour as its space, components,
    /// alpha and `#RRGGBBAA`; a font as name and size; a paragraph style as its alignment,
    /// tab stops and numbers, and the fields it does not model (``ArchivedParagraphStyle/otherFields``,
    /// such as `NSTextLists`) as archived; attributed text as its string and runs.
    ///
    /// ```swift
    /// if let value = view.appKitValue(of: object) {
    ///     for field in value.fields { print(field.key) }   // "space", "components", "alpha", "hex"
    /// }
    /// ```
    public var fields: [ArchivedField] {
        switch self {
        case .color(let color): return color.summaryFields
        case .font(let font): return font.summaryFields
        case .paragraphStyle(let style): return style.summaryFields
        case .attributedString(let text): return text.summaryFields
        }
    }
}

extension ArchivedColor.Space {
    /// The space's name as the tool shows it.
    var name: String {
        switch self {
        case .calibratedRGB: return "calibratedRGB"
        case .deviceRGB: return "deviceRGB"
        case .calibratedWhite: return "calibratedWhite"
        case .deviceWhite: return "deviceWhite"
        case .deviceCMYK: return "deviceCMYK"
        case .sRGB: return "sRGB"
        case .genericGray: return "genericGray"
        case .custom: return "custom"
        case .catalog: return "catalog"
        case .pattern: return "pattern"
        }
    }
}

extension ArchivedColor {
    var summaryFields: [ArchivedField] {
        let name = space == .custom && colorSpace?.isDisplayP3 == true ? "displayP3" : space.name
        var fields = [ArchivedField(key: "space", value: .string(name))]
        if case .catalog(let catalog, let name, let fallback) = space {
            fields.append(ArchivedField(key: "catalog", value: .string(catalog)))
            fields.append(ArchivedField(key: "name", value: .string(name)))
            if let fallback { fields.append(ArchivedField(key: "fallback", value: .dictionary(fallback.summaryFields))) }
            return fields
        }
        if space == .pattern {
            fields.append(ArchivedField(key: "image", value: patternImage?.summaryValue ?? .null))
            return fields
        }
        fields.append(ArchivedField(key: "components", value: .array(components.map { .real($0) })))
        fields.append(ArchivedField(key: "alpha", value: .real(alpha)))
        if let hexRGBA { fields.append(ArchivedField(key: "hex", value: .string(hexRGBA))) }
        return fields
    }
}

extension ArchivedFont {
    var summaryFields: [ArchivedField] {
        [ArchivedField(key: "name", value: .string(name)), ArchivedField(key: "size", value: .real(size))]
    }
}

extension ArchivedParagraphStyle {
    var summaryFields: [ArchivedField] {
        var fields: [ArchivedField] = []
        if let alignment { fields.append(ArchivedField(key: "alignment", value: .integer(Int64(alignment)))) }
        if let tabStops { fields.append(ArchivedField(key: "tabStops", value: .array(tabStops.map { .real($0.location) }))) }
        for (key, number) in numbers.sorted(by: { $0.key < $1.key }) {
            fields.append(ArchivedField(key: key, value: .real(number)))
        }
        // What the interpretation does not model (NSTextLists, NSTextBlocks…), as archived.
        for (key, raw) in otherFields.sorted(by: { $0.key < $1.key }) {
            fields.append(ArchivedField(key: key, value: raw.summaryValue))
        }
        return fields
    }
}

extension ArchivedTextAttribute {
    var summaryValue: ArchivedValue {
        switch self {
        case .color(let color): return .dictionary(color.summaryFields)
        case .font(let font): return .dictionary(font.summaryFields)
        case .paragraphStyle(let style): return .dictionary(style.summaryFields)
        case .link(let url): return .string(url.absoluteString)
        case .string(let text): return .string(text)
        case .number(let number): return .real(number)
        case .other(let className): return .dictionary([ArchivedField(key: "$class", value: .string(className))])
        }
    }
}

extension ArchivedRawValue {
    /// The value as the tool shows it: an object as its `$class` and fields. A shared
    /// object is made once and its copies shared, so a graph of n objects makes n values
    /// however many paths lead through it (printing them stops at the output limit).
    var summaryValue: ArchivedValue {
        var made: [SharedStorageIdentity: ArchivedValue] = [:]
        return summaryValue(&made)
    }

    /// ``summaryValue`` with the values of shared objects already made (by identity: `self`
    /// holds them meanwhile).
    private func summaryValue(_ made: inout [SharedStorageIdentity: ArchivedValue]) -> ArchivedValue {
        switch self {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return .data(bytes)
        case .string(let text): return .string(text)
        case .plain(let value): return value.summaryValue(&made)
        case .array(let items): return .array(items.map { $0.summaryValue(&made) })
        case .object(let classes, let fields):
            let identity = sharingIdentity
            if let identity, let known = made[identity] { return known }
            let value = ArchivedValue.dictionary([ArchivedField(key: "$class", value: .string(classes.first ?? ""))]
                + fields.map { ArchivedField(key: $0.key, value: $0.value.summaryValue(&made)) })
            if let identity { made[identity] = value }
            return value
        }
    }
}

extension ArchivedAttributedString {
    var summaryFields: [ArchivedField] {
        let runs: [ArchivedValue] = runs.map { run in
            .dictionary([
                ArchivedField(key: "location", value: .integer(Int64(run.range.lowerBound))),
                ArchivedField(key: "length", value: .integer(Int64(run.range.count))),
                ArchivedField(key: "attributes", value: .dictionary(run.attributes.sorted(by: { $0.key < $1.key }).map { key, value in
                    if case .other = value, let raw = run.archivedValues[key] { return ArchivedField(key: key, value: raw.summaryValue) }
                    return ArchivedField(key: key, value: value.summaryValue)
                })),
            ])
        }
        return [ArchivedField(key: "string", value: .string(string)), ArchivedField(key: "runs", value: .array(runs))]
    }
}
