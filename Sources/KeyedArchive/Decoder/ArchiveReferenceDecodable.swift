import Foundation

/// A class whose instances may take part in cycles: parent pointers, delegates, a node
/// that lists itself.
///
/// `init(from:)` has no `self` until it returns, so a plain `Decodable` class cannot be
/// handed to the objects it contains while it is being decoded. An adopting class is
/// decoded in two phases instead, as `NSKeyedUnarchiver` allocates an object before its
/// `initWithCoder:` runs: ``ArchiveDecoder`` creates the instance with ``init()``, records
/// it for its archived object, then calls ``decodeFields(from:)``. A reference back to an
/// object whose fields are still being read yields that same instance, so the decoded
/// graph has the archive's shape, identity included. ``ArchiveEncoder`` writes such
/// cycles as `NSKeyedArchiver` does: each instance once, later references by its UID.
///
/// The declared type at each call site decides what is created, as everywhere else: no
/// class is instantiated because an archive names it. The back edge of a parent/child
/// pair is usually `weak`, so that a decoded graph is freed with its root. A reference to
/// an object whose fields are still being read is accepted only through a key the class
/// declares in ``archiveBackEdges``; through any other key the decode throws, so that an
/// archive cannot close a cycle of strong references (which would never be freed):
///
/// ```swift
/// final class Node: ArchiveReferenceCodable {
///     var name = ""
///     var children: [Node] = []
///     weak var parent: Node?
///
///     static var archiveBackEdges: [any CodingKey] { [CodingKeys.parent] }
///
///     init() {}
///
///     func decodeFields(from decoder: any Decoder) throws {
///         let container = try decoder.container(keyedBy: CodingKeys.self)
///         name = try container.decode(String.self, forKey: .name)
///         children = try container.decode([Node].self, forKey: .children)
///         parent = try container.decodeIfPresent(Node.self, forKey: .parent)
///     }
/// }
/// ```
///
/// `encode(to:)` is synthesized as for any `Encodable` class. A class that already has
/// an `init(from:)` renames it to `decodeFields(from:)` and gives its stored properties
/// initial values. A subclass overrides ``decodeFields(from:)`` and calls
/// `super.decodeFields(from:)` (with `container.superDecoder()` if its `encode(to:)`
/// uses `superEncoder()`); a class that is not `final` writes `required init()` and the
/// `Decodable` initializer itself, which Swift requires of every subclass:
///
/// ```swift
/// required convenience init(from decoder: any Decoder) throws {
///     self.init()
///     try decodeFields(from: decoder)
/// }
/// ```
///
/// Other decoders (`JSONDecoder`…) use that same `init(from:)`: the instance is created,
/// then filled, with no cycles to resolve. Value types cannot take part in cycles: a
/// struct or enum reached again while it is being decoded throws the reference-cycle error.
public protocol ArchiveReferenceDecodable: AnyObject, Decodable {
    /// Creates an empty instance, which ``decodeFields(from:)`` fills.
    ///
    /// ```swift
    /// init() {}
    /// ```
    init()

    /// Reads the instance's stored properties from `decoder`, as `init(from:)` would.
    ///
    /// Runs once per archived object. An object reached again while this runs (a child's
    /// `parent`) is this very instance, whose remaining properties still hold their
    /// initial values: store it, but do not read its fields yet.
    ///
    /// ```swift
    /// func decodeFields(from decoder: any Decoder) throws {
    ///     let container = try decoder.container(keyedBy: CodingKeys.self)
    ///     delegate = try container.decodeIfPresent(Window.self, forKey: .delegate)
    /// }
    /// ```
    func decodeFields(from decoder: any Decoder) throws

    /// The keys through which an object may refer back to an object whose fields are still
    /// being read (an ancestor in the decode, or itself): the class's `weak` properties.
    /// None by default.
    ///
    /// Decoding goes depth first, so every cycle of the decoded graph contains such a
    /// reference. A back reference is accepted only when the innermost object being filled
    /// reads it under one of these keys; otherwise the decode throws a `DecodingError`
    /// that names the object and the key. With every declared key `weak` (or `unowned`),
    /// no archive, however hostile, can make the decoded graph a cycle of strong
    /// references: releasing the result frees every instance.
    ///
    /// The key that counts is the one of the object's own container (`CodingKeys`, as
    /// `decodeFields(from:)` passes it) under which the reference sits, however deep in its
    /// value: `parent` for `decodeIfPresent(Node.self, forKey: .parent)`, `observers` for
    /// an element of `[Weak<Node>]` read under `observers`. Keys are compared by
    /// `stringValue`. The superclass's keys read through `superDecoder()` count as the
    /// object's own (a subclass that adds back edges overrides this with `class var`).
    /// A reference read from the object's unkeyed container counts as
    /// ``ArchiveBackEdge/elements``. One read from inside an instance of a class decoded in
    /// one phase (a plain `Decodable` or `NSCoding` class, which could be shared) is never
    /// accepted. Declare a key only if everything it holds of an ancestor is `weak`; a
    /// strong one (two peers that own each other) makes a cycle that you break yourself.
    ///
    /// ```swift
    /// static var archiveBackEdges: [any CodingKey] { [CodingKeys.parent] }
    /// ```
    static var archiveBackEdges: [any CodingKey] { get }
}

/// A class that encodes through `Encodable` and decodes in two phases, so that its
/// instances may take part in cycles (see ``ArchiveReferenceDecodable``).
///
/// ```swift
/// final class Window: ArchiveReferenceCodable {
///     var title = ""
///     weak var delegate: Window?
///     init() {}
///     func decodeFields(from decoder: any Decoder) throws {
///         let container = try decoder.container(keyedBy: CodingKeys.self)
///         title = try container.decode(String.self, forKey: .title)
///         delegate = try container.decodeIfPresent(Window.self, forKey: .delegate)
///     }
/// }
/// ```
public typealias ArchiveReferenceCodable = ArchiveReferenceDecodable & Encodable

extension ArchiveReferenceDecodable {
    /// No back edges: a reference to an object still being filled throws (see
    /// ``archiveBackEdges``).
    ///
    /// ```swift
    /// static var archiveBackEdges: [any CodingKey] { [CodingKeys.parent] }
    /// ```
    public static var archiveBackEdges: [any CodingKey] { [] }

    /// Creates an empty instance with ``init()`` and fills it with ``decodeFields(from:)``.
    ///
    /// ```swift
    /// let node = try JSONDecoder().decode(Node.self, from: json)
    /// ```
    public init(from decoder: any Decoder) throws {
        self.init()
        try decodeFields(from: decoder)
    }
}

// MARK: - Decoding in two phases

extension ArchiveReferenceDecodable {
    /// Creates the instance for object `uid` (already entered by the caller), records it,
    /// and fills it, for a caller that knows `Self` as `T`.
    static func _archiveDecodeReference<T>(as type: T.Type, from decoder: _ArchiveDecoder, uid: Int, at path: CodingPathNode) throws -> T {
        let instance = Self()
        try decoder.fill(instance, uid: uid, at: path)
        return try decoder.handOver(instance, as: T.self, at: path)
    }
}

extension _ArchiveDecoder {
    /// `unbox` for an ``ArchiveReferenceDecodable`` class not decoded yet: the same checks
    /// and accounting as any object (strict class names, depth, cycles, work), then
    /// ``fill(_:uid:at:)``.
    @inline(never)
    func unboxReference<T>(_ reference: any ArchiveReferenceDecodable.Type, as type: T.Type, uid: Int,
                           at path: CodingPathNode) throws -> T {
        if state.strictClassNames { try checkClassName(of: uid, for: T.self, at: path) }
        let ref = try reading(.uid(uid), path) { try objectRef(uid) }
        return try withContainer(ref: ref, slot: .uid(uid), at: path) {
            try reference._archiveDecodeReference(as: T.self, from: self, uid: uid, at: path)
        }
    }

    /// `decodeInPlace` for an ``ArchiveReferenceDecodable`` class (the object is already
    /// entered): the instance recorded for `uid`, or a new one filled once.
    @inline(never)
    func decodeReferenceInPlace<T>(_ reference: any ArchiveReferenceDecodable.Type, as type: T.Type, uid: Int,
                                   at path: CodingPathNode) throws -> T {
        if let existing = try existingInstance(uid, at: DecodingPath(path)) { return try cast(existing, to: T.self, at: path) }
        return try reference._archiveDecodeReference(as: T.self, from: self, uid: uid, at: path)
    }

    /// `withContainer` for a slot that is already open: a cycle, unless it is an
    /// ``ArchiveReferenceDecodable`` object being filled, met again through a value type
    /// (an enum or struct that wraps the class and reads it in place, which yields the
    /// instance). Such a value may re-enter the object once at a time; meeting the object
    /// again inside it is a cycle.
    @inline(never)
    func reenter<R>(_ slot: ArchiveSlot, at path: CodingPathNode, _ body: () throws -> R) throws -> R {
        guard case .uid(let uid) = slot, state.filling[uid]?.reentered == false else {
            throw corrupted(at: path, slot: slot, cycleMessage(slot))
        }
        state.filling[uid]?.reentered = true
        state.depth += 1
        defer {
            state.depth -= 1
            state.filling[uid]?.reentered = false
        }
        return try body()
    }

    /// Records `instance` as object `uid`, then lets it read its fields, so that a
    /// reference back to `uid` meanwhile yields it.
    ///
    /// When the fields cannot be read, the instance is forgotten. If it was handed out
    /// meanwhile (a back-reference), the error is also kept: it fails the whole decode even
    /// if a caller catches it (`try?`), so a half-filled instance is never returned. One
    /// that nobody saw (a failed `try?` probe) leaves no trace.
    func fill(_ instance: some ArchiveReferenceDecodable, uid: Int, at path: CodingPathNode) throws {
        if let failure = state.abandonedFill { throw failure }
        state.instances[uid] = instance
        state.filling[uid] = FillState()
        let outer = state.fillFrame
        state.fillFrame = FillFrame(type: Swift.type(of: instance), uid: uid, path: path, sharedClassesOpen: state.sharedClassesOpen)
        defer { state.fillFrame = outer }
        do {
            try decoding(at: .uid(uid), DecodingPath(path), as: Swift.type(of: instance)) { try instance.decodeFields(from: self) }
            state.filling[uid] = nil
        } catch {
            state.instances[uid] = nil
            if state.filling.removeValue(forKey: uid)?.handedOut == true, state.abandonedFill == nil { state.abandonedFill = error }
            throw error
        }
    }

    /// `value`, the result of a whole decode, unless an instance could not be filled on the
    /// way (an error a caller caught with `try?`): then that error.
    func finished<T>(_ value: T) throws -> T {
        if let failure = state.abandonedFill { throw failure }
        return value
    }
}

/// An ``ArchiveReferenceDecodable`` object whose fields are being read.
struct FillState {
    /// Whether the instance was handed out meanwhile (a back-reference).
    var handedOut = false
    /// Whether a value type has re-entered the object (see `_ArchiveDecoder.reenter`).
    var reentered = false
}
