import Foundation

// The leak rule of two-phase decoding: a reference to an object whose fields are still
// being read (an ancestor on the decode stack, or the object itself) is accepted only
// through a key the innermost object being filled declares in `archiveBackEdges`.
//
// Decoding goes depth first and each object is filled once, so every strong reference an
// instance holds goes to an object that finished filling before it did, except the
// references to objects still being filled. With those only in declared (`weak`) keys, no
// cycle of strong references can be built, whatever the archive: releasing the result
// frees every instance, and so does a decode that throws halfway.

/// Back edges that are not a key of the object's keyed container, for
/// ``ArchiveReferenceDecodable/archiveBackEdges``.
///
/// ```swift
/// final class List: ArchiveReferenceCodable {   // an NSMutableArray that may list itself
///     var items: [List] = []
///     static var archiveBackEdges: [any CodingKey] { [ArchiveBackEdge.elements] }
///     init() {}
///     func decodeFields(from decoder: any Decoder) throws {
///         var container = try decoder.unkeyedContainer()
///         while !container.isAtEnd { items.append(try container.decode(List.self)) }
///     }
/// }
/// ```
public enum ArchiveBackEdge: CodingKey, Sendable {
    /// The elements of the object's own unkeyed container: an array object that may list
    /// itself or an ancestor. Its elements are strong, so such a cycle is yours to break
    /// (empty the array when you are done with the graph).
    case elements
    /// Every key of the object, and its unkeyed elements: for a class that reads any
    /// archive into a generic graph and breaks its cycles itself. Hostile input can then
    /// make strong cycles through it; prefer naming the `weak` keys.
    case everyKey
}

/// The back edges a class declares, as the check uses them.
struct DeclaredBackEdges {
    /// The keys' texts (``ArchiveBackEdge`` values apart).
    var names: [String] = []
    var elements = false
    var everyKey = false

    init(_ keys: [any CodingKey]) {
        for key in keys {
            switch key as? ArchiveBackEdge {
            case .elements?: elements = true
            case .everyKey?: everyKey = true
            case nil: names.append(key.stringValue)
            }
        }
    }

    /// Whether a reference under `key` (of the object itself) is declared.
    func accepts(_ key: DecodingPath.PropertyKey) -> Bool {
        switch key {
        case .key(let key): return everyKey || names.contains(key.stringValue)
        case .element: return everyKey || elements
        case .none: return false
        }
    }
}

/// The innermost ``ArchiveReferenceDecodable`` object being filled: what a reference back
/// to an object still being filled is checked against.
struct FillFrame {
    /// The instance's dynamic type, whose ``ArchiveReferenceDecodable/archiveBackEdges`` apply.
    let type: any ArchiveReferenceDecodable.Type
    let uid: Int
    /// The object's coding path: the keys below it are its own.
    let path: CodingPathNode
    /// ``ArchiveDecodingState/sharedClassesOpen`` when its fields began to be read: more
    /// now means the reference is read inside a one-phase class instance.
    let sharedClassesOpen: Int
}

extension _ArchiveDecoder {
    /// The instance already decoded for `uid`, or being filled (then only through a back
    /// edge: see ``acceptBackReference(to:at:)``); nil when there is none yet.
    @inline(__always)
    func existingInstance(_ uid: Int, at path: @autoclosure () -> DecodingPath) throws -> AnyObject? {
        guard let existing = state.instances[uid] else { return nil }
        if state.isFilling(uid) { try acceptBackReference(to: uid, at: path()) }
        return existing
    }

    /// Checks a reference at `path` to object `uid`, whose fields are being read: it must
    /// be read by the innermost object being filled itself (no one-phase class instance in
    /// between), under a key of its own that its class declares a back edge. Notes the
    /// instance as handed out (see ``fill(_:uid:at:)``).
    @inline(never)
    func acceptBackReference(to uid: Int, at path: DecodingPath) throws {
        guard let frame = state.fillFrame else {
            throw corrupted(at: path.node, slot: .uid(uid), "object \(uid) is referred to while it is being decoded, outside any object being filled")
        }
        let key = path.propertyKey(below: frame.path)
        guard backEdges(of: frame.type).accepts(key) else {
            throw backReferenceRefused(to: uid, frame, at: path, key: key, inOnePhaseClass: false)
        }
        guard state.sharedClassesOpen == frame.sharedClassesOpen else {
            throw backReferenceRefused(to: uid, frame, at: path, key: key, inOnePhaseClass: true)
        }
        state.filling[uid]?.handedOut = true
    }

    /// The back edges `type` declares, asked once per type and decode.
    private func backEdges(of type: any ArchiveReferenceDecodable.Type) -> DeclaredBackEdges {
        let id = ObjectIdentifier(type)
        if let known = state.backEdges[id] { return known }
        let declared = DeclaredBackEdges(type.archiveBackEdges)
        state.backEdges[id] = declared
        return declared
    }

    /// "Object 7 (Node) refers back to object 1, which is still being decoded, through its
    /// key 'children'…": which objects, which key, why, and how to declare a back edge.
    @inline(never)
    private func backReferenceRefused(to uid: Int, _ frame: FillFrame, at path: DecodingPath, key: DecodingPath.PropertyKey,
                                      inOnePhaseClass: Bool) -> DecodingError {
        let type = typeName(frame.type)
        var message = "object \(frame.uid) (\(type)) refers "
        message += uid == frame.uid ? "to itself" : "back to object \(uid), which is still being decoded (it contains object \(frame.uid))"
        var name: String?
        let declaration: String
        switch key {
        case .key(let key):
            name = key.stringValue
            message += " through its key '\(key.stringValue)'"
            declaration = "CodingKeys.\(key.stringValue)"
        case .element:
            message += " through an element of its unkeyed container"
            declaration = "ArchiveBackEdge.elements"
        case .none:
            message += " in place, outside any key of its own"
            declaration = "CodingKeys.parent"
        }
        if inOnePhaseClass {
            message += ", from inside an instance of a class decoded in one phase (a plain Decodable or NSCoding class), which may be shared and keep the cycle alive."
                + " A reference to an object still being decoded is accepted only when the two-phase class being filled reads it itself:"
                + " make the class that holds it adopt ArchiveReferenceDecodable and declare its key in archiveBackEdges"
        } else {
            message += ", which \(type) does not declare as a back edge. A reference to an object still being decoded closes a cycle;"
                + " it is accepted only through a key the class lists in ArchiveReferenceDecodable.archiveBackEdges, whose property holds it weakly,"
                + " so that the decoded graph is freed. If that property holds it weakly, declare it"
                + " (static var archiveBackEdges: [any CodingKey] { [\(declaration)] } in \(type));"
                + " otherwise the archive would build a cycle of strong references that is never freed"
        }
        return corrupted(at: path.node, slot: .uid(frame.uid), message, key: name)
    }
}
