import KeyedArchive

/// Help and usage text, laid out as swift-argument-parser lays it out
/// (`OVERVIEW:` / `USAGE:` / `ARGUMENTS:` / `OPTIONS:`), wrapped at 80 columns.
enum Help {
    static let toolName = "keyedarchive"
    /// The package's version, the latest version heading of CHANGELOG.md (a test checks
    /// that they agree). Written only here.
    static let version = "1.0.0"
    static let abstract = "Inspect, convert and check Apple keyed archives (NSKeyedArchiver files), and generate Swift types for them."

    /// The tool's own help: its commands and global options.
    static func root(commands: [CommandSpec]) -> String {
        var text = "OVERVIEW: \(abstract)\n\n"
        text += wrap("Reads binary and XML archives; FILE may be '-' for standard input. json, verify and swift --check also take folders (read recursively) and several files.", indent: 0) + "\n"
        text += "USAGE: \(toolName) <subcommand>\n\n"
        text += "OPTIONS:\n"
        text += row("--version", "Show the version.")
        text += row(CommandSpec.helpOption.listing, CommandSpec.helpOption.help)
        text += "\nSUBCOMMANDS:\n"
        for command in commands { text += row(command.name, command.abstract) }
        text += "\n  See '\(toolName) help <subcommand>' for detailed help.\n"
        return text
    }

    /// The help of one command.
    static func command(_ spec: CommandSpec) -> String {
        var text = "OVERVIEW: \(spec.abstract)\n\n"
        if !spec.discussion.isEmpty {
            for paragraph in spec.discussion.split(separator: "\n\n", omittingEmptySubsequences: true) {
                text += wrap(String(paragraph), indent: 0) + "\n"
            }
        }
        text += "USAGE: \(usage(spec))\n\n"
        if !spec.arguments.isEmpty {
            text += "ARGUMENTS:\n"
            for argument in spec.arguments {
                text += row("<\(argument.name)>" + (argument.isRepeating ? " ..." : ""), argument.help)
            }
            text += "\n"
        }
        text += "OPTIONS:\n"
        for option in spec.allOptions { text += row(option.listing, option.help) }
        return text
    }

    /// The one-line synopsis: `keyedarchive convert --to <format> [-o <out>] <file>`.
    static func usage(_ spec: CommandSpec) -> String {
        var parts = [toolName, spec.name]
        for option in spec.options {
            parts.append(option.isRequired ? option.synopsis : "[\(option.synopsis)]")
        }
        for argument in spec.arguments {
            parts.append("<\(argument.name)>" + (argument.isRepeating ? " ..." : ""))
        }
        return parts.joined(separator: " ")
    }

    /// What a usage mistake prints on standard error.
    static func usageError(_ error: UsageError) -> String {
        if let spec = error.command {
            return """
                error: \(ArchiveText.escaped(error.message))
                Usage: \(usage(spec))
                  See '\(toolName) \(spec.name) --help' for more information.
                """
        }
        return """
            error: \(ArchiveText.escaped(error.message))
            Usage: \(toolName) <subcommand>
              See '\(toolName) --help' for more information.
            """
    }

    /// A label and its help, the help starting at column 26 (or on the next line when
    /// the label is too long), continuation lines aligned with it.
    private static func row(_ label: String, _ help: String) -> String {
        let column = 26
        let lead = "  " + label
        let body = wrap(help, indent: column)
        let bodyText = body.dropFirst(column)
        if lead.count + 2 <= column {
            return lead + String(repeating: " ", count: column - lead.count) + bodyText
        }
        return lead + "\n" + body
    }

    /// Wraps `text` to 80 columns, every line indented by `indent` spaces; ends in "\n".
    private static func wrap(_ text: String, indent: Int) -> String {
        let width = 80
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        func append(_ word: String) {
            guard !word.isEmpty else { return }
            if !line.isEmpty, indent + line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if word.contains("\n") {
                // Honour explicit line breaks inside a paragraph.
                let pieces = word.split(separator: "\n", omittingEmptySubsequences: false)
                for (index, piece) in pieces.enumerated() {
                    if index > 0 {
                        lines.append(line)
                        line = ""
                    }
                    append(String(piece))
                }
                continue
            }
            append(String(word))
        }
        lines.append(line)
        return lines.map { pad + $0 }.joined(separator: "\n") + "\n"
    }
}
