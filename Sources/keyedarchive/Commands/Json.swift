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
            "$class". A reference back to an enclosing object (a cycle) becomes \
            {"$cycle": true, "$ref": N}, N being its index in $objects (the #N of 'dump'); \
            an object shared without a cycle is written out in each place.

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
            """,
        arguments: [.file],
        options: [
            .option("key", value: "key", help: "Print only the value under this top-level key."),
            .flag("no-classes", help: "Leave out the \"$class\" keys."),
            .flag("compact", help: "Print on one line instead of indenting by two spaces."),
            .expandNested,
        ]
    )

    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        let input = try ArchiveInput.read(arguments.positionals[0])
        var nested = arguments.has("expand-nested") ? NestedExpansion(inputSize: input.data.count) : nil
        let document = try flatten(try input.view(), key: arguments.value("key"), classes: !arguments.has("no-classes"),
                                   file: input.name, nested: &nested)
        var out = OutputBuffer()
        JSONWriter(pretty: !arguments.has("compact")).write(document, to: &out)
        out.flush()
        if let note = nested?.skippedNote { Terminal.err(note) }
        return ExitStatus.success
    }

    /// The JSON document for an archive: one value, or an object keyed by top-level key.
    static func flatten(_ view: KeyedArchiveView, key: String?, classes: Bool, file: String) throws(ToolError) -> JSONValue {
        var nested: NestedExpansion?
        return try flatten(view, key: key, classes: classes, file: file, nested: &nested)
    }

    /// The JSON document, with data values that hold property lists opened by `nested`.
    static func flatten(_ view: KeyedArchiveView, key: String?, classes: Bool, file: String,
                        nested: inout NestedExpansion?) throws(ToolError) -> JSONValue {
        var flattener = ArchiveFlattener(view: view, includeClasses: classes)
        flattener.nested = nested
        defer { nested = flattener.nested }
        do throws(ToolError) {
            if let key {
                guard let value = view.value(forKey: key) else { throw DumpCommand.missingKey(key, in: view, file: file) }
                return try flattener.flatten(value)
            }
            if view.topLevel.count == 1 { return try flattener.flatten(view.topLevel[0].value) }
            var entries: [(key: String, value: JSONValue)] = []
            for entry in view.topLevel { entries.append((entry.key, try flattener.flatten(entry.value))) }
            return .sortedObject(entries)
        } catch {
            throw error.message.hasPrefix(file + ": ") ? error : ToolError(file: file, error.message)
        }
    }
}
