/// A small tokenizer for the Swift that `keyedarchive swift` writes, and the declarations
/// it holds: enough to tell what is code from what is a comment or a string literal, and
/// to list every declaration with its path (`Legacy.Root.name`). It refuses what the
/// generator never writes (multi-line or raw strings, interpolation, unterminated text).
struct SwiftSourceScanner {
    enum Token: Equatable {
        case identifier(String)
        case keyword(String)
        case literal(String)  // the source text, quotes included
        case comment(String)
        case number(String)
        case punctuation(Character)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A declaration: its keyword (`struct`, `var`, `case`…) and path of names.
    struct Declaration: Hashable, CustomStringConvertible {
        let keyword: String
        let path: [String]
        var description: String { keyword + " " + path.joined(separator: ".") }
    }

    static let keywords: Set<String> = [
        "struct", "class", "final", "enum", "indirect", "case", "var", "let", "func", "init", "typealias",
        "extension", "static", "public", "import", "throws", "throw", "try", "if", "else", "switch", "default",
        "return", "self", "any", "break", "in", "nil", "true", "false",
    ]

    static func tokens(_ source: String) throws -> [Token] {
        let scalars = Array(source.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        func text(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar == " " || scalar == "\n" {
                index += 1
            } else if scalar == "/", next == "/" {
                let start = index
                while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
                tokens.append(.comment(text(start..<index)))
            } else if scalar == "/", next == "*" {
                throw Failure(description: "block comment at scalar \(index)")
            } else if scalar == "\"" {
                if next == "\"" && index + 2 < scalars.count && scalars[index + 2] == "\"" {
                    throw Failure(description: "multi-line string at scalar \(index)")
                }
                let start = index
                index += 1
                while true {
                    guard index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" else {
                        throw Failure(description: "unterminated string literal at scalar \(start)")
                    }
                    if scalars[index] == "\\" {
                        guard index + 1 < scalars.count else { throw Failure(description: "escape at the end") }
                        if scalars[index + 1] == "(" { throw Failure(description: "interpolation at scalar \(index)") }
                        index += 2
                        continue
                    }
                    if scalars[index] == "\"" { break }
                    index += 1
                }
                index += 1
                tokens.append(.literal(text(start..<index)))
            } else if scalar == "$", let next, ("0"..."9").contains(next) {
                tokens.append(.identifier("$" + String(next)))  // `$0` in a closure
                index += 2
            } else if scalar == "#" {
                throw Failure(description: "raw string or directive at scalar \(index)")
            } else if scalar == "`" {
                let start = index + 1
                index += 1
                while index < scalars.count, scalars[index] != "`" {
                    guard scalars[index].properties.isXIDContinue else { throw Failure(description: "raw identifier at scalar \(start)") }
                    index += 1
                }
                guard index < scalars.count else { throw Failure(description: "unterminated backtick at scalar \(start)") }
                tokens.append(.identifier(text(start..<index)))
                index += 1
            } else if scalar == "_" || scalar.properties.isXIDStart {
                let start = index
                while index < scalars.count, scalars[index] == "_" || scalars[index].properties.isXIDContinue { index += 1 }
                let word = text(start..<index)
                tokens.append(keywords.contains(word) ? .keyword(word) : .identifier(word))
            } else if ("0"..."9").contains(scalar) {
                let start = index
                while index < scalars.count, ("0"..."9").contains(scalars[index]) || scalars[index] == "." && index + 1 < scalars.count && ("0"..."9").contains(scalars[index + 1]) { index += 1 }
                tokens.append(.number(text(start..<index)))
            } else if "{}()[]<>:,.?=;!-&|".unicodeScalars.contains(scalar) {
                tokens.append(.punctuation(Character(scalar)))
                index += 1
            } else {
                throw Failure(description: "unexpected character U+\(String(scalar.value, radix: 16)) at scalar \(index)")
            }
        }
        return tokens
    }

    /// The declarations outside function bodies, with their paths.
    static func declarations(_ tokens: [Token]) -> [Declaration] {
        var result: [Declaration] = []
        // The open braces: the name of the type they belong to, or nil for another block.
        var scopes: [String?] = []
        var pendingScope: String?
        var inBody: Int { scopes.firstIndex(where: { $0 == nil }) ?? -1 }
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch token {
            case .punctuation("{"):
                scopes.append(pendingScope)
                pendingScope = nil
            case .punctuation("}"):
                _ = scopes.popLast()
            case .keyword(let word) where inBody < 0:
                let path = scopes.compactMap { $0 }
                switch word {
                case "struct", "class", "enum", "extension", "typealias", "var", "let", "case", "func":
                    var nameIndex = index + 1
                    var name = ""
                    // `extension Legacy.Root`: the whole dotted name.
                    while nameIndex < tokens.count, case .identifier(let part) = tokens[nameIndex] {
                        name += name.isEmpty ? part : "." + part
                        nameIndex += 1
                        guard word == "extension", nameIndex < tokens.count, tokens[nameIndex] == .punctuation(".") else { break }
                        nameIndex += 1
                    }
                    if word == "case", name.isEmpty { break }  // `case .x(let value):` in a switch
                    result.append(Declaration(keyword: word, path: path + [name]))
                    if ["struct", "class", "enum", "extension"].contains(word) { pendingScope = name }
                    if word == "func" { pendingScope = nil }
                    index = nameIndex - 1
                    // Several cases on one line: `case a, b`.
                case "init":
                    result.append(Declaration(keyword: "init", path: path + ["init"]))
                default:
                    break
                }
            default:
                break
            }
            index += 1
        }
        return result
    }
}
