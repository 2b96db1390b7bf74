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
        guard let name = path.propertyKey(below: frame.path)?.stringValue else {
            throw backReferenceRefused(to: uid, frame, at: path, key: nil, reason: .noKey)
        }
        guard state.sharedClassesOpen == frame.sharedClassesOpen else {
            throw backReferenceRefused(to: uid, frame, at: path, key: name, reason: .oneTimeClass)
        }
        guard backEdgeNames(of: frame.type).contains(name) else {
            throw backReferenceRefused(to: uid, frame, at: path, key: name, reason: .undeclared)
        }
        state.filling[uid]?.handedOut = true
    }

    /// The texts of `type`'s ``ArchiveReferenceDecodable/archiveBackEdges``, asked once per decode.
    private func backEdgeNames(of type: any ArchiveReferenceDecodable.Type) -> [String] {
        let id = ObjectIdentifier(type)
        if let names = state.backEdgeNames[id] { return names }
        let names = type.archiveBackEdges.map(\.stringValue)
        state.backEdgeNames[id] = names
        return names
    }

    private enum RefusalReason {
        case undeclared, noKey, oneTimeClass
    }

    /// "Object 7 (Node) refers back through its key 'children' to object 1, which is still
    /// being decoded…": which objects, which key, why, and how to declare the back edge.
    @inline(never)
    private func backReferenceRefused(to uid: Int, _ frame: FillFrame, at path: DecodingPath, key: String?,
                                      reason: RefusalReason) -> DecodingError {
        let type = typeName(frame.type)
        let target = uid == frame.uid ? "to itself" : "back to object \(uid), which is still being decoded (it contains object \(frame.uid))"
        let declare = "static var archiveBackEdges: [any CodingKey] { [CodingKeys.\(key ?? "parent")] } in \(type)"
        let message: String
        switch reason {
        case .undeclared:
            message = "object \(frame.uid) (\(type)) refers \(target) through its key '\(key ?? "")', which \(type) does not declare as a back edge."
                + " A reference to an object still being decoded makes a cycle; it is accepted only through a key listed in ArchiveReferenceDecodable.archiveBackEdges,"
                + " whose property holds it weakly, so that the graph is freed. If '\(key ?? "")' holds it weakly, declare it: \(declare);"
                + " otherwise the archive would build a cycle of strong references that is never freed"
        case .noKey:
            message = "object \(frame.uid) (\(type)) refers \(target) outside any key of its own (from its unkeyed container, or in place)."
                + " A reference to an object still being decoded makes a cycle; it is accepted only through a key listed in ArchiveReferenceDecodable.archiveBackEdges"
                + " (read the reference from a keyed container, under a key whose property holds it weakly, and declare it: \(declare))"
        case .oneTimeClass:
            message = "object \(frame.uid) (\(type)) refers \(target) under its key '\(key ?? "")', from inside an instance of a class decoded in one phase (a plain Decodable or NSCoding class),"
                + " which could be shared and keep the cycle alive. A reference to an object still being decoded is accepted only through a key"
                + " that a two-phase class (ArchiveReferenceDecodable) lists in archiveBackEdges: make the class that holds it adopt ArchiveReferenceDecodable and declare the key"
        }
        return corrupted(at: path.node, slot: .uid(frame.uid), message, key: key)
    }
}
