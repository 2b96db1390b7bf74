import Foundation

/// Errors, built only when something is wrong (cold paths). Each names what was expected,
/// what was found (the class of an object, the storage and value of a scalar), the object
/// index and the coding path (`lines[1].qty`).
extension _ArchiveDecoder {
    @inline(never)
    func typeMismatch(_ type: Any.Type, found object: BinaryPropertyList.Object, slot: ArchiveSlot, at path: CodingPathNode) -> DecodingError {
        typeMismatch(type, found: describe(object, in: slot), slot: slot, at: path,
                     hint: Self.isBooleanNumberMix(type, object) ? Self.booleanHint : nil)
    }

    /// "Expected URL but found an object of class 'NSData' at object 4, path 'link'",
    /// followed by `hint` when there is one (`expected` in place of the type's name).
    @inline(never)
    func typeMismatch(_ type: Any.Type, found description: String, slot: ArchiveSlot, at path: CodingPathNode,
                      hint: String? = nil, expected: String? = nil) -> DecodingError {
        var text = ErrorText("Expected ")
        text.add(expected ?? typeName(type))
        text.add(" but found ")
        text.add(description)
        text.add(" at ")
        addPlace(slot, path, to: &text)
        if let hint { text.add(hint) }
        return .archive(.typeMismatch(type), text.string, codingPath: codingPath(of: path),
                        objectIndex: Self.objectIndex(slot), key: path.lastKeyName)
    }

    /// An unkeyed container asked of an NSDictionary by a type that does not read its keys
    /// and values alternately (see ``DecodableTraits/readsPairs(_:)``): "Expected an array
    /// but found an NSDictionary (class 'NSMutableDictionary') at object 5, path 'info'".
    @inline(never)
    func dictionaryRefused(_ chain: ArchivedClassChain, askedBy: Any.Type?, slot: ArchiveSlot, at path: CodingPathNode) -> DecodingError {
        let found = chain.name == "NSDictionary" ? "an NSDictionary" : "an NSDictionary (class '\(chain.name)')"
        let asker = askedBy.map { " (\(typeName($0)) asked for an unkeyed container)" } ?? " (a nested unkeyed container)"
        return typeMismatch([Any].self, found: found, slot: slot, at: path, hint: asker
                            + ": only Dictionary and types that adopt ArchiveKeyValuePairsDecodable read a dictionary's keys and values from an unkeyed container",
                            expected: "an array")
    }

    /// The fix for a strict Boolean read of a 0 or 1 (or a number read of a Boolean).
    static let booleanHint = ". Archives written by Foundation on Linux store 0/1 and false/true as one object:"
        + " read them with booleanDecodingStrategy = .numbersAreBooleans"

    /// Whether `object` would have been read under ``ArchiveDecoder/BooleanDecodingStrategy/numbersAreBooleans``:
    /// a `Bool` asked of the integer 0 or 1, or a number asked of a Boolean.
    private static func isBooleanNumberMix(_ type: Any.Type, _ object: BinaryPropertyList.Object) -> Bool {
        switch object {
        case .integer(0), .integer(1): return type == Bool.self
        case .bool: return type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type
        default: return false
        }
    }

    @inline(never)
    func valueNotFound(_ type: Any.Type, at path: CodingPathNode) -> DecodingError {
        var text = ErrorText("Expected ")
        text.add(typeName(type))
        text.add(" but found nil")
        addPathSuffix(path, to: &text)
        return .archive(.valueNotFound(type), text.string, codingPath: codingPath(of: path), key: path.lastKeyName)
    }

    /// "Message (at object 5, path 'name')". The underlying error's key is `key`, or
    /// the path's last key.
    @inline(never)
    func corrupted(at path: CodingPathNode, slot: ArchiveSlot, _ message: String, key: String? = nil) -> DecodingError {
        var text = ErrorText(sentence(message))
        text.add(" (at ")
        addPlace(slot, path, to: &text)
        text.add(")")
        return .archive(.dataCorrupted, text.string, codingPath: codingPath(of: path),
                        objectIndex: Self.objectIndex(slot), key: key ?? path.lastKeyName)
    }

    /// The `$objects` index an error names for `slot`; nil for a value inline in `$top`.
    static func objectIndex(_ slot: ArchiveSlot) -> Int? {
        if case .inline(_, let owner) = slot, owner < 0 { return nil }
        return slot.objectIndex
    }

    /// The coding path of `node`, for an error or a `codingPath` request. An error costs
    /// one unit of the decode's budget, plus one per key beyond the 16th (building the path
    /// is work proportional to its depth; the message shows at most 8 keys). The charge
    /// never throws: the next step does once the budget is spent. A type that probes with
    /// `try?`, where every failed probe builds an error, therefore still does work linear
    /// in the input, while the shallow probes of generic types on ordinary archives cost
    /// little.
    func codingPath(of node: CodingPathNode) -> [any CodingKey] {
        let keys = node.path
        state.remainingObjects -= 1 + max(0, keys.count - Self.freeErrorDepth)
        return keys
    }

    /// Keys of a coding path built for the flat charge of one unit (see `codingPath(of:)`).
    static let freeErrorDepth = 16

    /// `"\(type)"`, once per type and decode: a type's name is demangled each time it is
    /// printed, which would make every failed `try?` probe cost microseconds.
    func typeName(_ type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let name = state.typeNames[id] { return name }
        let name = "\(type)"
        state.typeNames[id] = name
        return name
    }

    /// Appends "object 5, path 'lines[1].qty'", "a field of object 3, …", or "$top, …".
    private func addPlace(_ slot: ArchiveSlot, _ path: CodingPathNode, to text: inout ErrorText) {
        switch slot {
        case .inline(_, let owner) where owner < 0: text.add("$top")
        case .inline(_, let owner): text.add("a field of object "); text.add(owner)
        case .uid(let uid): text.add("object "); text.add(uid)
        }
        addPathSuffix(path, to: &text)
    }

    private func addPathSuffix(_ path: CodingPathNode, to text: inout ErrorText) {
        if case .root = path { return }
        text.add(", path '")
        path.addDotted(to: &text)
        text.add("'")
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
        case .uid(let uid):
            return "reference cycle: object \(uid) contains itself (only a class that adopts ArchiveReferenceDecodable can be reached again while it is decoded; a struct, enum or collection cannot)"
        case .inline(let ref, _): return "reference cycle: a container (plist object \(ref)) contains itself"
        }
    }
}

extension CodingPathNode {
    /// The path as `lines[1].qty`, the way a Swift expression would reach it. Of a path
    /// deeper than 8 keys only the last 8 are shown, after `…` (the error's `codingPath`
    /// holds all of them), so a message costs the same at any depth.
    var dotted: String {
        var text = ErrorText("")
        addDotted(to: &text)
        return text.string
    }

    /// Appends ``dotted`` to `text`.
    func addDotted(to text: inout ErrorText) {
        addDotted(to: &text, keysLeft: 8, start: text.count)
    }

    /// Appends the parent's part first (recursion at most `keysLeft` deep), then this key.
    private func addDotted(to text: inout ErrorText, keysLeft: Int, start: Int) {
        let parent: CodingPathNode
        switch self {
        case .root: return
        case .key(_, let node), .index(_, let node): parent = node
        }
        if keysLeft == 0 { text.add("…"); return }
        parent.addDotted(to: &text, keysLeft: keysLeft - 1, start: start)
        switch self {
        case .root: return
        case .index(let index, _): text.add("["); text.add(index); text.add("]")
        case .key(let key, _):
            if let index = key.intValue, (key as? ArchiveCodingKey)?.isIndex ?? key.stringValue.hasPrefix("Index ") {
                text.add("["); text.add(index); text.add("]")
            } else {
                if text.count != start { text.add(".") }
                text.add(TextExcerpt.of(key.stringValue))
            }
        }
    }

    /// The last key's name, for an error's ``KeyedArchiveError/key``; nil at the root and
    /// for an array position (no string is made for it: errors are built on every failed
    /// `try?` probe).
    var lastKeyName: String? {
        switch self {
        case .root, .index: return nil
        case .key(let key, _): return key.stringValue
        }
    }
}

/// An error message being built: UTF-8 bytes, made a `String` once at the end. Errors are
/// built on every failed `try?` probe, so this is a hot path for types that probe.
struct ErrorText {
    private var bytes: [UInt8] = []

    init(_ start: String) {
        bytes.reserveCapacity(128)
        add(start)
    }

    /// Bytes so far.
    var count: Int { bytes.count }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func add(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Decimal digits of `value`, without an intermediate string.
    mutating func add(_ value: Int) {
        bytes.appendDecimal(UInt64(value.magnitude), negative: value < 0)
    }
}
