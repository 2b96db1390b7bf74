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
            or pass --raw-xml-characters.
            """,
        arguments: [.file],
        options: [
            .option("to", value: "format", choices: PropertyListFormat.allCases.map(\.rawValue), required: true,
                    help: "The format to write: binary or xml."),
            .option("output", short: "o", value: "out", help: "Where to write (default: standard output)."),
            .flag("raw-xml-characters",
                  help: "Write strings holding characters XML 1.0 cannot represent (most control characters) as they are, as Foundation does; XML readers reject the result."),
            .maxFileSize,
        ]
    )

    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        let input = try ArchiveInput.read(arguments.positionals[0], for: spec.name, maxFileSize: try arguments.maxFileSize())
        _ = try input.view()
        let tree = try input.propertyList()
        // Validated by the parser against `PropertyListFormat.allCases`.
        let format = PropertyListFormat(rawValue: arguments.value("to") ?? "") ?? .binary
        var bytes: [UInt8]
        if format == .xml && !arguments.has("raw-xml-characters") {
            guard let xml = tree.checkedXMLData() else { throw forbiddenTextError(in: tree, file: arguments.positionals[0]) }
            bytes = [UInt8](xml)
        } else {
            bytes = [UInt8](tree.propertyListData(format: format))
        }
        guard let path = arguments.value("output"), path != "-" else {
            Terminal.writeAll(&bytes, to: 1)
            return ExitStatus.success
        }
        try OutputFile.write(bytes, to: path)
        return ExitStatus.success
    }

    /// "file: object 12, key 'NS.string': "Back\u{8}space" holds U+0008, …; convert to binary, …".
    private static func forbiddenTextError(in tree: PropertyListValue, file: String) -> ToolError {
        let reason = tree.xmlForbiddenTextReason() ?? "a string holds a character XML 1.0 cannot represent"
        return ToolError(file: file, reason + ": convert to binary, or pass --raw-xml-characters to write it as Foundation does")
    }
}
