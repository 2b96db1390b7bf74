import KeyedArchive

/// `keyedarchive json FILE`: the archive as plain JSON.
enum JsonCommand: ToolCommand {
    static let spec = CommandSpec(
        name: "json",
        abstract: "Print the archive as plain JSON.",
        discussion: """
            NSArray, NSSet and NSOrderedSet (and their mutable kinds) become arrays; \
            NSDictionary an object, its keys as strings (numbers as their digits); NSDate an \
            ISO-8601 string in UTC; NSData and plain data base64; NSURL its absolute string; \
            NSUUID its string; NSString its text; NSDecimalNumber a number; NSNull null. \
            Any other object becomes an object of its fields with its class name under \
            "$class". An object or collection is written in full where it is first \
            reached; a later reference to it becomes {"$ref": N}, and a reference back to \
            an enclosing object (a cycle) {"$cycle": true, "$ref": N}, N being its index in \
            $objects (the #N of 'dump'). Where an object that is referenced again is \
            written in full it carries "$id": N (an array is then written as \
            {"$id": N, "$items": [...]}), so every $ref resolves within the output. \
            Values (strings, numbers, dates, data, URLs, UUIDs) are written in every place.

            With one top-level key the output is its value; with several, an object keyed \
            by top-level key. Object keys are sorted by Unicode code point. Integers print \
            exactly; reals print in their shortest round-trip form; NaN and infinities, \
            which JSON cannot hold, print as null; dates outside the years 1-9999 print as \
            seconds since 2001.

            With --expand-nested, data that holds a property list is written in its \
            place as {"$archive": VALUE} for a keyed archive (flattened as above) or \
            {"$plist": VALUE} for any other binary or XML property list. Nesting and the \
            work done follow ArchiveDecoder's default limits: 512 levels, and at most 16 \
            bytes parsed per input byte plus 65,536; beyond them data stays base64 and a \
            note on standard error says how many values were left so.

            Values are written in every place, so output is limited: past 64 bytes per \
            input byte plus 1 MB (or --max-output) nothing is printed and the command \
            fails with an error naming the limit.

            Given several files or a folder, json writes JSON Lines (always compact): one \
            line per file, {"path": P, "archive": VALUE}; {"path": P, "plist": VALUE} for \
            a plain property list named on the command line (or found in a folder, with \
            --all); {"path": P, "error": MESSAGE} for a file that cannot be read or \
            opened, or passes the output limit; and, with --all, {"path": P, "skipped": \
            REASON} for the other files found in folders. P is the path as found, its \
            bytes read as UTF-8.

            \(FolderOptions.help)
            """,
        arguments: [.files],
        options: [
            .option("key", value: "key", help: "Print only the value under this top-level key."),
            .flag("no-classes", help: "Leave out the \"$class\" keys."),
            .flag("compact", help: "Print on one line instead of indenting by two spaces."),
            .expandNested,
            .maxOutput,
            .maxFileSize,
            .all,
            .jobs,
            .quiet,
        ]
    )

    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        if FolderOptions.isFolderRun(arguments) { return try runLines(arguments) }
        let input = try ArchiveInput.read(arguments.positionals[0], for: spec.name, maxFileSize: try arguments.maxFileSize())
        let view = try input.viewOrPropertyList(limits: try arguments.outputLimits())
        var out = OutputBuffer.capturing()
        var nested = arguments.has("expand-nested") ? NestedPropertyLists(inputSize: view.inputSize, limits: view.limits) : nil
        try write(view, key: arguments.value("key"), classes: !arguments.has("no-classes"), pretty: !arguments.has("compact"),
                  file: input.name, nested: &nested, to: &out)
        // Written only once complete, so that a refused archive prints nothing.
        var bytes = Array(out.captured.utf8)
        Terminal.writeAll(&bytes, to: 1)
        if let nested, let note = NestedExpansionNote.text(skipped: nested.skipped, maxDepth: nested.maxDepth) { Terminal.err(note) }
        return ExitStatus.success
    }

    /// Folders or several files: JSON Lines (see ``JSONLines``).
    private static func runLines(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        let folder: FolderOptions
        do {
            folder = try FolderOptions(arguments, of: spec)
        } catch {
            return Tool.usageError(error)
        }
        let options = JSONLines.Options(key: arguments.value("key"), classes: !arguments.has("no-classes"),
                                        expandsNested: arguments.has("expand-nested"), limits: try arguments.outputLimits(),
                                        includesAll: folder.includesAll)
        return folder.run(command: "json", done: { "\($0) archive\($0 == 1 ? "" : "s")" }) { JSONLines.report($0, options) }
    }

    /// The JSON document for an archive: one value, or an object keyed by top-level key;
    /// data that holds a property list is opened by `nested` when it is set. Ends with
    /// `terminator`.
    static func write(_ view: KeyedArchiveView, key: String?, classes: Bool, pretty: Bool, file: String,
                      nested: inout NestedPropertyLists?, terminator: String = "\n",
                      to out: inout OutputBuffer) throws(ToolError) {
        var emitter = JSONEmitter(view: view, includeClasses: classes, pretty: pretty)
        emitter.nested = nested
        defer { nested = emitter.nested }
        do throws(ToolError) {
            if let key {
                guard let value = view.value(forKey: key) else { throw DumpCommand.missingKey(key, in: view, file: file) }
                try emitter.write(value, to: &out)
            } else if view.topLevel.count == 1 {
                try emitter.write(view.topLevel[0].value, to: &out)
            } else {
                try emitter.writeObject(view.topLevel.map { ($0.key, $0.value) }, to: &out)
            }
            out.append(terminator)
        } catch {
            throw error.message.hasPrefix(file + ": ") ? error : ToolError(file: file, error.message)
        }
    }
}
