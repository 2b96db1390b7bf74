import Foundation

/// The class names the Objective-C world gives Swift classes: what `NSKeyedArchiver`
/// writes for an `NSObject` subclass, and the spellings of them an archive may hold.
///
/// Apple's `NSKeyedArchiver` writes `NSStringFromClass` of the class an object archives as
/// (`classForKeyedArchiver`), unless a class-name mapping (`NSKeyedArchiver.setClassName(_:for:)`)
/// renames it: `Module.Class` for a top-level Swift class, the `@objc(Name)` name for a
/// renamed one, and a mangled `_TtC…` name for a nested or private one
/// (`_TtCC5MyApp5Outer5Inner`). All of these are read back (see ``demangled(_:)``).
enum RuntimeClassName {
    /// The name `NSKeyedArchiver` writes for `cls`, a mapping set on `NSKeyedArchiver` first.
    /// (swift-corelibs-foundation's `NSStringFromClass`, which also gives Foundation's own
    /// classes their Objective-C names, `NSUnitLength` for `UnitLength`, traps on a class that
    /// is not top-level: such a class is written under its module-qualified name there.)
    static func written(_ cls: AnyClass) -> String {
        #if canImport(ObjectiveC)
        return NSKeyedArchiver.className(for: cls) ?? NSStringFromClass(cls)
        #else
        if let mapped = NSKeyedArchiver.classNameForClass(cls) { return mapped }
        let reflected = String(reflecting: cls)
        let isTopLevel = reflected.split(separator: ".").count <= 2 && !reflected.contains("(") && !reflected.contains("<")
        return isTopLevel ? NSStringFromClass(cls) : ArchiveClassRegistry.qualifiedName(of: cls)
        #endif
    }

    /// The module-qualified name a mangled Swift class name stands for
    /// (`_TtCC5MyApp5Outer5Inner` → `MyApp.Outer.Inner`, `_TtC5MyApp6Person` → `MyApp.Person`),
    /// a private type's discriminator (`P33_…`) left out; nil for any other spelling.
    static func demangled(_ name: String) -> String? {
        var rest = Substring(name)
        guard rest.hasPrefix("_Tt") else { return nil }
        rest = rest.dropFirst(3)
        // One kind letter per nesting level: C class, V struct, O enum.
        var levels = 0
        while let kind = rest.first, kind == "C" || kind == "V" || kind == "O" {
            levels += 1
            rest = rest.dropFirst()
        }
        guard levels > 0 else { return nil }
        var parts: [Substring] = []
        // The module ("s" is the standard library), then one name per level.
        if rest.first == "s" {
            parts.append("Swift")
            rest = rest.dropFirst()
        } else {
            guard let module = identifier(&rest) else { return nil }
            parts.append(module)
        }
        for _ in 0..<levels {
            if rest.first == "P" {  // a private discriminator, then the name
                rest = rest.dropFirst()
                guard identifier(&rest) != nil else { return nil }
            }
            guard let part = identifier(&rest) else { return nil }
            parts.append(part)
        }
        return rest.isEmpty ? parts.joined(separator: ".") : nil
    }

    /// A length-prefixed identifier ("5Outer"), taken off the front of `text`.
    private static func identifier(_ text: inout Substring) -> Substring? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 4, let length = Int(digits), length > 0 else { return nil }
        let body = text.dropFirst(digits.count)
        guard body.count >= length else { return nil }
        let end = body.index(body.startIndex, offsetBy: length)
        text = body[end...]
        return body[..<end]
    }
}
