import Foundation

extension PropertyListValue {
    /// Why the value cannot be written as XML 1.0, naming the first string or dictionary
    /// key that holds a character it cannot represent, in an archive by object index and
    /// key: `object 12, key 'NS.string': "Back\u{8}space" holds U+0008, which XML 1.0
    /// cannot represent (XML readers reject the file)`. Nil when there is none. Cold path.
    func xmlForbiddenTextReason() -> String? {
        guard let found = firstXMLForbiddenText() else { return nil }
        var keys = found.path
        var place = ""
        if keys.count >= 2, keys[0] == "$objects" {
            place = "object \(keys[1])"
            keys.removeFirst(2)
        }
        if !keys.isEmpty { place += (place.isEmpty ? "" : ", ") + "key '\(ArchiveText.escaped(keys.joined(separator: ".")))'" }
        return (place.isEmpty ? "" : place + ": ") + ArchiveText.quoted(found.text) + " " + XMLPlistEscaping.refusal(found.text)
    }

    /// The first string or dictionary key (depth first, in stored order) holding a
    /// character XML 1.0 cannot represent, and the keys and positions that reach it from
    /// the root (`["$objects", "12", "NS.string"]`).
    private func firstXMLForbiddenText() -> (text: String, path: [String])? {
        switch self {
        case .string(let text):
            return XMLPlistEscaping.firstForbiddenCharacter(in: text) == nil ? nil : (text, [])
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = element.firstXMLForbiddenText() { return (found.text, ["\(index)"] + found.path) }
            }
        case .dictionary(let entries):
            for entry in entries {
                if XMLPlistEscaping.firstForbiddenCharacter(in: entry.key) != nil { return (entry.key, []) }
                if let found = entry.value.firstXMLForbiddenText() { return (found.text, [entry.key] + found.path) }
            }
        default: break
        }
        return nil
    }
}
