import KeyedArchive

/// `keyedarchive dump FILE`: the object graph as an indented tree.
enum DumpCommand: ToolCommand {
    static let spec = CommandSpec(
        name: "dump",
        abstract: "Print the object graph as an indented tree.",
        discussion: """
            Each top-level key is followed by its object: class name, index in $objects \
            (#N) and fields, references followed. An object reached a second time is shown \
            as '-> #N Class (shown above)'; a reference back to an enclosing object as \
            '-> #N Class (cycle)'. Foundation's collections list their items, and its value \
            classes (NSString, NSData, NSDate, NSURL, NSUUID, NSDecimalNumber, NSNull) are \
            shown as their value. Objects nested more than 256 levels deep are shown as \
            'Class #N …' and not opened.

            With --expand-nested, data that holds a keyed archive or another binary or \
            XML property list is shown as 'keyed archive, N bytes' (or 'property list') \
            with its contents one level deeper, within ArchiveDecoder's default limits \
            (512 levels; at most 16 bytes parsed per input byte plus 65,536); beyond \
            them it is shown as bytes, with a note on standard error.

            Colour is used only when standard output is a terminal, and never with \
            --no-color or when NO_COLOR is set.

            Values are shown in every place they are referenced, so output is limited: \
            past 64 bytes per input byte plus 1 MB (or --max-output) the tree stops with \
            an error naming the limit.
            """,
        arguments: [.file],
        options: [
            .option("key", value: "key", help: "Show only the value under this top-level key."),
            .noColor,
            .expandNested,
            .maxOutput,
            .maxFileSize,
        ]
    )

    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        let input = try ArchiveInput.read(arguments.positionals[0], for: spec.name, maxFileSize: try arguments.maxFileSize())
        let view = try input.viewOrPropertyList(limits: try arguments.outputLimits())
        let options = KeyedArchiveView.RenderOptions(colors: Terminal.wantsColor(noColorFlag: arguments.has("no-color")),
                                                     expandsNestedPropertyLists: arguments.has("expand-nested"))
        let key = arguments.value("key")
        if let key, view.value(forKey: key) == nil { throw missingKey(key, in: view, file: input.name) }
        var out = OutputBuffer()
        defer { out.flush() }
        do {
            let report = try view.render(key: key, options: options, to: &out)
            out.flush()
            if let note = NestedExpansionNote.text(skipped: report.unexpandedPropertyLists, maxDepth: view.limits.maxDepth) {
                Terminal.err(note)
            }
        } catch {
            out.flush()
            throw ToolError(file: input.name, "output stopped: \(error.message)")
        }
        return ExitStatus.success
    }

    /// The error for `--key` naming a key the archive does not have.
    static func missingKey(_ key: String, in view: KeyedArchiveView, file: String) -> ToolError {
        let keys = view.topLevelKeys.map { "'\($0)'" }.joined(separator: ", ")
        return ToolError(file: file, "no top-level key '\(key)' (the archive has \(keys.isEmpty ? "none" : keys))")
    }
}
