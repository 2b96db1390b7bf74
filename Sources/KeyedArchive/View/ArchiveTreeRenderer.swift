import Foundation

extension KeyedArchiveView {
    /// How ``KeyedArchiveView/render(options:)`` draws the tree.
    ///
    /// ```swift
    /// print(view.render(options: .init(maxDepth: 8, colors: true)))
    /// ```
    public struct RenderOptions: Sendable, Hashable {
        /// Objects nested deeper than this are shown as `Class #N …` and not opened.
        public var maxDepth: Int
        /// Whether to colour the output with ANSI escape codes (for a terminal).
        public var colors: Bool
        /// Whether Foundation's classes are shown as what they hold (see
        /// ``KeyedArchiveView/foundationValue(of:)``): collections list their items, and
        /// strings, data, dates, URLs, UUIDs, decimal numbers and NSNull are shown as one
        /// value. When `false`, every object shows its raw fields.
        public var foundationSummaries: Bool
        /// Whether data that holds a keyed archive or another binary or XML property list
        /// is shown as `keyed archive, N bytes` (or `property list, N bytes`) with its
        /// contents one level deeper. Nested property lists open within the view's limits
        /// (`maxDepth` levels, and bytes parsed within its work budget); beyond them data is shown as bytes and
        /// ``RenderReport/unexpandedPropertyLists`` counts it.
        public var expandsNestedPropertyLists: Bool

        /// Creates options; the defaults give plain text with Foundation summaries.
        public init(maxDepth: Int = 256, colors: Bool = false, foundationSummaries: Bool = true,
                    expandsNestedPropertyLists: Bool = false) {
            self.maxDepth = maxDepth
            self.colors = colors
            self.foundationSummaries = foundationSummaries
            self.expandsNestedPropertyLists = expandsNestedPropertyLists
        }
    }

    /// What ``render(key:options:to:)`` left out, so that a caller can say so.
    ///
    /// ```swift
    /// let report = try view.render(options: .init(expandsNestedPropertyLists: true), to: &out)
    /// if report.unexpandedPropertyLists > 0 { print("some nested archives were not opened") }
    /// ```
    public struct RenderReport: Sendable, Hashable {
        /// Nested property lists shown as bytes because a limit was reached.
        public var unexpandedPropertyLists = 0
    }

    /// The archive as an indented tree (``render(options:)`` with default options and
    /// this depth).
    ///
    /// ```swift
    /// print(view.render(maxDepth: 4))
    /// ```
    public func render(maxDepth: Int = 256) -> String {
        render(options: RenderOptions(maxDepth: maxDepth))
    }

    /// The archive as an indented tree: each top-level key, then each object's class,
    /// index and fields. An object is shown in full the first time it is reached; later
    /// references say `-> #N Class (shown above)`, and a reference back to an object
    /// still open (an ancestor) says `-> #N Class (cycle)`. Foundation's value classes
    /// are shown as their value and its collections list their items:
    ///
    /// ```text
    /// root: Note #1
    ///   title = "Some cool title"
    ///   date: NSDate #3 = 2021-03-04T05:06:07Z
    ///   array: NSArray #4 (2 items)
    ///     [0] = "Hello, World!"
    ///     [1] = 42
    /// ```
    ///
    /// The walk uses no recursion and the view's visit budget
    /// (``ArchiveDecoder/Limits``); should the budget run out, the text ends with a line
    /// saying so.
    public func render(options: RenderOptions) -> String {
        var text = ""
        do {
            try render(key: nil, options: options, reservingOutput: Self.stopLineReserve, to: &text)
        } catch {
            // Within the room kept for it, so that the whole text stays within the output limit.
            let line = "… stopped: \(error.message)"
            text += String(decoding: line.utf8.prefix(Self.stopLineReserve - 4), as: UTF8.self) + "\n"
        }
        return text
    }

    /// The output bytes ``render(options:)`` keeps, within the output limit, for its last
    /// line saying why the walk stopped.
    static let stopLineReserve = 1024

    /// Writes the tree (see ``render(options:)``) to `target`, for every top-level key,
    /// or only for `key`.
    ///
    /// ```swift
    /// var out = ""
    /// try view.render(key: "root", options: .init(colors: true), to: &out)
    /// ```
    ///
    /// - Returns: What was left out (nested property lists beyond the limits).
    /// - Throws: ``KeyedArchiveError`` when `key` is not a top-level key, or when the
    ///   view's visit budget runs out (what was written so far stays written).
    @discardableResult
    public func render<Target: TextOutputStream>(
        key: String? = nil, options: RenderOptions, to target: inout Target
    ) throws(KeyedArchiveError) -> RenderReport {
        try render(key: key, options: options, reservingOutput: 0, to: &target)
    }

    /// ``render(key:options:to:)`` with `reservingOutput` bytes of the output limit kept back.
    @discardableResult
    func render<Target: TextOutputStream>(
        key: String?, options: RenderOptions, reservingOutput reserve: Int, to target: inout Target
    ) throws(KeyedArchiveError) -> RenderReport {
        var entries = topLevel.map { (label: ArchiveText.escaped($0.key), value: $0.value) }
        if let key {
            guard let value = value(forKey: key) else {
                throw KeyedArchiveError("no top-level key '\(ArchiveText.escaped(key))'", key: key)
            }
            entries = [(ArchiveText.escaped(key), value)]
        }
        var renderer = ArchiveTreeRenderer(view: self, options: options, reservingOutput: reserve)
        try renderer.render(entries, to: &target)
        return RenderReport(unexpandedPropertyLists: renderer.nested?.skipped ?? 0)
    }
}

/// Walks the graph once, without recursion, printing each object the first time it is
/// reached. Nested archives are walked by the same loop, sharing its work budget.
struct ArchiveTreeRenderer {
    /// The archive being walked: a nested one while its contents are shown.
    private var view: KeyedArchiveView
    let options: KeyedArchiveView.RenderOptions
    private var budget: ArchiveWorkBudget
    private var shown: Set<Int> = []
    private var open: Set<Int> = []
    /// Whether a line was left out because it would pass the output limit.
    private var outputExceeded = false
    /// Opens data that holds a property list, when the options ask for it.
    private(set) var nested: NestedPropertyLists?
    /// The enclosing archives' state while a nested property list is shown.
    private var enclosing: [(view: KeyedArchiveView, shown: Set<Int>, open: Set<Int>)] = []

    private enum Task {
        case entry(label: String, value: ArchivedValue, depth: Int)
        /// The object's subtree is finished: it is no longer an ancestor.
        case close(Int)
        /// A nested property list is finished: back to the enclosing archive.
        case leaveNested
    }
    private var tasks: [Task] = []

    init(view: KeyedArchiveView, options: KeyedArchiveView.RenderOptions, reservingOutput reserve: Int) {
        self.view = view
        self.options = options
        budget = ArchiveWorkBudget(limits: view.limits, inputSize: view.inputSize)
        _ = budget.chargeOutput(min(max(0, reserve), budget.outputLimit))
        if options.expandsNestedPropertyLists { nested = NestedPropertyLists(inputSize: view.inputSize, limits: view.limits) }
    }

    mutating func render<Target: TextOutputStream>(_ entries: [(label: String, value: ArchivedValue)], to out: inout Target) throws(KeyedArchiveError) {
        tasks = entries.reversed().map { .entry(label: $0.label, value: $0.value, depth: 0) }
        while let task = tasks.popLast() {
            switch task {
            case .close(let index):
                open.remove(index)
            case .leaveNested:
                if let outer = enclosing.popLast() { (view, shown, open) = outer }
            case .entry(let label, let value, let depth):
                guard budget.charge() else { throw budget.exhausted() }
                try entry(label, value, depth: depth, to: &out)
                if outputExceeded { throw budget.outputExceeded() }
            }
        }
    }

    /// Writes one line, its bytes charged to the output limit (a line that would pass it is
    /// not written, and the walk stops).
    private mutating func line<Target: TextOutputStream>(_ depth: Int, _ text: String, to out: inout Target) {
        guard !outputExceeded, budget.chargeOutput(2 * depth + text.utf8.count + 1) else { return outputExceeded = true }
        out.write(String(repeating: "  ", count: depth))
        out.write(text)
        out.write("\n")
    }

    /// Queues `items` (labelled `[0]`, `[1]`, …) to be shown under the current line.
    private mutating func push(items: [ArchivedValue], depth: Int) {
        tasks.reserveCapacity(tasks.count + items.count)
        for (position, item) in items.enumerated().reversed() {
            tasks.append(.entry(label: "[\(position)]", value: item, depth: depth))
        }
    }

    private mutating func push(fields: [(label: String, value: ArchivedValue)], depth: Int) {
        tasks.reserveCapacity(tasks.count + fields.count)
        for field in fields.reversed() {
            tasks.append(.entry(label: field.label, value: field.value, depth: depth))
        }
    }

    private mutating func entry<Target: TextOutputStream>(_ label: String, _ value: ArchivedValue, depth: Int,
                                                          to out: inout Target) throws(KeyedArchiveError) {
        switch value {
        case .reference(let index):
            try object(label, index, depth: depth, to: &out)
        case .array(let items):
            guard !items.isEmpty else { return line(depth, "\(label) = []", to: &out) }
            line(depth, "\(label) = \(paint(count(items.count, "item"), .dim))", to: &out)
            push(items: items, depth: depth + 1)
        case .dictionary(let fields):
            guard !fields.isEmpty else { return line(depth, "\(label) = {}", to: &out) }
            line(depth, "\(label) = \(paint(count(fields.count, "entry"), .dim))", to: &out)
            push(fields: fields.map { (ArchiveText.escaped($0.key), $0.value) }, depth: depth + 1)
        default:
            if case .data(let bytes) = value, expandNested(bytes, heading: "\(label) =", depth: depth, to: &out) { return }
            line(depth, "\(label) = \(scalar(value))", to: &out)
        }
    }

    /// Shows data that holds a property list as a heading and, one level deeper, its
    /// contents (a keyed archive's top-level entries, or the plain value under `plist`);
    /// `false` when the data is to be shown as bytes.
    private mutating func expandNested<Target: TextOutputStream>(_ bytes: Data, heading: String, depth: Int, to out: inout Target) -> Bool {
        guard nested != nil, let content = nested?.open(bytes, level: enclosing.count + 1) else { return false }
        line(depth, "\(heading) \(paint("\(content.kind), \(count(bytes.count, "byte"))", .dim))", to: &out)
        tasks.append(.leaveNested)
        enclosing.append((view, shown, open))
        shown = []
        open = []
        switch content {
        case .archive(let inner):
            view = inner
            push(fields: inner.topLevel.map { (ArchiveText.escaped($0.key), $0.value) }, depth: depth + 1)
        case .propertyList(let tree):
            push(fields: [("plist", tree)], depth: depth + 1)
        }
        return true
    }

    private mutating func object<Target: TextOutputStream>(_ label: String, _ index: Int, depth: Int,
                                                           to out: inout Target) throws(KeyedArchiveError) {
        guard index < view.objects.count else { return line(depth, "\(label) = <invalid #\(index)>", to: &out) }
        let object = view.objects[index]
        if let plain = object.plainValue {
            if case .data(let bytes) = plain, expandNested(bytes, heading: "\(label) =", depth: depth, to: &out) { return }
            return line(depth, "\(label) = \(scalar(plain))", to: &out)
        }
        let name = object.className.map(ArchiveText.escaped) ?? "class entry"
        let title = paint(name, .boldCyan) + " " + paint("#\(index)", .dim)
        if open.contains(index) {
            return line(depth, "\(label): -> \(title) \(paint("(cycle)", .boldRed))", to: &out)
        }
        if shown.contains(index) {
            return line(depth, "\(label): -> \(title) \(paint("(shown above)", .dim))", to: &out)
        }
        guard depth < options.maxDepth else { return line(depth, "\(label): \(title) …", to: &out) }
        shown.insert(index)
        open.insert(index)
        tasks.append(.close(index))

        let interpreted = options.foundationSummaries ? view.foundationValue(of: object) : nil
        // A subclass's own fields are shown after the value (the stack shows them last).
        let added = view.addedFields(of: object, interpreted: interpreted)
        if let items = interpreted?.elements {
            line(depth, "\(label): \(title) \(paint("(\(count(items.count, "item")))", .dim))", to: &out)
            push(fields: added.map { ($0.key, $0.value) }, depth: depth + 1)
            return push(items: items, depth: depth + 1)
        }
        if case .dictionary(let keys, let values)? = interpreted {
            // Shown as a dictionary only when every key is a plain value.
            let plainKeys = keys.compactMap { view.plainValue($0) }
            if plainKeys.count == keys.count {
                line(depth, "\(label): \(title) \(paint("(\(count(keys.count, "entry")))", .dim))", to: &out)
                push(fields: added.map { ($0.key, $0.value) }, depth: depth + 1)
                return push(fields: zip(plainKeys, values).map { (scalar($0), $1) }, depth: depth + 1)
            }
        }
        if case .data(let bytes)? = interpreted, expandNested(bytes, heading: "\(label): \(title) =", depth: depth, to: &out) {
            return push(fields: added.map { ($0.key, $0.value) }, depth: depth + 1)
        }
        if let special = interpreted, let text = summary(special) {
            line(depth, "\(label): \(title) = \(text)", to: &out)
            return push(fields: added.map { ($0.key, $0.value) }, depth: depth + 1)
        }
        line(depth, "\(label): \(title)", to: &out)
        // Each object is shown in full once, so interpreted once, charged to the walk's budget.
        let appKit = options.foundationSummaries ? try view.shownAppKitFields(of: object, budget: &budget) : nil
        push(fields: (appKit ?? object.fields).map { (ArchiveText.escaped($0.key), $0.value) }, depth: depth + 1)
    }

    /// The one-line form of a Foundation value class, or `nil` for collections.
    private func summary(_ value: ArchivedFoundationValue) -> String? {
        switch value {
        case .string(let text): return scalar(.string(text))
        case .data(let bytes): return scalar(.data(bytes))
        case .date(let date): return scalar(.date(date))
        case .url(let url): return paint(ArchiveText.escaped(url.absoluteString), .blue)
        case .uuid(let uuid): return paint(uuid.uuidString, .blue)
        case .decimal(let number): return paint(number.description, .yellow)
        case .null: return paint("null", .magenta)
        case .array, .set, .orderedSet, .dictionary: return nil
        }
    }

    private func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun == "entry" ? "entries" : noun + "s")"
    }

    /// A value with no references in it, coloured by kind.
    private func scalar(_ value: ArchivedValue) -> String {
        switch value {
        case .null: return paint("nil", .magenta)
        case .string(let text): return paint(ArchiveText.quoted(text), .green)
        case .integer(let number): return paint(String(number), .yellow)
        case .unsignedInteger(let number): return paint(String(number), .yellow)
        case .wideInteger(let number): return paint(number.description, .yellow)
        case .real(let number): return paint(number.description, .yellow)
        case .bool(let flag): return paint(flag ? "true" : "false", .yellow)
        case .data(let bytes):
            return paint("<\(count(bytes.count, "byte")): \(Self.hex(bytes.prefix(16)))\(bytes.count > 16 ? "…" : "")>", .magenta)
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            return paint(ArchiveDateText.iso8601(sinceReferenceDate: seconds) ?? "\(seconds) s since 2001", .blue)
        case .reference(let index): return "#\(index)"
        case .array(let items): return "[\(count(items.count, "item"))]"
        case .dictionary(let fields): return "{\(count(fields.count, "entry"))}"
        }
    }

    /// `bytes` as lowercase hexadecimal digits, two a byte. (`String(format:)` took 1 µs a
    /// byte on Linux: the 16 bytes shown of a data value referenced half a million times
    /// were most of the time `dump` spent on it.)
    private static func hex(_ bytes: Data) -> String {
        let digits: StaticString = "0123456789abcdef"
        var text: [UInt8] = []
        text.reserveCapacity(2 * bytes.count)
        digits.withUTF8Buffer { digits in
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0xF)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// ANSI styles of the tree.
    private enum Style: String {
        case dim = "2", green = "32", yellow = "33", blue = "34", magenta = "35", boldRed = "1;31", boldCyan = "1;36"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        options.colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
