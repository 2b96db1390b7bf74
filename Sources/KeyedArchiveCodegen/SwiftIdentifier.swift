/// A Swift identifier, valid whatever text it was made from: letters, digits and `_`
/// only (no `$`, no backticks, no raw-identifier text), a first character that may begin
/// an identifier (never a digit or a combining mark), never empty. A keyword is written
/// in backticks (``source``); names that stay special even in backticks never get here
/// (see ``SwiftNaming``).
package struct SwiftIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The identifier without backticks.
    package let name: String

    /// `proposed` with every character that cannot be part of an identifier dropped;
    /// `prefix` is put in front when what remains cannot begin one (a digit, a combining
    /// mark) or is empty, `_` or a name that stays special in backticks.
    package init(_ proposed: String, prefix: StaticString) {
        var scalars = String.UnicodeScalarView()
        for scalar in proposed.unicodeScalars where Self.isContinue(scalar) { scalars.append(scalar) }
        // At most `maxLength` characters: a name is written at every use, and a long key
        // or class name used in many places would make the output grow with their product.
        if scalars.count > Self.maxLength { scalars = String.UnicodeScalarView(scalars.prefix(Self.maxLength)) }
        var name = String(scalars)
        if name.isEmpty || name == "_" || Self.alwaysSpecial.contains(name) || !Self.isHead(name.unicodeScalars.first) {
            name = prefix.description + name
        }
        self.name = name
    }

    /// A name written in the generator (`Root`, `UnknownValue`); validated the same way.
    package init(fixed: StaticString) { self.init(fixed.description, prefix: "_") }

    /// The identifier as source: in backticks when it is a keyword.
    var source: String { SwiftNaming.keywords.contains(name) ? "`" + name + "`" : name }

    package var description: String { name }

    package static func < (lhs: SwiftIdentifier, rhs: SwiftIdentifier) -> Bool { SwiftNaming.naturalLess(lhs.name, rhs.name) }

    /// `self` with `number` appended (`Item` → `Item2`): still valid, never shortened.
    package func appending(_ number: Int) -> SwiftIdentifier { SwiftIdentifier(validated: name + String(number)) }

    /// An identifier already valid (a valid one with digits appended).
    private init(validated name: String) { self.name = name }

    /// The longest identifier made from outside text, in Unicode scalars (numbers added
    /// for uniqueness come after).
    static let maxLength = 100

    /// Names that are special even in backticks in a member or type position.
    static let alwaysSpecial: Set<String> = ["self", "Self", "super", "init", "deinit", "subscript", "inout", "Type", "Protocol", "Any", "_"]

    private static func isHead(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        if scalar.isASCII { return scalar == "_" || scalar.properties.isAlphabetic }
        return scalar.properties.isXIDStart && inSwiftRanges(scalar) && !combiningRanges.contains(where: { $0.contains(scalar.value) })
    }

    private static func isContinue(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) }
        return scalar.properties.isXIDContinue && inSwiftRanges(scalar) && scalar.properties.generalCategory != .format
    }

    /// The non-ASCII ranges Swift's lexer accepts in identifiers (C11 Annex D.1).
    private static let swiftRanges: [ClosedRange<UInt32>] = [
        0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6,
        0xD8...0xF6, 0xF8...0xFF, 0x100...0x167F, 0x1681...0x180D, 0x180F...0x1FFF, 0x200B...0x200D,
        0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F, 0x2070...0x218F, 0x2460...0x24FF,
        0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F,
        0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE44, 0xFE47...0xFFF8, 0x10000...0x1FFFD,
        0x20000...0x2FFFD, 0x30000...0x3FFFD, 0x40000...0x4FFFD, 0x50000...0x5FFFD, 0x60000...0x6FFFD,
        0x70000...0x7FFFD, 0x80000...0x8FFFD, 0x90000...0x9FFFD, 0xA0000...0xAFFFD, 0xB0000...0xBFFFD,
        0xC0000...0xCFFFD, 0xD0000...0xDFFFD, 0xE0000...0xEFFFD,
    ]

    /// Ranges that may not begin an identifier (C11 Annex D.2: combining marks).
    private static let combiningRanges: [ClosedRange<UInt32>] = [0x300...0x36F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F]

    private static func inSwiftRanges(_ scalar: Unicode.Scalar) -> Bool {
        swiftRanges.contains { $0.contains(scalar.value) }
    }
}
