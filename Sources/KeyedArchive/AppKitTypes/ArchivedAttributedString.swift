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

        /// A run from its range and attributes.
        ///
        /// ```swift
        /// let bold = ArchivedAttributedString.Run(range: 0..<4, attributes: ["NSFont": .font(font)])
        /// ```
        public init(range: Range<Int>, attributes: [String: ArchivedTextAttribute]) {
            self.range = range
            self.attributes = attributes
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
    /// An integer number (`NSUnderline`, `NSStrikethrough`, `NSLigature`…), written as an
    /// integer `NSNumber`.
    case integer(Int64)
    /// A real number (`NSKern`, `NSBaselineOffset`, `NSObliqueness`…), written as a real
    /// `NSNumber`.
    case number(Double)
    /// Any other value (an object of another class, a boolean, data), kept as archived
    /// and written back as it was (see ``ArchivedRawValue``).
    case other(ArchivedRawValue)
}
