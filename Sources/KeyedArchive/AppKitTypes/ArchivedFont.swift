import Foundation

// ArchivedFont ↔ NSFont/UIFont. AppKit: `{NSName: string, NSSize: real, NSfFlags: integer}`;
// UIKit: `UIFontName`, `UIFontPointSize`, `UIFontTraits`, `UISystemFont`. Encoding writes
// AppKit's layout.

/// A font as AppKit's `NSFont` and UIKit's `UIFont` archive it: PostScript name and point
/// size, read without AppKit or UIKit.
///
/// ```swift
/// struct Label: Codable {
///     var text: String
///     var font: ArchivedFont
/// }
/// let label = Label(text: "Hi", font: ArchivedFont(name: "Helvetica", size: 12))
/// let data = try ArchiveEncoder().encode(label)   // font: {NSName, NSSize, NSfFlags}
/// ```
public struct ArchivedFont: Sendable, Hashable, Codable {
    /// The PostScript name, such as `Helvetica` or `.AppleSystemUIFont`.
    public var name: String
    /// The point size.
    public var size: Double
    /// AppKit's `NSfFlags` (16 in every file AppKit wrote that we checked, and when absent).
    public var flags: Int
    /// UIKit's `UIFontTraits` (symbolic traits), when archived; not written by AppKit's layout.
    public var traits: Int?
    /// Whether UIKit archived it as the system font (`UISystemFont`).
    public var isSystemFont: Bool

    /// A font from its name and size.
    ///
    /// ```swift
    /// let font = ArchivedFont(name: "Menlo-Regular", size: 11)
    /// ```
    public init(name: String, size: Double, flags: Int = 16, traits: Int? = nil, isSystemFont: Bool = false) {
        self.name = name
        self.size = size
        self.flags = flags
        self.traits = traits
        self.isSystemFont = isSystemFont
    }
}

extension StandardClass {
    static let font = StandardClass(name: "NSFont", classes: ["NSFont", "NSObject"])
}

extension ArchivedFont: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedFont {
        let fields = try decoder.foundationFields(ArchivedFont.self, classes: ["NSFont", "UIFont"], at: slot, path: path())
        let font: ArchivedFont
        if let name = try fields.value(String.self, "NSName") {
            font = ArchivedFont(name: name, size: try fields.requiredDouble("NSSize"), flags: try fields.integer("NSfFlags") ?? 16)
        } else {
            font = ArchivedFont(name: try fields.requiredValue(String.self, "UIFontName"),
                                size: try fields.requiredDouble("UIFontPointSize"),
                                traits: try fields.integer("UIFontTraits"), isSystemFont: try fields.bool("UISystemFont") ?? false)
        }
        guard font.size.isFinite, font.size >= 0 else { throw fields.corrupted("the font's size \(font.size) is not a finite size") }
        return font
    }
}

extension ArchivedFont: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        guard size.isFinite else {
            throw EncodingError.invalidValue(self, EncodingError.Context(codingPath: path().path, debugDescription: "The font's size is not finite"))
        }
        return encoder.foundationObject(.font) { fields in
            fields.string("NSName", name)
            fields.real("NSSize", size)
            fields.integer("NSfFlags", flags)
        }
    }
}
