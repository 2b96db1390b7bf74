/// The start of a text from an archive, for an error message: a message that quoted a long
/// value in full would cost its length each time it is built (a `try?` probe builds one per
/// failure), so messages quote at most ``limit`` characters.
enum TextExcerpt {
    static let limit = 64

    /// `text`, or its first ``limit`` characters followed by `… (N bytes)`.
    ///
    /// ```swift
    /// TextExcerpt.of(String(repeating: "a", count: 100))   // "aaa…a… (100 bytes)"
    /// ```
    static func of(_ text: String) -> String {
        guard text.utf8.count > limit else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "… (\(text.utf8.count) bytes)"
    }
}
