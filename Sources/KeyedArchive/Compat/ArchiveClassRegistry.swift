import Foundation

/// The classes a decoder may instantiate, and the names it knows them by.
///
/// Nothing in an archive selects code unless the caller allowed it: an `NSCoding` or
/// ``ArchiveCoding`` class is instantiated only when registered under a name
/// (`setClass(_:forClassName:)`) or listed in `allowedClasses` (matched by its own name).
/// Foundation value classes (strings, numbers, data, dates, URLs, UUIDs, collections,
/// NSNull) are always allowed: they run no code of the archive's choosing.
struct ArchiveClassRegistry: @unchecked Sendable {
    // @unchecked: `AnyClass` values are immutable type references.
    var byName: [String: AnyClass] = [:]
    var allowed: [AnyClass] = []
    /// Extra names a Codable type answers to under strict class-name checking.
    var aliases: [ObjectIdentifier: Set<String>] = [:]

    /// The names a class is known by: `Module.Outer.Class`, `Class`, and its ``ArchivedClass`` name.
    static func names(of type: Any.Type) -> [String] {
        var names = [qualifiedName(of: type), String(describing: type)]
        if let declared = type as? ArchivedClass.Type { names.append(declared.archivedClassName) }
        return names
    }

    /// `Module.Class` as Swift classes archive (never traps, unlike `NSStringFromClass` on
    /// a nested class).
    static func qualifiedName(of type: Any.Type) -> String {
        if type == NSObject.self { return "NSObject" }
        let name = String(reflecting: type)
        return name.hasPrefix("Foundation.") ? String(name.dropFirst("Foundation.".count)) : name
    }

    /// `OldApp.Person` → `Person`.
    static func unqualified(_ name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }

    /// The class for an archived name, from the registrations, `allowedClasses` and the
    /// classes this call allows (`decodeObject(of:forKey:)`). A module-qualified name also
    /// matches a class registered under its unqualified name, so renaming a module never
    /// strands an archive.
    func lookup(_ name: String, alsoAllowed extra: [AnyClass]?) -> AnyClass? {
        let candidates = allowed + (extra ?? [])
        for candidate in [name, Self.unqualified(name)] {
            if let registered = byName[candidate] { return registered }
            if let match = candidates.first(where: { Self.names(of: $0).contains(candidate) }) { return match }
        }
        return nil
    }

    /// Whether an object of class `archived` may be read as `type` under strict checking.
    func accepts(_ archived: String, for type: Any.Type) -> Bool {
        let names = Set(Self.names(of: type)).union(aliases[ObjectIdentifier(type)] ?? [])
        return names.contains(archived) || names.contains(Self.unqualified(archived))
    }
}
