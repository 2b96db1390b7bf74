import Foundation

/// An NSDictionary key read as the text a keyed container lists it under: a string (or
/// an NSString subclass) its characters, a number its decimal digits (an integer also as
/// `intValue`), an NSURL its absolute string, an NSUUID its string. One rule for
/// `allKeys`, key lookup and `[String: V]`.
struct ArchiveKeyText {
    let text: String
    /// The key as an integer, when it is an integer number that fits in `Int`.
    let integer: Int?
}

/// The key texts of one NSDictionary: `plain` when every key is a plain string (the
/// common case, matched in place without making a `String`), else each key's text.
enum ArchiveDictionaryKeys {
    case plain
    case texts([ArchiveKeyText])
}

extension _ArchiveDecoder {
    /// The keys of the NSDictionary whose `NS.keys` are `keys`, as ``ArchiveDictionaryKeys``:
    /// worked out once per dictionary and decode (by the key list's offset), so a shared
    /// dictionary opened many times costs its keys once. Throws `typeMismatch` for a key
    /// that has no text (an object of another class, a collection, nil), naming the key's
    /// class and object index: a keyed container never leaves an entry out.
    func dictionaryKeys(_ keys: BinaryPropertyList.RefList, owner: Int, at path: CodingPathNode) throws -> ArchiveDictionaryKeys {
        if let known = state.dictionaryKeys[keys.start] { return known }
        var result = ArchiveDictionaryKeys.plain
        if try !allPlainStrings(keys, owner: owner, at: path) {
            var texts: [ArchiveKeyText] = []
            texts.reserveCapacity(keys.count)
            for i in 0..<keys.count {
                let keySlot: ArchiveSlot = try reading(.uid(owner), path.appending(index: i)) {
                    try self.slot(forValueAt: try entryRef(keys, i), owner: owner)
                }
                texts.append(try keyText(of: keySlot, entry: i, owner: owner, at: path.appending(index: i)))
            }
            result = .texts(texts)
        }
        state.dictionaryKeys[keys.start] = result
        return result
    }

    /// Whether every key is a plain string (behind a UID or inline).
    private func allPlainStrings(_ keys: BinaryPropertyList.RefList, owner: Int, at path: CodingPathNode) throws -> Bool {
        try reading(.uid(owner), path) {
            for i in 0..<keys.count {
                var ref = try entryRef(keys, i)
                if let uid = try self.uid(at: ref) { ref = try objectRef(uid) }
                switch try plist.object(ref) {
                case .asciiString, .utf16String: continue
                default: return false
                }
            }
            return true
        }
    }

    /// The text of one dictionary key (see ``ArchiveKeyText``), or `typeMismatch` naming
    /// what the key is instead.
    /// The path is built only past the common key (a short plain string).
    func keyText(of slot: ArchiveSlot, entry: Int, owner: Int, at path: @autoclosure () -> CodingPathNode) throws -> ArchiveKeyText {
        if let text = fastString(slot) { return ArchiveKeyText(text: text, integer: nil) }  // the common key
        let path = path()
        if case .uid(0) = slot {
            throw typeMismatch(String.self, found: "nil ($null) as key \(entry) of dictionary object \(owner)", slot: slot, at: path)
        }
        let object = try reading(slot, path) { () throws -> BinaryPropertyList.Object in
            try charge(1)
            return try plist.object(try plistRef(of: slot))
        }
        switch object {
        case .asciiString, .utf16String:
            return ArchiveKeyText(text: try plainString(object, slot: slot, at: path), integer: nil)
        case .integer(let i): return ArchiveKeyText(text: String(i), integer: Int(exactly: i))
        case .unsignedInteger(let u): return ArchiveKeyText(text: String(u), integer: Int(exactly: u))
        case .wideInteger(let w): return ArchiveKeyText(text: w.description, integer: nil)
        case .real(let d): return ArchiveKeyText(text: d.description, integer: nil)
        case .float(let f): return ArchiveKeyText(text: Double(f).description, integer: nil)
        case .dictionary(let keys, let values):
            guard let chain = try archivedClass(keys: keys, values: values, slot: slot, at: path) else { break }
            switch FoundationClassKind.kind(ofClasses: chain.classes) {
            case .string?: return ArchiveKeyText(text: try readString(from: slot, at: path), integer: nil)
            case .url?: return ArchiveKeyText(text: try unbox(URL.self, from: slot, at: path).absoluteString, integer: nil)
            case .uuid?: return ArchiveKeyText(text: try unbox(UUID.self, from: slot, at: path).uuidString, integer: nil)
            default: break
            }
        default:
            break
        }
        throw typeMismatch(String.self, found: "\(describe(object, in: slot)) as key \(entry) of dictionary object \(owner), which has no text to be a key (a string, number, URL or UUID)", slot: slot, at: path)
    }
}
