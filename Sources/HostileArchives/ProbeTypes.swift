import Foundation

// The Codable types hostile archives are decoded through: what real programs declare.

/// A plain struct whose keys are the fields hostile graphs use, so decoding follows them.
public struct HostileRecord: Codable, Sendable {
    public var name: String?
    public var data: Data?
    public var string: String?
    public var base: URL?
    public var time: Date?
    public var uuid: UUID?
    public var mantissa: Data?
    public var objects: [HostileRecord]?
    public var next: Indirect<HostileRecord>?
    public var value: HostileValue?

    enum CodingKeys: String, CodingKey {
        case name, next, value
        case data = "NS.data", string = "NS.string", base = "NS.base", time = "NS.time"
        case uuid = "NS.uuidbytes", mantissa = "NS.mantissa", objects = "NS.objects"
    }
}

/// A box for recursive struct fields (`var next: Indirect<Self>?`), the usual workaround.
public final class Indirect<Wrapped: Codable & Sendable>: Codable, Sendable {
    public let value: Wrapped
    public init(_ value: Wrapped) { self.value = value }
    public init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Wrapped.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// The AnyCodable pattern: probe with `try?` for a dictionary, then an array, then scalars.
public enum HostileValue: Codable, Sendable {
    case dictionary([String: HostileValue])
    case array([HostileValue])
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode([String: HostileValue].self) { self = .dictionary(value) }
        else if let value = try? container.decode([HostileValue].self) { self = .array(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Data.self) { self = .data(value) }
        else if let value = try? container.decode(Date.self) { self = .date(value) }
        else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "no probe matched") }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .dictionary(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

/// An indirect enum tree: an object with `NS.objects` is a branch, one with a link field
/// (`next`, `NS.data`, `NS.base`, …) a link, anything else an array or a string leaf.
public indirect enum HostileTree: Decodable, Sendable {
    case branch([HostileTree])
    case link(String, HostileTree)
    case leaf(String?)

    static let linkKeys = ["next", "value", "NS.data", "NS.string", "NS.base", "NS.time", "NS.uuidbytes", "NS.mantissa"]

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: HostileKey.self) {
            if keyed.contains(HostileKey("NS.objects")) {
                self = .branch(try keyed.decode([HostileTree].self, forKey: HostileKey("NS.objects")))
                return
            }
            if let key = Self.linkKeys.first(where: { keyed.contains(HostileKey($0)) }) {
                self = .link(key, try keyed.decode(HostileTree.self, forKey: HostileKey(key)))
                return
            }
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .leaf(nil) }
        else if let children = try? single.decode([HostileTree].self) { self = .branch(children) }
        else { self = .leaf(try single.decode(String.self)) }
    }
}

/// A class tree: every link field is another node.
public final class HostileNode: Decodable, Sendable {
    public let name: String?
    public let next: HostileNode?
    public let children: [HostileNode]?
    public let data: HostileNode?
    public let string: HostileNode?
    public let base: HostileNode?
    public let value: HostileNode?

    enum CodingKeys: String, CodingKey {
        case name, next, value
        case children = "NS.objects", data = "NS.data", string = "NS.string", base = "NS.base"
    }
}

/// Arrays of arrays all the way down.
public struct HostileNestedArray: Decodable, Sendable {
    public let items: [HostileNestedArray]
    public init(from decoder: any Decoder) throws { items = try decoder.singleValueContainer().decode([HostileNestedArray].self) }
}

/// A coding key made from any string.
public struct HostileKey: CodingKey, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }
    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { stringValue = String(intValue) }
}
