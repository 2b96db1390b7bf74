import Foundation
@testable import KeyedArchive

// Pieces for archives built by hand (hostile and security tests).

func uid(_ n: UInt64) -> PropertyListValue { .uid(n) }

func dict(_ entries: KeyValuePairs<String, PropertyListValue>) -> PropertyListValue {
    .dictionary(entries.map { PropertyListEntry(key: $0.key, value: $0.value) })
}

/// A class entry for `name` whose chain is `name`, then `superclasses` (NSObject by default).
func classEntry(_ name: String, superclasses: [String] = ["NSObject"]) -> PropertyListValue {
    dict(["$classname": .string(name), "$classes": .array(([name] + superclasses).map { .string($0) })])
}

/// An archive around `objects` (index 0 is added as `$null`).
func archive(_ objects: [PropertyListValue], top: PropertyListValue = dict(["root": .uid(1)])) -> Data {
    dict([
        "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
        "$top": top, "$objects": .array([.string("$null")] + objects),
    ]).propertyListData(format: .binary)
}
