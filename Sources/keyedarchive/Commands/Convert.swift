import KeyedArchive

/// `keyedarchive convert --to binary|xml FILE [-o OUT]`: the same archive in the other
/// property-list format.
///
/// The property list is rewritten as it is (every object, every UID), so the object graph
/// is unchanged; the archive is opened first so that a broken one is refused rather
/// than copied.
enum ConvertCommand: ToolCommand {
    static let spec = CommandSpec(
        name: "convert",
        abstract: "Rewrite an archive as a binary or XML property list.",
        discussion: """
            The object graph is kept exactly: every object and reference is written back \
            unchanged, so reading the result gives the same archive.
            """,
        arguments: [.file],
        options: [
            .option("to", value: "format", choices: PropertyListFormat.allCases.map(\.rawValue), required: true,
                    help: "The format to write: binary or xml."),
            .option("output", short: "o", value: "out", help: "Where to write (default: standard output)."),
        ]
    )

    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        let input = try ArchiveInput.read(arguments.positionals[0])
        _ = try input.view()
        let tree = try input.propertyList()
        // Validated by the parser against `PropertyListFormat.allCases`.
        let format = PropertyListFormat(rawValue: arguments.value("to") ?? "") ?? .binary
        var bytes = [UInt8](tree.propertyListData(format: format))
        guard let path = arguments.value("output"), path != "-" else {
            Terminal.writeAll(&bytes, to: 1)
            return ExitStatus.success
        }
        try OutputFile.write(bytes, to: path)
        return ExitStatus.success
    }
}
