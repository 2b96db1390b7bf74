import Foundation

/// A keyed archive (`NSKeyedArchiver` layout) built over a ``RawBinaryPlist``: the
/// `$objects` table, class entries and `$top`, with every reference left to the caller —
/// UIDs may point at the object holding them, plist references at the container holding
/// them or at the `$objects` array itself.
public struct ArchiveGraph: Sendable {
    /// The property list under construction.
    public var plist = RawBinaryPlist()
    /// The plist reference of each `$objects` entry; the index is the UID. Entry 0 is `$null`.
    public private(set) var entries: [Int] = []
    /// The reference of the `$objects` array (written by ``data(root:)``).
    public let objectsArray: Int
    private var classes: [String: UInt64] = [:]

    public init() {
        objectsArray = plist.reserve()
        entries.append(plist.shared(.string("$null")))
    }

    /// A shared string object (keys, class names, short values).
    public mutating func string(_ text: String) -> Int { plist.shared(.string(text)) }

    /// A shared UID object pointing at `uid`.
    public mutating func uid(_ uid: UInt64) -> Int { plist.shared(.uid(uid)) }

    /// Adds `ref` to `$objects` and returns its UID.
    @discardableResult
    public mutating func addEntry(_ ref: Int) -> UInt64 {
        entries.append(ref)
        return UInt64(entries.count - 1)
    }

    /// Reserves a `$objects` entry (and its plist object) to fill later with ``setObject(_:className:fields:)``,
    /// for UIDs that point forwards or at themselves.
    public mutating func reserveEntry() -> UInt64 { addEntry(plist.reserve()) }

    /// The plist reference of entry `uid`.
    public func ref(of uid: UInt64) -> Int { entries[Int(uid)] }

    /// The UID of the class entry for `name` (with `NSObject` as its superclass), added once.
    public mutating func classUID(_ name: String) -> UInt64 {
        if let uid = classes[name] { return uid }
        let names = name == "NSObject" ? [string(name)] : [string(name), string("NSObject")]
        let entry = plist.add(.dictionary(keys: [string("$classname"), string("$classes")],
                                          values: [string(name), plist.add(.array(names))]))
        let uid = addEntry(entry)
        classes[name] = uid
        return uid
    }

    /// The dictionary object of an instance of `className` with `fields` (values are plist references).
    public mutating func objectDictionary(className: String, fields: [(key: String, value: Int)]) -> RawBinaryPlist.Object {
        var keys = [string("$class")], values = [uid(classUID(className))]
        keys.reserveCapacity(fields.count + 1)
        values.reserveCapacity(fields.count + 1)
        for field in fields {
            keys.append(string(field.key))
            values.append(field.value)
        }
        return .dictionary(keys: keys, values: values)
    }

    /// Adds an instance of `className` to `$objects` and returns its UID.
    @discardableResult
    public mutating func addObject(className: String, fields: [(key: String, value: Int)]) -> UInt64 {
        let object = objectDictionary(className: className, fields: fields)
        return addEntry(plist.add(object))
    }

    /// Fills a reserved entry with an instance of `className`.
    public mutating func setObject(_ uid: UInt64, className: String, fields: [(key: String, value: Int)]) {
        let object = objectDictionary(className: className, fields: fields)
        plist.set(ref(of: uid), object)
    }

    /// The archive, with `$top = {root: UID(root)}`.
    public mutating func data(root: UInt64) -> Data {
        plist.set(objectsArray, .array(entries))
        let top = plist.add(.dictionary(keys: [string("root")], values: [uid(root)]))
        let archive = plist.add(.dictionary(
            keys: [string("$archiver"), string("$version"), string("$top"), string("$objects")],
            values: [string("NSKeyedArchiver"), plist.shared(.integer(100_000)), top, objectsArray]))
        return plist.data(top: archive)
    }
}
