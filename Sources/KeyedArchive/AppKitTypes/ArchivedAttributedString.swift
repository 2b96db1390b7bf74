import Foundation

/// Attributed text as `NSAttributedString` archives it: the string and its runs, each a
/// UTF-16 range with its attributes, read without AppKit or UIKit.
///
/// Colours, fonts, paragraph styles and links are interpreted
/// (``ArchivedTextAttribute``); strings and numbers are kept as they are. Encoding writes
/// the layout Foundation writes: `NSString`, and `NSAttributes` (one dictionary for a
/// single run, else an array of distinct dictionaries with `NSAttributeInfo`).
///
/// ```swift
/// let text = try ArchiveDecoder().decode(ArchivedAttributedString.self, from: data)
/// for run in text.runs {
///     if case .color(let color)? = run.attributes["NSColor"] { print(run.range, color.hexRGBA ?? "") }
/// }
/// ```
public struct ArchivedAttributedString: Sendable, Hashable, Codable {
    /// The text.
    public var string: String
    /// The runs, in order, covering the text's UTF-16 offsets without gaps or overlaps;
    /// empty for text without attributes.
    public var runs: [Run]
    /// Whether it is archived as an `NSMutableAttributedString` (its text then an
    /// `NSMutableString` object) rather than an `NSAttributedString`.
    public var isMutable: Bool

    /// One run: a range of UTF-16 offsets and its attributes by name (`NSFont`,
    /// `NSColor`, `NSParagraphStyle`, `NSLink`…).
    ///
    /// ```swift
    /// let run = ArchivedAttributedString.Run(range: 0..<5, attributes: ["NSLink": .link(url)])
    /// ```
    public struct Run: Sendable, Hashable, Codable {
        /// UTF-16 offsets into ``ArchivedAttributedString/string``.
        public var range: Range<Int>
        /// The attributes by name.
        public var attributes: [String: ArchivedTextAttribute]
        /// The archived form of the attributes read as ``ArchivedTextAttribute/other(className:)``
        /// or ``ArchivedTextAttribute/number(_:)``, by name: an object of another class with
        /// its fields, a number as the integer, real or boolean it was. Encoding writes it in
        /// place of the attribute while the attribute is unchanged (same class name, same
        /// number), so a run read from a file is written back field for field. Empty for
        /// runs you build.
        public var archivedValues: [String: ArchivedRawValue]

        /// A run from its range and attributes.
        ///
        /// ```swift
        /// let bold = ArchivedAttributedString.Run(range: 0..<4, attributes: ["NSFont": .font(font)])
        /// ```
        public init(range: Range<Int>, attributes: [String: ArchivedTextAttribute], archivedValues: [String: ArchivedRawValue] = [:]) {
            self.range = range
            self.attributes = attributes
            self.archivedValues = archivedValues
        }
    }

    /// Attributed text from its string and runs.
    ///
    /// ```swift
    /// let text = ArchivedAttributedString(string: "Hello", runs: [.init(range: 0..<5, attributes: [:])])
    /// ```
    public init(string: String, runs: [Run] = [], isMutable: Bool = false) {
        self.string = string
        self.runs = runs
        self.isMutable = isMutable
    }
}

/// One attribute value of an ``ArchivedAttributedString`` run.
///
/// ```swift
/// switch run.attributes["NSFont"] {
/// case .font(let font)?: print(font.name, font.size)
/// default: break
/// }
/// ```
public enum ArchivedTextAttribute: Sendable, Hashable, Codable {
    /// An `NSColor` or `UIColor` (`NSColor`, `NSBackgroundColor`, `NSStrokeColor`…).
    case color(ArchivedColor)
    /// An `NSFont` or `UIFont`.
    case font(ArchivedFont)
    /// An `NSParagraphStyle`.
    case paragraphStyle(ArchivedParagraphStyle)
    /// An `NSURL` (`NSLink`).
    case link(URL)
    /// A string (an `NSLink` given as text, an identifier…).
    case string(String)
    /// A number (`NSKern`, `NSUnderline`, `NSBaselineOffset`…); a boolean reads as 0 or 1.
    case number(Double)
    /// An object of another class, kept by class name (`plain value` for plain data);
    /// its archived form is in the run's ``ArchivedAttributedString/Run/archivedValues``,
    /// which writes it back.
    case other(className: String)
}
