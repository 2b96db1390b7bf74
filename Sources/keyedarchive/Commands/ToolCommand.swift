/// A subcommand: its declaration (for parsing and help) and what it does.
protocol ToolCommand: Sendable {
    static var spec: CommandSpec { get }

    /// Runs with parsed arguments and returns the exit status. A thrown ``ToolError``
    /// is printed on standard error and gives exit status 1.
    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32
}

/// The positional `<file>` argument most commands take.
extension ArgumentSpec {
    static let file = ArgumentSpec("file", help: "The archive (binary or XML), or '-' for standard input.")
}

/// `--no-color`, for the commands that colour their output.
extension OptionSpec {
    static let noColor = OptionSpec.flag("no-color", help: "Do not colour the output (also when NO_COLOR is set; colour is only used on a terminal).")
}

/// `--expand-nested`, for the commands that show data values (`dump`, `json`).
extension OptionSpec {
    static let expandNested = OptionSpec.flag(
        "expand-nested",
        help: "Show data that holds a binary or XML property list or a keyed archive opened in place (nested up to 512 levels, within a work limit of 16 bytes parsed per input byte).")
}
