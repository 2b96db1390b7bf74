import Foundation

// The archived fields of an AppKit or UIKit object that its interpretation does not
// model: `keyedarchive json` and `dump` show them beside the interpreted value, as they
// show the fields a Foundation subclass adds (``KeyedArchiveView/addedFields(of:)``), so
// that interpreting an object never hides what it holds.

extension ArchivedAppKitValue {
    /// The archived fields of a font that ``ArchivedFont`` reads (AppKit's and UIKit's).
    private static let fontFields: Set<String> = ["NSName", "NSSize", "NSfFlags", "UIFontName", "UIFontPointSize", "UIFontTraits", "UISystemFont"]
    /// The archived fields of a colour that ``ArchivedColor`` reads (AppKit's and UIKit's).
    private static let colorFields: Set<String> = [
        "NSColorSpace", "NSRGB", "NSWhite", "NSCMYK", "NSComponents", "NSCustomColorSpace", "NSCatalogName", "NSColorName",
        "NSColor", "NSImage", "UIRed", "UIGreen", "UIBlue", "UIAlpha", "UIWhite", "UISystemColorName",
    ]
    /// The archived fields of attributed text that ``ArchivedAttributedString`` reads.
    private static let attributedStringFields: Set<String> = ["NSString", "NSAttributes", "NSAttributeInfo"]

    /// Whether the interpretation reads the archived field `key`, so that ``fields`` shows
    /// it (a paragraph style shows every field: those it does not model are its
    /// ``ArchivedParagraphStyle/otherFields``).
    package func models(_ key: String) -> Bool {
        switch self {
        case .font: return Self.fontFields.contains(key)
        case .color: return Self.colorFields.contains(key)
        case .paragraphStyle: return true
        case .attributedString: return Self.attributedStringFields.contains(key)
        }
    }
}

extension KeyedArchiveView {
    /// The fields of `object` that its interpretation `value` does not model, as archived
    /// (references stay references), in the object's order.
    ///
    /// ```swift
    /// if let value = view.appKitValue(of: storage) {
    ///     view.unmodelledFields(of: storage, value: value).map(\.key)   // ["NSDelegate"]
    /// }
    /// ```
    package func unmodelledFields(of object: ArchivedObject, value: ArchivedAppKitValue) -> [ArchivedField] {
        object.fields.filter { !value.models($0.key) }
    }

    /// What json and dump show for an object: its AppKit interpretation's fields and the
    /// fields it does not model, or, when it is not interpreted, its own fields.
    func shownAppKitFields(of object: ArchivedObject, budget: inout ArchiveWorkBudget) throws(KeyedArchiveError) -> [ArchivedField]? {
        guard let value = try appKitValue(of: object, budget: &budget) else { return nil }
        return shownFields(of: object, value: value)
    }

    /// `value`'s fields and those of `object` it does not model.
    func shownFields(of object: ArchivedObject, value: ArchivedAppKitValue) -> [ArchivedField] {
        value.fields + unmodelledFields(of: object, value: value)
    }
}
