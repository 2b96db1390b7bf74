import KeyedArchive

/// The note `--expand-nested` prints on standard error when something was left unopened.
enum NestedExpansionNote {
    static func text(skipped: Int, maxDepth: Int = ArchiveDecoder.Limits().maxDepth) -> String? {
        guard skipped > 0 else { return nil }
        return "note: \(skipped) nested property list\(skipped == 1 ? " was" : "s were") shown as data: nesting deeper than \(maxDepth) levels, or more nested bytes than the work limit (16 per input byte plus 65,536)"
    }
}
