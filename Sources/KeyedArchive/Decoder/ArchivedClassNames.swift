import Foundation

extension Decoder {
    /// The archived class chain (`$classes`, most specific first) of the object being
    /// decoded, when this is an ``ArchiveDecoder``'s decoder and the value is an archived
    /// object; `nil` under other decoders and for plain values (strings, numbers, nil).
    ///
    /// With it a type can decide how to decode by the class the archive names, as
    /// `NSKeyedUnarchiver` does: for example an enum over the classes of a heterogeneous
    /// `NSArray`. Foundation names a Swift class with its module (`MyApp.Circle`) unless it
    /// is declared `@objc(Circle)`; Objective-C classes have plain names.
    ///
    /// ```swift
    /// enum Shape: Decodable {
    ///     case circle(radius: Double)
    ///     case square(side: Double)
    ///
    ///     private enum Keys: String, CodingKey { case radius, side }
    ///
    ///     init(from decoder: any Decoder) throws {
    ///         let fields = try decoder.container(keyedBy: Keys.self)
    ///         switch decoder.archivedClassNames?.first {
    ///         case "Circle", "MyApp.Circle": self = .circle(radius: try fields.decode(Double.self, forKey: .radius))
    ///         case "Square", "MyApp.Square": self = .square(side: try fields.decode(Double.self, forKey: .side))
    ///         default:
    ///             throw DecodingError.dataCorrupted(DecodingError.Context(
    ///                 codingPath: decoder.codingPath, debugDescription: "not a shape"))
    ///         }
    ///     }
    /// }
    ///
    /// let shapes = try ArchiveDecoder().decode([Shape].self, from: data)
    /// ```
    public var archivedClassNames: [String]? {
        (self as? _ArchiveDecoder)?.archivedClassNames
    }
}

extension _ArchiveDecoder {
    /// The `$classes` of the object at the current slot; nil for inline values, nil, plain
    /// values and objects whose class entry cannot be read (decoding them reports why).
    var archivedClassNames: [String]? {
        (try? archivedClass(of: slot, at: pathNode))??.classes
    }
}
