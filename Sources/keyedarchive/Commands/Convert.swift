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
            unchanged, so reading the result gives the same archive. XML output refuses a \
            string or key holding a character XML 1.0 cannot represent (U+0000-U+0008, \
            U+000B, U+000C, U+000E-U+001F, U+FFFE, U+FFFF), naming it: convert to binary, \
            or pass --raw-xml-characters. Conversion works under the same limits as the \
            other commands: XML writes a value the archive shares once per reference, so \
            XML output past 64 bytes per input byte plus 1 MB (or --max-output) is refused \
            (binary keeps shared values shared).
            """,
        arguments: [.file],
        options: [
            .option("to", value: "format", choices: PropertyListFormat.allCases.map(\.rawValue), required: true,
                    help: "The format to write: binary or xml."),
            .option("output", short: "o", value: "out", help: "Where to write (default: standard output)."),
            .maxOutput,
            .flag("raw-xml-characters",
                  help: "Write strings holding characters XML 1.0 cannot represent (most control characters) as they are, as Foundation does; XML readers reject the result."),
            .maxFileSize,
        ]
    )

    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        let input = try ArchiveInput.read(arguments.positionals[0], for: spec.name, maxFileSize: try arguments.maxFileSize())
        _ = try input.view()
        // Validated by the parser against `PropertyListFormat.allCases`.
        let format = PropertyListFormat(rawValue: arguments.value("to") ?? "") ?? .binary
        let limits = try arguments.outputLimits()
        let outcome: PropertyListRewrite.Outcome
        do {
            outcome = try PropertyListRewrite.rewrite(input.data, as: format, limits: limits,
                                                      refusingForbiddenXMLText: !arguments.has("raw-xml-characters"))
        } catch {
            throw ToolError(file: input.name, ArchiveInput.describe(error))
        }
        var bytes: [UInt8]
        switch outcome {
        case .bytes(let written): bytes = written
        case .forbiddenXMLText(let reason):
            // "file: object 12, key 'NS.string': "Back\u{8}space" holds U+0008, …; convert to binary, …".
            throw ToolError(file: input.name, reason + ": convert to binary, or pass --raw-xml-characters to write it as Foundation does")
        case .outputLimit(let limit):
            throw ToolError(file: input.name, "the \(format.rawValue.uppercased()) output would pass \(limit) bytes (--max-output; by default 64 per input byte plus 1 MB): "
                            + "the archive shares values that XML writes once per reference; binary keeps them shared (--to binary)")
        }
        guard let path = arguments.value("output"), path != "-" else {
            Terminal.writeAll(&bytes, to: 1)
            return ExitStatus.success
        }
        try OutputFile.write(bytes, to: path)
        return ExitStatus.success
    }
}
