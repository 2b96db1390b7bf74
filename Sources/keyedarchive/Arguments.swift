/// A small command-line parser: each command declares its options and positional
/// arguments, and gets back what was given, or a ``UsageError`` that ends the run with
/// exit status 2.
///
/// Accepted forms: `--name value`, `--name=value`, `-n value`, `-nvalue`, flags,
/// positionals anywhere, `-` as a positional (standard input) and `--` to end options.

/// One option or flag of a command.
struct OptionSpec: Sendable {
    /// The long name, without dashes (`key` for `--key`).
    let long: String
    /// The one-letter short name, if any (`o` for `-o`).
    let short: Character?
    /// The placeholder of its value (`key` shows as `<key>`); `nil` for a flag.
    let valueName: String?
    /// The values allowed, when the set is closed (`binary`, `xml`).
    let choices: [String]
    /// Whether the command cannot run without it.
    let isRequired: Bool
    let help: String

    static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, choices: [], isRequired: false, help: help)
    }

    static func option(
        _ long: String, short: Character? = nil, value: String, choices: [String] = [],
        required: Bool = false, help: String
    ) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: value, choices: choices, isRequired: required, help: help)
    }

    /// The option as shown in usage lines: `--to <format>`, `-o <out>`, `--compact`.
    var synopsis: String {
        let name = short.map { "-\($0)" } ?? "--\(long)"
        return valueName.map { "\(name) <\($0)>" } ?? name
    }

    /// The option as shown in the OPTIONS list: `-o, --output <out>`.
    var listing: String {
        let names = (short.map { "-\($0), " } ?? "") + "--\(long)"
        return valueName.map { "\(names) <\($0)>" } ?? names
    }
}

/// One positional argument of a command.
struct ArgumentSpec: Sendable {
    let name: String
    let help: String
    /// Whether it takes one or more values (`<file> ...`).
    let isRepeating: Bool

    init(_ name: String, repeating: Bool = false, help: String) {
        self.name = name
        self.isRepeating = repeating
        self.help = help
    }
}

/// What a command accepts, and the text of its help.
struct CommandSpec: Sendable {
    let name: String
    /// One line, shown in the command list and after `OVERVIEW:`.
    let abstract: String
    /// Further paragraphs of help, shown under the overview.
    let discussion: String
    let arguments: [ArgumentSpec]
    let options: [OptionSpec]

    /// `-h, --help`, which every command accepts.
    static let helpOption = OptionSpec.flag("help", short: "h", help: "Show help information.")

    var allOptions: [OptionSpec] { options + [Self.helpOption] }
}

/// The parsed command line of one command.
struct ParsedArguments: Sendable {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positionals: [String] = []

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ option: String) -> String? { values[option] }
}

/// A mistake on the command line: exit status 2, the message, and the usage line.
struct UsageError: Error {
    let message: String
    /// The command whose usage to show, or `nil` for the tool's own usage.
    let command: CommandSpec?
}

enum ArgumentParser {
    /// Parses the arguments that follow the command name.
    ///
    /// `--help` (or `-h`) anywhere before `--` wins over every other mistake, as users
    /// expect: the result then holds only that flag, and the caller shows the help.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        let options = arguments.prefix(while: { $0 != "--" })
        if options.contains("--help") || options.contains("-h") {
            result.flags.insert("help")
            return result
        }
        var pending = arguments[...]
        var optionsEnded = false
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: spec) }

        while let argument = pending.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            // Split off an attached value: `--key=value` or `-ovalue`.
            let option: OptionSpec
            var attached: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                guard let found = spec.allOptions.first(where: { $0.long == name }) else {
                    throw fail("Unknown option '--\(name)'")
                }
                option = found
                if let equals = body.firstIndex(of: "=") { attached = String(body[body.index(after: equals)...]) }
            } else {
                let letter = argument.dropFirst().first!
                guard let found = spec.allOptions.first(where: { $0.short == letter }) else {
                    throw fail("Unknown option '\(argument)'")
                }
                option = found
                let rest = argument.dropFirst(2)
                if !rest.isEmpty {
                    guard option.valueName != nil else { throw fail("Unknown option '\(argument)'") }
                    attached = String(rest.hasPrefix("=") ? rest.dropFirst() : rest)
                }
            }
            guard option.valueName != nil else {
                if attached != nil { throw fail("The flag '--\(option.long)' does not take a value") }
                result.flags.insert(option.long)
                continue
            }
            guard let value = attached ?? pending.popFirst() else {
                throw fail("Missing value for '\(option.synopsis)'")
            }
            if !option.choices.isEmpty, !option.choices.contains(value) {
                let allowed = option.choices.map { "'\($0)'" }.joined(separator: " or ")
                throw fail("The value '\(value)' is invalid for '\(option.synopsis)'. Please provide one of \(allowed).")
            }
            if result.values[option.long] != nil {
                throw fail("'\(option.synopsis)' was given more than once")
            }
            result.values[option.long] = value
        }
        try check(result, against: spec)
        return result
    }

    /// Required options present; positionals match the declared arguments in number.
    private static func check(_ result: ParsedArguments, against spec: CommandSpec) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: spec) }
        for option in spec.options where option.isRequired && result.values[option.long] == nil {
            throw fail("Missing expected argument '\(option.synopsis)'")
        }
        let repeating = spec.arguments.last?.isRepeating == true
        if result.positionals.count < spec.arguments.count {
            throw fail("Missing expected argument '<\(spec.arguments[result.positionals.count].name)>'")
        }
        if !repeating, result.positionals.count > spec.arguments.count {
            throw fail("Unexpected argument '\(result.positionals[spec.arguments.count])'")
        }
    }
}
