import Foundation

// ArchivedParagraphStyle ↔ NSParagraphStyle: `NSAlignment` (integer), `NSTabStops` (an
// array of NSTextTab, or $null), and numeric fields such as `NSHeadIndent`,
// `NSLineSpacing`, `NSParagraphSpacing`, `NSLineBreakMode`; every numeric field is kept,
// known or not. NSTextTab: `NSLocation` (real) and `NSAlignment`.

/// A paragraph style as AppKit's `NSParagraphStyle` archives it: alignment, tab stops and
/// the numeric fields (indents, spacing, line height, line break mode…), read without AppKit.
///
/// ```swift
/// if let style = try? ArchiveDecoder().decode(ArchivedParagraphStyle.self, from: data) {
///     print(style.alignment ?? 0, style.numbers["NSLineSpacing"] ?? 0)
/// }
/// let centered = ArchivedParagraphStyle(alignment: 2)
/// ```
public struct ArchivedParagraphStyle: Sendable, Hashable, Codable {
    /// `NSAlignment`: AppKit's `NSTextAlignment` (0 left, 1 right, 2 center, 3 justified,
    /// 4 natural on macOS); `nil` when not archived.
    public var alignment: Int?
    /// `NSTabStops`; `nil` when archived as `$null` (the default stops) or absent.
    public var tabStops: [ArchivedTextTab]?
    /// The real-valued fields by key (`NSLineSpacing`, `NSParagraphSpacing`,
    /// `NSHeadIndent`, `NSFirstLineHeadIndent`, `NSTailIndent`, `NSMinLineHeight`,
    /// `NSMaxLineHeight`, `NSLineHeightMultiple`, …, keys this package does not know
    /// included) and the integer fields `NSLineBreakMode`, `NSWritingDirection`,
    /// `NSHeaderLevel` and `NSLineBreakStrategy`, so that they are written back.
    public var numbers: [String: Double]
    /// Every other field by key (text lists, text blocks, an integer where AppKit writes a
    /// real…), kept as archived and written back as it was.
    public var otherFields: [String: ArchivedRawValue]
    /// Whether it is archived as an `NSMutableParagraphStyle` rather than an `NSParagraphStyle`.
    public var isMutable: Bool

    /// A paragraph style from its fields.
    ///
    /// ```swift
    /// let style = ArchivedParagraphStyle(alignment: 2, numbers: ["NSLineSpacing": 4])
    /// ```
    public init(alignment: Int? = nil, tabStops: [ArchivedTextTab]? = nil, numbers: [String: Double] = [:],
                otherFields: [String: ArchivedRawValue] = [:], isMutable: Bool = false) {
        self.alignment = alignment
        self.tabStops = tabStops
        self.numbers = numbers
        self.otherFields = otherFields
        self.isMutable = isMutable
    }

    /// `NSLineSpacing`, the space between lines; `nil` when not archived.
    public var lineSpacing: Double? { numbers["NSLineSpacing"] }

    /// The fields AppKit writes as integers; other numbers are written as reals.
    static let integerKeys: Set<String> = ["NSLineBreakMode", "NSWritingDirection", "NSHeaderLevel", "NSLineBreakStrategy"]
}

/// A tab stop as `NSTextTab` archives it: `NSLocation` and `NSAlignment`.
///
/// ```swift
/// let tab = ArchivedTextTab(location: 28, alignment: 0)
/// ```
public struct ArchivedTextTab: Sendable, Hashable, Codable {
    /// The position, in points from the start of the line.
    public var location: Double
    /// `NSAlignment` (`NSTextAlignment`); `nil` when not archived.
    public var alignment: Int?

    /// A tab stop at `location`.
    ///
    /// ```swift
    /// let tab = ArchivedTextTab(location: 56)
    /// ```
    public init(location: Double, alignment: Int? = nil) {
        self.location = location
        self.alignment = alignment
    }
}

extension StandardClass {
    static let paragraphStyle = StandardClass(name: "NSParagraphStyle", classes: ["NSParagraphStyle", "NSObject"])
    static let mutableParagraphStyle = StandardClass(
        name: "NSMutableParagraphStyle", classes: ["NSMutableParagraphStyle", "NSParagraphStyle", "NSObject"])
    static let textTab = StandardClass(name: "NSTextTab", classes: ["NSTextTab", "NSObject"])
}

/// A field name as a coding key, for reading every field of an object.
struct ArchivedFieldKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// The fields of an NSParagraphStyle read through a keyed container, so that every key is seen.
private struct ParagraphStyleFields: Decodable {
    let style: ArchivedParagraphStyle

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ArchivedFieldKey.self)
        var style = ArchivedParagraphStyle()
        for key in container.allKeys {
            switch key.stringValue {
            case "NSAlignment":
                style.alignment = try container.decodeIfPresent(Int.self, forKey: key)
            case "NSTabStops":
                style.tabStops = try container.decodeIfPresent([ArchivedTextTab].self, forKey: key)
            default:
                // A number written inline is one of the numeric fields; anything else is kept as archived.
                let raw = try container.decode(ArchivedRawValue.self, forKey: key)
                switch raw {
                case .integer(let number) where ArchivedParagraphStyle.integerKeys.contains(key.stringValue):
                    style.numbers[key.stringValue] = Double(number)
                case .real(let number):
                    guard number.isFinite else {
                        throw DecodingError.archive(.dataCorrupted, "The paragraph style's \(key.stringValue) is \(number), not a finite number",
                                                    codingPath: container.codingPath + [key], key: key.stringValue)
                    }
                    style.numbers[key.stringValue] = number
                default: style.otherFields[key.stringValue] = raw
                }
            }
        }
        self.style = style
    }
}

extension ArchivedParagraphStyle: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedParagraphStyle {
        _ = try decoder.foundationFields(ArchivedParagraphStyle.self, classes: ["NSParagraphStyle"], at: slot, path: path())
        let chain = try decoder.archivedClass(of: slot, at: path())
        // The object is already open (see `unbox`): read its fields in place.
        var style = try decoder.decodeComposite(ParagraphStyleFields.self, from: slot, at: path()).style
        style.isMutable = chain?.contains(anyOf: ["NSMutableParagraphStyle"]) ?? false
        return style
    }
}

extension ArchivedParagraphStyle: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let tabsUID = try tabStops.map { try encoder.box($0, at: path()) } ?? 0
        let others = try otherFields.sorted(by: { $0.key < $1.key }).map { ($0.key, try $0.value.fieldValue(encoder, path())) }
        return encoder.foundationObject(isMutable ? .mutableParagraphStyle : .paragraphStyle) { fields in
            if let alignment { fields.integer("NSAlignment", alignment) }
            fields.object("NSTabStops", uid: tabsUID)
            for (key, number) in numbers.sorted(by: { $0.key < $1.key }) {
                if Self.integerKeys.contains(key), let whole = Int(exactly: number) {
                    fields.integer(key, whole)
                } else {
                    fields.real(key, number)
                }
            }
            for (key, value) in others { fields.box.append(key: encoder.table.keyID(key), value) }
        }
    }
}

extension ArchivedTextTab: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedTextTab {
        let fields = try decoder.foundationFields(ArchivedTextTab.self, classes: ["NSTextTab"], at: slot, path: path())
        let location = try fields.requiredDouble("NSLocation")
        guard location.isFinite else { throw fields.corrupted("the tab stop's NSLocation is \(location), not a finite number") }
        return ArchivedTextTab(location: location, alignment: try fields.integer("NSAlignment"))
    }
}

extension ArchivedTextTab: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        encoder.foundationObject(.textTab) { fields in
            fields.real("NSLocation", location)
            if let alignment { fields.integer("NSAlignment", alignment) }
        }
    }
}
