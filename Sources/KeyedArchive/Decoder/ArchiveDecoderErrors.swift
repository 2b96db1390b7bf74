import Foundation

/// Errors, built only when something is wrong (cold paths). Each names what was expected,
/// what was found (the class of an object, the storage and value of a scalar), the object
/// index and the coding path (`lines[1].qty`).
extension _ArchiveDecoder {
    @inline(never)
    func typeMismatch(_ type: Any.Type, found object: BinaryPropertyList.Object, slot: ArchiveSlot, at path: CodingPathNode) -> DecodingError {
        DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: path.path,
            debugDescription: "Expected \(type) but found \(describe(object, in: slot)) at \(place(slot, path))"))
    }

    @inline(never)
    func valueNotFound(_ type: Any.Type, at path: CodingPathNode) -> DecodingError {
        DecodingError.valueNotFound(type, DecodingError.Context(
            codingPath: path.path, debugDescription: "Expected \(type) but found nil\(pathSuffix(path))"))
    }

    @inline(never)
    func corrupted(at path: CodingPathNode, slot: ArchiveSlot, _ message: String, underlying: (any Error)? = nil) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: path.path, debugDescription: "\(sentence(message)) (at \(place(slot, path)))",
            underlyingError: underlying ?? KeyedArchiveError(message, objectIndex: slot.objectIndex, key: path.lastKeyName)))
    }

    /// "object 5, path 'lines[1].qty'", "a field of object 3, …", or "$top, …".
    func place(_ slot: ArchiveSlot, _ path: CodingPathNode) -> String {
        let base: String
        switch slot {
        case .inline(_, let owner) where owner < 0: base = "$top"
        case .inline(_, let owner): base = "a field of object \(owner)"
        case .uid(let uid): base = "object \(uid)"
        }
        return base + pathSuffix(path)
    }

    private func pathSuffix(_ path: CodingPathNode) -> String {
        let text = path.dotted
        return text.isEmpty ? "" : ", path '\(text)'"
    }

    /// A message without a final period (the caller adds its own punctuation).
    private func sentence(_ message: String) -> String {
        var message = message
        while message.hasSuffix(".") { message.removeLast() }
        return message
    }

    /// What an object is, for messages: "integer 1", "real 1.0", "boolean true", "a string",
    /// "an object of class 'NSUUID'".
    func describe(_ object: BinaryPropertyList.Object, in slot: ArchiveSlot? = nil) -> String {
        switch object {
        case .bool(let b): return "boolean \(b)"
        case .integer(let i): return "integer \(i)"
        case .unsignedInteger(let u): return "integer \(u)"
        case .wideInteger(let w): return "integer \(w)"
        case .real(let d): return "real \(d)"
        case .float(let f): return "real \(f)"
        case .date: return "a date"
        case .data(let range): return "data (\(range.count) bytes)"
        case .asciiString, .utf16String: return "a string"
        case .uid(let u): return "UID \(u)"
        case .array(let list): return "an array (\(list.count) elements)"
        case .dictionary(let keys, let values):
            guard let slot, case .uid = slot else { return "a dictionary (\(keys.count) keys)" }
            if let chain = try? archivedClass(keys: keys, values: values, slot: slot, at: .root) {
                return "an object of class '\(chain.name)'"
            }
            return "an object without $class"
        }
    }

    func cycleMessage(_ slot: ArchiveSlot) -> String {
        switch slot {
        case .uid(let uid): return "reference cycle: object \(uid) contains itself"
        case .inline(let ref, _): return "reference cycle: a container (plist object \(ref)) contains itself"
        }
    }
}

extension CodingPathNode {
    /// The path as `lines[1].qty`, the way a Swift expression would reach it.
    var dotted: String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }

    /// The last key's name, or "[n]" for an index; nil at the root.
    var lastKeyName: String? {
        switch self {
        case .root: return nil
        case .key(let key, _): return key.stringValue
        case .index(let index, _): return "[\(index)]"
        }
    }
}
