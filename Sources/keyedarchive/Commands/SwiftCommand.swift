import KeyedArchive
import KeyedArchiveCodegen

/// `keyedarchive swift FILE`: Codable types for the classes an archive holds.
enum SwiftCommand: ToolCommand {
    static let spec = CommandSpec(
        name: "swift",
        abstract: "Generate Codable Swift types that decode the archive.",
        discussion: """
            Prints one Swift file that declares a Codable type for every archived class \
            reachable from $top: named from $classname (module prefix dropped; Foundation \
            and AppKit names such as NSColor get an 'Archived' prefix), conforming to \
            ArchivedClass when the archived name or superclass chain is not the default. \
            Its properties are the union of the keys of all its instances, sorted by name; \
            a property is optional when some instance lacks the key or holds nil, and \
            CodingKeys map names such as 'NS.string', '$0' or 'First key' to Swift \
            identifiers.

            Types are inferred from the values: NSNumber by its storage (Bool, Int, \
            Double), NSString String, NSData Data, NSDate Date, NSURL URL, NSUUID UUID, \
            NSDecimalNumber Decimal, NSArray and NSOrderedSet [T], NSSet Set<T>, \
            NSDictionary [K: V] (a struct when its string keys hold values of different \
            types), NSIndexSet IndexSet, NSIndexPath IndexPath, NSMeasurement Measurement, \
            NSValue CGPoint, CGSize, CGRect or NSRange, NSCountedSet [T: Int] with the \
            counts, NSAttributedString its String. A class whose objects are shared or \
            form a cycle becomes a final class, so that decoding keeps one instance per \
            archived object; every other type is a struct.

            Where one place holds values of several types (a heterogeneous NSArray), \
            the type is an enum with a case per type. An archived object decodes as the \
            case of its class, read from decoder.archivedClassNames (module prefix \
            ignored); any other value tries each case's type in turn and keeps the first \
            that decodes: Foundation objects, String, URL and UUID, Int, Double, Bool, \
            Decimal. Storage is strict, so a boolean never reads as an Int case. The \
            generated enum says so in a comment. A value never seen (a key always nil, a \
            collection always empty or containing itself) has the type UnknownValue, \
            declared in the file.

            Root is the type of $top's 'root' value, or of the only top-level value; an \
            archive with several top-level keys and no 'root' gets a struct Root of them \
            with an init(archive:) that decodes each. The header comment shows the line \
            that decodes the archive. The output depends only on the archive, so it can \
            be committed and compared.

            --namespace Legacy wraps every declaration in 'enum Legacy { ... }', \
            UnknownValue included, so that several generated files live in one module \
            next to the app's own types.

            Text from the archive (keys, class names) and the file name reach the code \
            only as string literals, comments or sanitised identifiers, and types only \
            as the types the file declares or a fixed list of standard-library and \
            Foundation types: an archive cannot add code of its own. Generated names \
            never shadow the standard library's or Foundation's types (a class named \
            Data becomes ArchivedData).

            With --check, the code of each archive is generated and not printed: one line \
            per file on standard output, 'FILE: OK (N types, M lines)' or 'FILE: FAILED' \
            with the reason on standard error. --check takes several files and folders.

            \(FolderOptions.help)
            """,
        arguments: [.files],
        options: [
            .flag("check", help: "Check that code can be generated for each archive, without printing it; takes folders and several files."),
            .option("root-name", value: "name", help: "The name of the root type (default: Root)."),
            .option("access", value: "level", choices: SwiftEmitter.Access.allCases.map(\.rawValue),
                    help: "The access level of the declarations: internal (the default, unwritten) or public."),
            .option("namespace", value: "name", help: "Wrap every declaration in 'enum <name> { ... }' (default: none)."),
            .maxFileSize,
            .all,
            .jobs,
            .quiet,
        ]
    )

    /// The naming and access options, checked once for every file.
    struct Settings: Sendable {
        let rootName: SwiftIdentifier
        let namespace: SwiftIdentifier?
        let access: SwiftEmitter.Access
    }

    static func run(_ arguments: ParsedArguments) throws(ToolError) -> Int32 {
        let rootName = try typeName(arguments.value("root-name") ?? "Root", for: "the root type's name")
        // Not `Optional.map`: the Swift 5.8 standard library of Apple's older SDKs infers no
        // typed throws through it.
        var namespace: SwiftIdentifier?
        if let name = arguments.value("namespace") { namespace = try typeName(name, for: "a namespace") }
        if let namespace, namespace == rootName {
            throw ToolError("the namespace and the root type need different names")
        }
        // Validated by the parser against `Access.allCases`.
        let access = SwiftEmitter.Access(rawValue: arguments.value("access") ?? "internal") ?? .internal
        let settings = Settings(rootName: rootName, namespace: namespace, access: access)
        if arguments.has("check") { return try SwiftCheck.run(arguments, settings: settings) }
        guard !FolderOptions.isFolderRun(arguments) else {
            return Tool.usageError(UsageError(
                message: "swift prints the code of one archive; give one file, or --check for folders and several files", command: spec))
        }
        let input = try ArchiveInput.read(arguments.positionals[0], for: spec.name, maxFileSize: try arguments.maxFileSize())
        let (code, _) = try generate(try input.view(), name: input.name, inputSize: input.data.count, settings: settings)
        var out = OutputBuffer()
        out.append(code.text)
        out.flush()
        return ExitStatus.success
    }

    /// The Swift file for the archive `view` read from `name`, and how many types it declares.
    static func generate(_ view: KeyedArchiveView, name: String, inputSize: Int,
                         settings: Settings) throws(ToolError) -> (SwiftCode, types: Int) {
        var inference = SchemaInference(view: view)
        let schema: ArchiveSchema
        do {
            schema = try inference.infer()
        } catch {
            throw ToolError(file: name, error.message)
        }
        let declarations = SwiftDeclarations(schema: schema, rootName: settings.rootName, namespace: settings.namespace)
        let source = name == "<stdin>" ? "standard input" : lastComponent(name)
        var emitter = SwiftEmitter(declarations: declarations, access: settings.access, source: source,
                                   outputLimit: SwiftEmitter.outputLimit(forInputSize: inputSize))
        do {
            return (try emitter.emit(), declarations.composites.count + declarations.unions.count)
        } catch {
            throw ToolError(file: name, error.message)
        }
    }

    /// A type name given on the command line: a Swift identifier as written, not a keyword
    /// and no name the generated code uses.
    private static func typeName(_ text: String, for role: String) throws(ToolError) -> SwiftIdentifier {
        guard let name = SwiftNaming.validTypeName(text) else {
            throw ToolError("'\(text)' cannot be \(role): it must be a Swift identifier, not a keyword or a type the generated code uses")
        }
        return name
    }

    /// The file name without its folders, so that the output does not depend on where the
    /// archive was read from.
    private static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
