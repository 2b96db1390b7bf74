import Foundation
@testable import KeyedArchive

// Classes for the secure-decoding tests. Each initializer leaves a trace in `InitLog`
// (keyed by a tag unique to the test), so a test can assert that an initializer the call
// site did not allow never ran. NSCoding classes are top-level: Foundation on Linux
// archives only top-level classes.

/// Which initializers ran, by "Class tag". Shared by tests running in parallel: each test
/// uses its own tag.
final class InitLog: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private static let shared = InitLog()
    private let lock = NSLock()
    private var entries: Set<String> = []

    static func record(_ className: String, _ tag: String) {
        shared.lock.withLock { _ = shared.entries.insert("\(className) \(tag)") }
    }

    static func ran(_ className: String, _ tag: String) -> Bool {
        shared.lock.withLock { shared.entries.contains("\(className) \(tag)") }
    }

    /// A tag no other test uses.
    static func newTag() -> String { UUID().uuidString }
}

/// An NSCoding class a call site allows.
final class SecCat: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let tag: String
    init(tag: String) { self.tag = tag }
    func encode(with coder: NSCoder) { coder.encode(tag, forKey: "tag") }
    required init?(coder: NSCoder) {
        tag = coder.decodeObject(of: [NSString.self], forKey: "tag") as? String ?? ""
        InitLog.record("SecCat", tag)
    }
}

/// An NSCoding class an attacker substitutes.
final class SecDog: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let tag: String
    init(tag: String) { self.tag = tag }
    func encode(with coder: NSCoder) { coder.encode(tag, forKey: "tag") }
    required init?(coder: NSCoder) {
        tag = coder.decodeObject(of: [NSString.self], forKey: "tag") as? String ?? ""
        InitLog.record("SecDog", tag)
    }
}

/// A holder whose `init(coder:)` reads its fields the way `mode` says, recording what it got.
final class SecHolder: NSObject, NSCoding {
    enum Mode: String {
        /// `pet` with `decodeObject(of: [SecCat.self], forKey:)`.
        case catOnly
        /// `pet` with the generic `decodeObject(of: SecCat.self, forKey:)`.
        case catGeneric
        /// `a` as `[SecDog]`, then `b` (the same object) with `decodeObject(of: [], forKey:)`.
        case dogThenNothing
        /// `a` as `[SecDog]`, then `b` (the same object) as `[SecCat]`.
        case dogThenCat
        /// `pet` with plain `decodeObject(forKey:)`.
        case plain
        /// `value` with `try? decodeCodable([[Int]].self)`, swallowing any error.
        case swallowCodable
        /// `value` with `try? decodeCodable(SecTree.self)`, swallowing any error.
        case swallowTree
        /// `value` with `try? decodeCodable(SecPerson.self)`.
        case codablePerson
    }

    let mode: Mode
    let tag: String
    var fields: [String: Any] = [:]
    var codable: [[Int]]?
    var got: [String: Any] = [:]

    init(mode: Mode, tag: String, fields: [String: Any] = [:], codable: [[Int]]? = nil) {
        self.mode = mode
        self.tag = tag
        self.fields = fields
        self.codable = codable
    }

    func encode(with coder: NSCoder) {
        coder.encode(mode.rawValue, forKey: "mode")
        coder.encode(tag, forKey: "tag")
        for key in fields.keys.sorted() { coder.encode(fields[key], forKey: key) }
        if let codable { try? coder.encodeCodable(codable, forKey: "value") }
    }

    required init?(coder: NSCoder) {
        guard let raw = coder.decodeObject(of: [NSString.self], forKey: "mode") as? String, let mode = Mode(rawValue: raw) else { return nil }
        self.mode = mode
        tag = coder.decodeObject(of: [NSString.self], forKey: "tag") as? String ?? ""
        switch mode {
        case .catOnly:
            got["pet"] = coder.decodeObject(of: [SecCat.self], forKey: "pet")
        case .catGeneric:
            got["pet"] = coder.decodeObject(of: SecCat.self, forKey: "pet")
        case .dogThenNothing, .dogThenCat:
            got["a"] = coder.decodeObject(of: [SecDog.self], forKey: "a")
            got["b"] = coder.decodeObject(of: mode == .dogThenNothing ? [] : [SecCat.self], forKey: "b")
        case .plain:
            got["pet"] = coder.decodeObject(forKey: "pet")
        case .swallowCodable:
            got["value"] = try? coder.decodeCodable([[Int]].self, forKey: "value")
        case .swallowTree:
            got["value"] = try? coder.decodeCodable(SecTree.self, forKey: "value")
        case .codablePerson:
            got["value"] = try? coder.decodeCodable(SecPerson.self, forKey: "value")
        }
        for (key, value) in got { InitLog.record("SecHolder got \(key) as \(type(of: value))", tag) }
    }
}

/// A tree for cycle tests.
struct SecTree: Codable {
    var children: [SecTree]
}

/// A Codable struct whose decoding leaves a trace (for strict class-name checking).
struct SecPerson: Codable, Equatable {
    var name: String

    init(name: String) { self.name = name }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        InitLog.record("SecPerson", name)
    }
}

/// The pure-Swift NSCoding style, reading `pet` as `[SecCat]` (or swallowing with `try?`).
final class SecKeeper: ArchiveCoding {
    var tag: String
    var pet: AnyObject?
    var swallow: Bool

    init(tag: String, pet: AnyObject?, swallow: Bool) {
        self.tag = tag
        self.pet = pet
        self.swallow = swallow
    }

    func encode(with coder: ArchiveKeyedEncoder) throws {
        try coder.encode(tag, forKey: "tag")
        try coder.encode(swallow, forKey: "swallow")
        try coder.encodeObject(pet, forKey: "pet")
    }

    init(coder: ArchiveKeyedDecoder) throws {
        tag = try coder.decode(String.self, forKey: "tag") ?? ""
        swallow = try coder.decodeBool(forKey: "swallow")
        if swallow {
            pet = (try? coder.decodeObject(of: [SecCat.self], forKey: "pet")) as AnyObject?
        } else {
            pet = try coder.decodeObject(of: [SecCat.self], forKey: "pet") as AnyObject?
        }
        if let pet { InitLog.record("SecKeeper got \(type(of: pet))", tag) }
    }
}

/// Reads `pet` with `decodeObject(of:)` and the classes named in its `classes` field.
final class SecListReader: ArchiveCoding {
    static let known: [String: AnyClass] = [
        "NSArray": NSArray.self, "NSMutableArray": NSMutableArray.self, "NSString": NSString.self, "SecCat": SecCat.self,
    ]
    var classes: [String]
    var pet: Any?

    init(classes: [String], pet: Any?) {
        self.classes = classes
        self.pet = pet
    }

    func encode(with coder: ArchiveKeyedEncoder) throws {
        try coder.encode(classes, forKey: "classes")
        try coder.encodeObject(pet, forKey: "pet")
    }

    init(coder: ArchiveKeyedDecoder) throws {
        classes = try coder.decode([String].self, forKey: "classes") ?? []
        pet = try coder.decodeObject(of: classes.compactMap { Self.known[$0] }, forKey: "pet")
    }
}
