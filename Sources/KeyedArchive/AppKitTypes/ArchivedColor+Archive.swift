import Foundation

// ArchivedColor ↔ NSColor/UIColor. AppKit: `NSColorSpace` (1–5 with `NSRGB`, `NSWhite` or
// `NSCMYK` text; 6 with `NSCatalogName`, `NSColorName` and the fallback `NSColor`), plus
// `NSComponents` and `NSCustomColorSpace` (an NSColorSpace object) for colours in an
// ICC-based space. UIKit: `UIRed`, `UIGreen`, `UIBlue`, `UIAlpha` (`UIColorComponentCount`
// 4), `UIWhite`, `UISystemColorName`. Encoding writes AppKit's layout.

extension StandardClass {
    static let color = StandardClass(name: "NSColor", classes: ["NSColor", "NSObject"])
    static let colorSpace = StandardClass(name: "NSColorSpace", classes: ["NSColorSpace", "NSObject"])
}

extension ArchivedColor.Space {
    /// The `NSColorSpace` number of a device or calibrated space.
    var appKitCode: Int? {
        switch self {
        case .calibratedRGB: return 1
        case .deviceRGB: return 2
        case .calibratedWhite: return 3
        case .deviceWhite: return 4
        case .deviceCMYK: return 5
        case .sRGB, .genericGray, .custom, .catalog, .pattern: return nil
        }
    }

    /// The device or calibrated space of `NSColorSpace` 1–5.
    init?(appKitCode: Int) {
        switch appKitCode {
        case 1: self = .calibratedRGB
        case 2: self = .deviceRGB
        case 3: self = .calibratedWhite
        case 4: self = .deviceWhite
        case 5: self = .deviceCMYK
        default: return nil
        }
    }

    /// The number of components (without alpha); nil for custom and catalog spaces.
    var componentCount: Int? {
        switch self {
        case .calibratedRGB, .deviceRGB, .sRGB: return 3
        case .calibratedWhite, .deviceWhite, .genericGray: return 1
        case .deviceCMYK: return 4
        case .custom, .catalog, .pattern: return nil
        }
    }

    /// The text field of `NSColorSpace` 1–5: `NSRGB`, `NSWhite` or `NSCMYK`.
    static func textKey(forCode code: Int) -> String {
        switch code {
        case 3, 4: return "NSWhite"
        case 5: return "NSCMYK"
        default: return "NSRGB"
        }
    }
}

extension ArchivedColor: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedColor {
        let fields = try decoder.foundationFields(ArchivedColor.self, classes: ["NSColor", "UIColor"], at: slot, path: path())
        if let code = try fields.integer("NSColorSpace") { return try appKitColor(code, fields) }
        return try uiKitColor(fields)
    }

    private static func appKitColor(_ code: Int, _ fields: FoundationFieldReader) throws -> ArchivedColor {
        if code == 6 {
            return ArchivedColor(space: .catalog(catalog: try fields.requiredValue(String.self, "NSCatalogName"),
                                                 name: try fields.requiredValue(String.self, "NSColorName"),
                                                 fallback: try fields.value(ArchivedColor.self, "NSColor")),
                                 components: [], alpha: 1)
        }
        if code == 10 {
            guard let image = try fields.field("NSImage") else { throw fields.corrupted("the pattern colour has no NSImage") }
            let raw = try fields.decoder.unbox(ArchivedRawValue.self, from: image, at: fields.path("NSImage"))
            return ArchivedColor(space: .pattern, components: [], alpha: 1, patternImage: raw)
        }
        guard let space = Space(appKitCode: code), let count = space.componentCount else {
            throw fields.corrupted("NSColor has the unknown NSColorSpace \(code)")
        }
        let key = Space.textKey(forCode: code)
        let (legacy, legacyAlpha) = try numbers(fields, key, count: count, alphaOptional: true)
        guard let exact = try fields.data("NSComponents") else {
            return ArchivedColor(space: space, components: legacy, alpha: legacyAlpha)
        }
        let colorSpace = try fields.value(ArchivedColorSpace.self, "NSCustomColorSpace")
        let iccSpace: Space = switch colorSpace?.identifier {
        case 7?: .sRGB
        case 9?: .genericGray
        default: .custom
        }
        try fields.chargeParsing(exact.count)
        guard let all = ColorComponentText.parse(exact), all.count >= 2, iccSpace.componentCount.map({ all.count == $0 + 1 }) ?? true else {
            throw fields.corrupted("NSColor's NSComponents is not \(iccSpace.componentCount.map { "\($0 + 1) numbers" } ?? "numbers") separated by spaces")
        }
        return ArchivedColor(space: iccSpace, components: Array(all.dropLast()), alpha: all[all.count - 1],
                             colorSpace: colorSpace, approximation: legacy)
    }

    /// The numbers of text field `key`: `count` components then alpha (1 when absent and
    /// `alphaOptional`).
    private static func numbers(_ fields: FoundationFieldReader, _ key: String, count: Int, alphaOptional: Bool) throws -> ([Double], Double) {
        let bytes = try fields.requiredData(key)
        try fields.chargeParsing(bytes.count)
        guard let values = ColorComponentText.parse(bytes), values.count == count + 1 || (alphaOptional && values.count == count) else {
            throw fields.corrupted("NSColor's \(key) is not \(count) or \(count + 1) finite numbers separated by spaces")
        }
        return (Array(values.prefix(count)), values.count > count ? values[count] : 1)
    }

    private static func uiKitColor(_ fields: FoundationFieldReader) throws -> ArchivedColor {
        let alpha = try finite(fields, "UIAlpha") ?? 1
        var color: ArchivedColor
        if let white = try finite(fields, "UIWhite") {
            color = ArchivedColor(space: .deviceWhite, components: [white], alpha: alpha)
        } else if let red = try finite(fields, "UIRed") {
            let green = try finite(fields, "UIGreen") ?? 0
            let blue = try finite(fields, "UIBlue") ?? 0
            color = ArchivedColor(space: .sRGB, components: [red, green, blue], alpha: alpha)
        } else if try fields.value(String.self, "UISystemColorName") == nil {
            throw fields.corrupted("the colour has neither NSColorSpace nor UIKit's UIRed, UIWhite or UISystemColorName")
        } else {
            color = ArchivedColor(space: .deviceWhite, components: [0], alpha: alpha)
        }
        if let name = try fields.value(String.self, "UISystemColorName") {
            color = ArchivedColor(space: .catalog(catalog: "UIKit", name: name, fallback: color), components: [], alpha: 1)
        }
        return color
    }

    private static func finite(_ fields: FoundationFieldReader, _ key: String) throws -> Double? {
        guard let value = try fields.double(key) else { return nil }
        guard value.isFinite else { throw fields.corrupted("the colour's \(key) is \(value), not a finite number") }
        return value
    }
}

extension ArchivedColor: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        guard (components + [alpha] + (approximation ?? [])).allSatisfy(\.isFinite),
              space.componentCount.map({ components.count == $0 }) ?? true,
              approximation.map({ !$0.isEmpty }) ?? true
        else {
            throw EncodingError.invalidValue(self, EncodingError.Context(
                codingPath: path().path, debugDescription: "The colour's components do not fit its space \(space) or are not finite"))
        }
        if case .catalog(let catalog, let name, let fallback) = space {
            let fallbackUID = try fallback?._archiveEncode(with: encoder, at: path()) ?? 0
            return encoder.foundationObject(.color) { fields in
                fields.integer("NSColorSpace", 6)
                fields.string("NSCatalogName", catalog)
                fields.string("NSColorName", name)
                fields.object("NSColor", uid: fallbackUID)
            }
        }
        if let code = space.appKitCode {
            return encoder.foundationObject(.color) { fields in
                fields.integer("NSColorSpace", code)
                fields.box.append(key: encoder.table.keyID(Space.textKey(forCode: code)),
                                  .data(ColorComponentText.format(alpha == 1 ? components : components + [alpha], terminated: true)))
            }
        }
        if space == .pattern {
            guard let patternImage else {
                throw EncodingError.invalidValue(self, EncodingError.Context(
                    codingPath: path().path, debugDescription: "A pattern colour needs its patternImage to be archived"))
            }
            let imageUID = try patternImage.objectUID(encoder, path())
            return encoder.foundationObject(.color) { fields in
                fields.integer("NSColorSpace", 10)
                fields.object("NSImage", uid: imageUID)
            }
        }
        if space == .custom, colorSpace == nil {
            throw EncodingError.invalidValue(self, EncodingError.Context(
                codingPath: path().path, debugDescription: "A colour in a custom space needs its colorSpace (identifier or ICC profile) to be archived"))
        }
        let legacy = approximation ?? components
        let code = switch legacy.count {
        case 1: 3
        case 4: 5
        default: 1
        }
        let spaceUID = try (colorSpace ?? ArchivedColorSpace(identifier: space == .genericGray ? 9 : space == .sRGB ? 7 : nil,
                                                              model: nil, iccProfile: nil))._archiveEncode(with: encoder, at: path())
        return encoder.foundationObject(.color) { fields in
            fields.integer("NSColorSpace", code)
            fields.box.append(key: encoder.table.keyID(Space.textKey(forCode: code)),
                              .data(ColorComponentText.format(alpha == 1 ? legacy : legacy + [alpha], terminated: true)))
            fields.box.append(key: encoder.table.keyID("NSComponents"), .data(ColorComponentText.format(components + [alpha], terminated: false)))
            fields.object("NSCustomColorSpace", uid: spaceUID)
        }
    }
}

extension ArchivedColorSpace: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedColorSpace {
        let fields = try decoder.foundationFields(ArchivedColorSpace.self, classes: ["NSColorSpace"], at: slot, path: path())
        let spaceID = try fields.integer("NSSpaceID")
        var storage = ArchivedColorSpace.ProfileStorage.mutableData
        if let profile = try fields.field("NSICC"), let chain = try decoder.archivedClass(of: profile, at: fields.path("NSICC")) {
            let bytesField = try decoder.subDecoder(slot: profile, path: fields.path("NSICC"))
                .container(keyedBy: ArchivedFieldKey.self).contains(ArchivedFieldKey(stringValue: "NS.bytes"))
            if bytesField && chain.contains(anyOf: FoundationClassNames.data) { storage = .mutableDataBytes }
        } else if try fields.field("NSICC") != nil {
            storage = .inline
        }
        return ArchivedColorSpace(identifier: try fields.integer("NSID") ?? spaceID, model: try fields.integer("NSModel"),
                                  iccProfile: try fields.data("NSICC"), usesSpaceIDKey: spaceID != nil, iccProfileStorage: storage)
    }
}

extension ArchivedColorSpace: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        var profileUID: Int32 = 0
        if let iccProfile {
            switch iccProfileStorage {
            case .inline: profileUID = encoder.table.data(iccProfile)
            case .mutableData, .mutableDataBytes:
                let made = encoder.makeObject(kind: .fields, className: .mutableData)
                made.box.append(key: encoder.table.keyID(iccProfileStorage == .mutableData ? "NS.data" : "NS.bytes"), .data(iccProfile))
                profileUID = made.uid
            }
        }
        return encoder.foundationObject(.colorSpace) { fields in
            if let identifier { fields.integer(usesSpaceIDKey ? "NSSpaceID" : "NSID", identifier) }
            if let model { fields.integer("NSModel", model) }
            if profileUID != 0 { fields.object("NSICC", uid: profileUID) }
        }
    }
}
