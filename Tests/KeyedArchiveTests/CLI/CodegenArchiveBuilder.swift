import Foundation
import KeyedArchive

/// Builds a keyed archive object by object, for the codegen tests' generated archives.
struct CodegenArchiveBuilder {
    private(set) var objects: [PropertyListValue] = [.string("$null")]

    /// Appends `value` to `$objects` and returns its UID.
    mutating func add(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    /// A class entry for `name` whose chain is `chain` (default: `name`) and `NSObject`.
    mutating func classEntry(_ name: String, chain: [String]? = nil) -> PropertyListValue {
        add(.dictionary([Self.entry("$classname", .string(name)),
                         Self.entry("$classes", .array(((chain ?? [name]) + ["NSObject"]).map { .string($0) }))]))
    }

    static func entry(_ key: String, _ value: PropertyListValue) -> PropertyListEntry { PropertyListEntry(key: key, value: value) }

    /// The archive with `top` as its `$top`.
    func data(top: [PropertyListEntry]) -> Data {
        PropertyListValue.dictionary([
            Self.entry("$archiver", .string("NSKeyedArchiver")), Self.entry("$version", .integer(100_000)),
            Self.entry("$top", .dictionary(top)), Self.entry("$objects", .array(objects)),
        ]).propertyListData(format: .binary)
    }
}
