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

    /// The names a class is known by: `Module.Outer.Class`, `Class`, its ``ArchivedClass``
    /// name, and for an Objective-C class the name `NSKeyedArchiver` writes for it
    /// (``RuntimeClassName/written(_:)``: an `@objc(Name)` name on Darwin).
    static func names(of type: Any.Type) -> [String] {
        var names = [qualifiedName(of: type), String(describing: type)]
        if let declared = type as? ArchivedClass.Type { names.append(declared.archivedClassName) }
        if let cls = type as? NSObject.Type { names.append(RuntimeClassName.written(cls)) }
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

    /// The class an archived name may instantiate for one call, or nil when the call does
    /// not allow it. The call site decides:
    ///
    /// - A call that names its classes (`decodeObject(of:forKey:)`, an `@NSCodingObject`
    ///   property, whose list is its declared type) gets one of exactly those classes. A
    ///   registration (`setClass(_:forClassName:)`) may rename an archived name to one of
    ///   them, but `allowedClasses` and registrations of other classes never widen the list.
    /// - A call that names none (`decodeObject(forKey:)`, elements of a collection read
    ///   that way) gets a registered class or one of `allowedClasses`.
    ///
    /// A module-qualified name also matches a class under its unqualified name, so renaming
    /// a module never strands an archive. Nothing here runs code: the caller checks before
    /// any initializer runs.
    func resolve(_ name: String, for call: [AnyClass]?) -> AnyClass? {
        // A mangled name (`_TtCC5MyApp5Outer5Inner`, as Darwin writes nested and private
        // Swift classes) is read as the qualified name it stands for.
        let readable = RuntimeClassName.demangled(name) ?? name
        for candidate in [name, readable, Self.unqualified(readable)] {
            if let registered = byName[candidate] {
                guard let call else { return registered }
                if call.contains(where: { $0 == registered }) { return registered }
            }
            if let match = (call ?? allowed).first(where: { Self.names(of: $0).contains(candidate) }) { return match }
        }
        return nil
    }

    /// Whether a call permits a Foundation value class (`NSString`, `NSArray`…): always when
    /// it names no classes, otherwise when the class or one of its superclasses is listed
    /// (`NSDecimalNumber` for `NSNumber`), as `NSSecureCoding` allow-lists work.
    static func permits(_ foundationClass: NSObject.Type, for call: [AnyClass]?) -> Bool {
        guard let call else { return true }
        return call.contains { foundationClass.isSubclass(of: $0) }
    }

    /// "[Cat, Dog]", for error messages.
    static func describe(_ call: [AnyClass]?) -> String {
        guard let call else { return "the decoder's allowedClasses and registrations" }
        return call.isEmpty ? "no classes" : "[" + call.map { "\($0)" }.joined(separator: ", ") + "]"
    }

    /// Whether an object of class `archived` may be read as `type` under strict checking:
    /// the type's names and aliases, and, for a value type (struct, enum, `Dictionary`), the
    /// dictionary Foundation stores Codable values as (`encodeCodable`, `encodeEncodable`).
    func accepts(_ archived: String, for type: Any.Type) -> Bool {
        if !(type is AnyClass), archived == "NSDictionary" || archived == "NSMutableDictionary" { return true }
        let names = Set(Self.names(of: type)).union(aliases[ObjectIdentifier(type)] ?? [])
        let readable = RuntimeClassName.demangled(archived) ?? archived
        return names.contains(archived) || names.contains(readable) || names.contains(Self.unqualified(readable))
    }
}
