/// Declares the class name under which a Codable type is archived, and its superclasses.
///
/// By default a type is archived under its Swift name without the module (`Person`), with
/// `$classes` ending in `NSObject`. Adopt this protocol to match an existing archive: an
/// Objective-C name, or the module-qualified name a Swift `NSObject` subclass writes.
///
/// ```swift
/// struct Session: Codable, ArchivedClass {
///     static let archivedClassName = "IHomeSession"
///     static let archivedSuperclassNames = ["IHomeBase", "NSObject"]
///     var token: String
/// }
/// ```
public protocol ArchivedClass {
    /// The `$classname` written for this type.
    static var archivedClassName: String { get }
    /// The superclass names that follow it in `$classes`, most specific first.
    /// Defaults to `["NSObject"]`.
    static var archivedSuperclassNames: [String] { get }
}

extension ArchivedClass {
    /// `["NSObject"]`: the class derives directly from `NSObject`.
    public static var archivedSuperclassNames: [String] { ["NSObject"] }
}

/// How class names are derived for types that do not adopt ``ArchivedClass``.
enum ArchiveClassNaming {
    /// `$classname` and `$classes` for `type`.
    static func classNames(for type: Any.Type) -> (name: String, classes: [String]) {
        if let declared = type as? ArchivedClass.Type {
            let name = declared.archivedClassName
            return (name, [name] + declared.archivedSuperclassNames)
        }
        let name = String(describing: type)
        var classes = [name]
        // A class hierarchy archives its whole chain, as NSKeyedArchiver does.
        if var superclass = _getSuperclass(type) {
            while true {
                let superName = (superclass as Any.Type as? ArchivedClass.Type)?.archivedClassName
                    ?? String(describing: superclass)
                classes.append(superName)
                guard let next = _getSuperclass(superclass) else { break }
                superclass = next
            }
        }
        if classes.last != "NSObject" { classes.append("NSObject") }
        return (name, classes)
    }
}
