/// One finding of `verify`: how serious, where, and what.
struct Diagnostic: Equatable {
    enum Severity: String, Comparable {
        /// The archive is not sound: `verify` exits with status 1.
        case error
        /// Unusual but readable (for example `$objects[0]` is not `$null`).
        case warning
        /// Worth knowing, not wrong: cycles (which NSCoding archives may contain),
        /// unreachable objects, an unusual archiver name.
        case note

        private var rank: Int {
            switch self {
            case .error: return 0
            case .warning: return 1
            case .note: return 2
            }
        }

        static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    let severity: Severity
    /// The index in `$objects`, when the finding is about one object.
    let object: Int?
    /// The key path inside the object (`NS.objects[2]`) or in the envelope (`$top.root`).
    let path: String
    let message: String
    /// Whether this is a note about a cycle: `verify` lists those only with `--verbose`
    /// and otherwise counts the cycles in its verdict.
    var isCycle = false

    /// `object #5 (NSArray), NS.objects[2]: UID 99 is out of range`.
    func text(className: String?) -> String {
        var place: [String] = []
        if let object { place.append("object #\(object)" + (className.map { " (\($0))" } ?? "")) }
        if !path.isEmpty { place.append(path) }
        return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
    }
}
