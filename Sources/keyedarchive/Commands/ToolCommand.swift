import KeyedArchive

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

/// `--max-output`, for the commands that print the graph (`dump`, `json`) or rewrite it (`convert`).
extension OptionSpec {
    static let maxOutput = OptionSpec.option(
        "max-output", value: "bytes",
        help: "Stop with an error past this many bytes of output (default: 64 per input byte plus 1 MB, ArchiveDecoder.Limits.maxOutputBytes).")
}

extension ParsedArguments {
    /// The limits `--max-output` asks for (the defaults without it).
    func outputLimits() throws(ToolError) -> ArchiveDecoder.Limits {
        guard let text = value("max-output") else { return ArchiveDecoder.Limits() }
        guard let bytes = Int(text.replacingOccurrences(of: "_", with: "")), bytes >= 0 else {
            throw ToolError("--max-output needs a number of bytes, not '\(text)'")
        }
        return ArchiveDecoder.Limits(maxOutputBytes: bytes)
    }
}
