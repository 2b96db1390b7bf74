import KeyedArchive

/// Dispatch: the global options (`--help`, `--version`), `help COMMAND`, and the
/// subcommands.
enum Tool {
    static let commands: [any ToolCommand.Type] = [DumpCommand.self, JsonCommand.self, ConvertCommand.self, VerifyCommand.self, SwiftCommand.self]

    static var specs: [CommandSpec] { commands.map { $0.spec } }

    /// Runs the command line (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            Terminal.write(Help.root(commands: specs), to: 1)
            return ExitStatus.success
        }
        switch first {
        case "-h", "--help":
            Terminal.write(Help.root(commands: specs), to: 1)
            return ExitStatus.success
        case "--version":
            Terminal.out(Help.version)
            return ExitStatus.success
        case "help":
            return help(Array(arguments.dropFirst()))
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            let message = first.hasPrefix("-") ? "Unknown option '\(first)'" : "Unknown command '\(first)'"
            return usageError(UsageError(message: message, command: nil))
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.spec)
        } catch {
            return usageError(error)
        }
        if parsed.has("help") {
            Terminal.write(Help.command(command.spec), to: 1)
            return ExitStatus.success
        }
        do {
            return try command.run(parsed)
        } catch {
            // The message may quote archive text (keys, class names) and file names.
            Terminal.err("error: \(ArchiveText.escaped(error.message))")
            return ExitStatus.failure
        }
    }

    /// `help` alone, or `help COMMAND`.
    private static func help(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            Terminal.write(Help.root(commands: specs), to: 1)
            return ExitStatus.success
        }
        guard arguments.count == 1 else {
            return usageError(UsageError(message: "Unexpected argument '\(arguments[1])'", command: nil))
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            return usageError(UsageError(message: "Unknown command '\(name)'", command: nil))
        }
        Terminal.write(Help.command(command.spec), to: 1)
        return ExitStatus.success
    }

    /// Prints a usage mistake and returns exit status 2.
    static func usageError(_ error: UsageError) -> Int32 {
        Terminal.err(Help.usageError(error))
        return ExitStatus.usage
    }
}
