import Foundation
@testable import KeyedArchive

// Shared pieces of the option tests: a Foundation-side reader for archived structs, a
// coding key for tables of names, and a generic tree that lists the keys of any archive.

/// Reads an archived struct in Foundation: every key it was written with, as
/// `NSKeyedUnarchiver` decodes it (`decodeObject(forKey:)`). Register it for the struct's
/// class name; nested structs decode as further probes.
final class FieldProbe: NSObject, NSCoding {
    /// The keys the option tests look for (Foundation's coder cannot list its keys):
    /// objects (read with `decodeObject(forKey:)`) and integers stored inline.
    static let objectKeys = ["when", "blob", "values"]
    static let integerKeys = [
        "my_url_property", "_leading", "already_snake", "h_ttp_header", "a1_b2", "myURLProperty", "HTTPHeader", "a1B2",
    ]
    let fields: [String: Any]

    func encode(with coder: NSCoder) {}

    required init?(coder: NSCoder) {
        var fields: [String: Any] = [:]
        for key in Self.objectKeys where coder.containsValue(forKey: key) {
            fields[key] = coder.decodeObject(forKey: key) ?? NSNull()
        }
        for key in Self.integerKeys where coder.containsValue(forKey: key) {
            fields[key] = coder.decodeInteger(forKey: key)
        }
        self.fields = fields
    }
}

/// Archives `value` with `encoder` under the class name "Probe" and reads it back with
/// Foundation's unarchiver, returning the fields it finds.
func foundationFields<T: Encodable>(of value: T, encoder: ArchiveEncoder, classNames: [String] = ["Probe"]) throws -> [String: Any] {
    let data = try encoder.encode(value)
    var classes: [String: AnyClass] = [:]
    for name in classNames { classes[name] = FieldProbe.self }
    guard let probe = try foundationUnarchive(data, classes: classes) as? FieldProbe else {
        throw FoundationUnarchiveError(description: "root is not a probe")
    }
    return probe.fields
}

/// A coding key made from any string, for tables of names.
struct NameKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A keyed value whose keys are given at run time (each holds its position).
struct NamedFields: Codable, Equatable {
    var names: [String]

    init(names: [String]) { self.names = names }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: NameKey.self)
        for (position, name) in names.enumerated() { try fields.encode(position, forKey: NameKey(name)) }
    }

    /// Reads the keys the decoder lists, in order.
    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: NameKey.self)
        names = fields.allKeys.map(\.stringValue)
    }
}

/// Any decoded value, keeping only its shape: the keys of keyed values at every depth.
indirect enum KeyTree: Decodable, Equatable, CustomStringConvertible {
    case keyed([String: KeyTree])
    case list([KeyTree])
    case leaf

    init(from decoder: any Decoder) throws {
        // An NSArray is an object too: its class, not its container, says it is a list.
        let isList = decoder.archivedClassNames?.contains("NSArray") ?? false
        if !isList, let fields = try? decoder.container(keyedBy: NameKey.self) {
            var result: [String: KeyTree] = [:]
            for key in fields.allKeys { result[key.stringValue] = try fields.decode(KeyTree.self, forKey: key) }
            self = .keyed(result)
        } else if var items = try? decoder.unkeyedContainer() {
            var result: [KeyTree] = []
            while !items.isAtEnd { result.append(try items.decode(KeyTree.self)) }
            self = .list(result)
        } else {
            self = .leaf
        }
    }

    /// The same shape from a `JSONSerialization` object.
    init(json: Any) {
        if let object = json as? [String: Any] {
            self = .keyed(object.mapValues { KeyTree(json: $0) })
        } else if let array = json as? [Any] {
            self = .list(array.map { KeyTree(json: $0) })
        } else {
            self = .leaf
        }
    }

    var description: String {
        switch self {
        case .keyed(let fields):
            return "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .leaf: return "."
        }
    }
}
