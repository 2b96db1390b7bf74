import Foundation

/// Conversion between camelCase and snake_case coding keys, by exactly the rules of
/// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` and
/// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`, so that a ported call site gets
/// the same keys it got in JSON. The encoder and the decoder both use this one
/// implementation.
enum SnakeCase {
    /// `myURLProperty` → `my_url_property`.
    ///
    /// Words break before an uppercase letter that follows a lowercase one, and before the
    /// last capital of a run of capitals followed by a lowercase letter. As in JSONEncoder,
    /// the first character is assumed to start a word (so `HTTPHeader` gives
    /// `h_ttp_header`, and `URL` gives `u_rl`); "uppercase" and "lowercase" are Unicode's
    /// `uppercaseLetters` and `lowercaseLetters`, and each word is lowercased with
    /// `String.lowercased()`.
    static func fromCamelCase(_ key: String) -> String {
        let scalars = key.unicodeScalars
        guard !scalars.isEmpty else { return key }
        var words: [Range<String.Index>] = []
        var wordStart = scalars.startIndex
        var searchStart = scalars.index(after: wordStart)
        let end = scalars.endIndex
        while let upper = scalars[searchStart...].firstIndex(where: isUppercase) {
            words.append(wordStart..<upper)
            guard let lower = scalars[upper...].firstIndex(where: isLowercase) else {
                // No lowercase letter follows: the rest is one word.
                wordStart = upper
                break
            }
            if lower == scalars.index(after: upper) {
                // A capital followed by a lowercase letter starts a word.
                wordStart = upper
            } else {
                // A run of capitals is a word of its own, up to the capital before `lower`.
                let beforeLower = scalars.index(before: lower)
                words.append(upper..<beforeLower)
                wordStart = beforeLower
            }
            searchStart = scalars.index(after: lower)
            if searchStart == end { break }
        }
        words.append(wordStart..<end)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }

    /// `my_url_property` → `myUrlProperty`.
    ///
    /// Leading and trailing underscores are kept; the words between underscores are
    /// joined, the first lowercased and the others capitalized (`String.capitalized`). A
    /// key without inner underscores is returned unchanged.
    static func toCamelCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first && key[last] == "_" { key.formIndex(before: &last) }
        let body = key[first...last]
        let words = body.split(separator: "_")
        guard words.count > 1 else { return key }
        let joined = ([words[0].lowercased()] + words.dropFirst().map { $0.capitalized }).joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }

    private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
        CharacterSet.uppercaseLetters.contains(scalar)
    }

    private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
        CharacterSet.lowercaseLetters.contains(scalar)
    }
}
