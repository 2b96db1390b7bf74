import KeyedArchive

/// Swift source text that is safe to write out: the only thing ``SwiftEmitter`` writes.
///
/// Text from the archive or the command line (keys, class names, `$top` keys, the file
/// name) can reach the generated file only through the builders below, each of which
/// makes its output inert whatever the input:
/// - an identifier: a ``SwiftIdentifier`` (sanitised when it is made; a keyword is
///   written in backticks),
/// - a type: a ``SwiftType`` (declared identifiers and a fixed list of Foundation types),
/// - a string literal: ``literal(_:)``,
/// - comment text: ``comment(_:)`` and ``codeSpan(_:)``.
///
/// Everything else is source text written in the generator itself: string literals are
/// `StaticString`s, and an interpolation takes only the types above (and `Int`), so code
/// that interpolates a `String` does not compile. The one initializer that takes a
/// `String` is private to this file.
package struct SwiftCode: Hashable, Sendable, ExpressibleByStringInterpolation {
    /// The source text.
    package private(set) var text: String

    private init(verbatim: String) { text = verbatim }

    package init(stringLiteral value: StaticString) { text = value.description }

    package init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

    package static let empty = SwiftCode(verbatim: "")

    package static func + (lhs: SwiftCode, rhs: SwiftCode) -> SwiftCode { SwiftCode(verbatim: lhs.text + rhs.text) }

    package static func += (lhs: inout SwiftCode, rhs: SwiftCode) { lhs.text += rhs.text }

    package var isEmpty: Bool { text.isEmpty }

    /// The number of characters, for line-length decisions.
    package var count: Int { text.count }

    /// The size in UTF-8 bytes.
    package var byteCount: Int { text.utf8.count }

    /// Interpolation of builder output only: literal segments are the generator's own.
    package struct Interpolation: StringInterpolationProtocol {
        fileprivate var text = ""

        package init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }

        package mutating func appendLiteral(_ literal: StaticString) { text += literal.description }

        package mutating func appendInterpolation(_ code: SwiftCode) { text += code.text }

        package mutating func appendInterpolation(_ identifier: SwiftIdentifier) { text += identifier.source }

        /// An identifier where a keyword needs no backticks: an argument label, a member
        /// after `self.`.
        package mutating func appendInterpolation(label identifier: SwiftIdentifier) { text += identifier.name }

        package mutating func appendInterpolation(_ type: SwiftType) { text += type.source }

        package mutating func appendInterpolation(_ number: Int) { text += String(number) }
    }

    // MARK: - Builders for outside text

    /// A Swift string literal holding `text` exactly: quotes, backslashes (so `\(`), line
    /// breaks, control, format (bidi) and unassigned characters are escaped.
    package static func literal(_ text: String) -> SwiftCode {
        SwiftCode(verbatim: "\"" + ArchiveText.swiftEscaped(text, backtick: false) + "\"")
    }

    /// Text for a `//` or `///` comment: on one line whatever the input (every line
    /// break, control and format character is written as `\u{…}`), so nothing in it ends
    /// the comment.
    package static func comment(_ text: String) -> SwiftCode {
        SwiftCode(verbatim: ArchiveText.swiftEscaped(text, backtick: false))
    }

    /// ``comment(_:)`` in backticks (a code span in a doc comment); backticks inside are escaped.
    package static func codeSpan(_ text: String) -> SwiftCode {
        SwiftCode(verbatim: "`" + ArchiveText.swiftEscaped(text, backtick: true) + "`")
    }

    /// `parts` with `separator` between them.
    package static func joined(_ parts: [SwiftCode], separator: SwiftCode) -> SwiftCode {
        SwiftCode(verbatim: parts.map(\.text).joined(separator: separator.text))
    }
}
