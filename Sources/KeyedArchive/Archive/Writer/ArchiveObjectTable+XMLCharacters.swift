import Foundation

extension ArchiveObjectTable {
    /// The error for a table whose XML would hold a character XML 1.0 cannot represent
    /// (see ``XMLPlistEscaping``): it names the first such string or key found from `$top`
    /// (the shortest path to it), its object index and the character. Cold path: the XML
    /// writer's scan has already found that there is one; this walk says where.
    func xmlForbiddenTextError() -> EncodingError {
        let found = firstForbiddenText()
        var what = found.isKey ? "the key " : "the string "
        what += ArchiveText.quoted(TextExcerpt.of(found.text))
        if let uid = found.uid { what += " (object \(uid))" }
        let dotted = ArchiveText.escaped(found.path.dotted)
        let place = dotted.isEmpty ? "" : " at '\(dotted)'"
        let message = "Cannot write XML: \(what)\(place) \(XMLPlistEscaping.refusal(found.text)). Write a binary"
            + " archive (outputFormat = .binary), or set invalidXMLCharacterStrategy = .writeRaw to write it as Foundation does"
        return EncodingError.invalidValue(found.text, EncodingError.Context(codingPath: found.path.path, debugDescription: message))
    }

    /// The first string or key with a character XML 1.0 cannot represent, breadth first
    /// from `$top`, and the keys (field names, array positions, dictionary keys) that reach it.
    private func firstForbiddenText() -> (text: String, uid: Int32?, isKey: Bool, path: CodingPathNode) {
        func forbidden(_ text: String) -> Bool { XMLPlistEscaping.firstForbiddenCharacter(in: text) != nil }
        var queue: [(uid: Int32, path: CodingPathNode)] = []
        for entry in top {
            let path = CodingPathNode.root.appending(ArchiveCodingKey(stringValue: entry.key))
            if forbidden(entry.key) { return (entry.key, nil, true, path) }
            queue.append((entry.uid, top.count == 1 && entry.key == "root" ? .root : path))
        }
        var visited: Set<Int32> = [0]
        var next = 0
        while next < queue.count {
            let (uid, path) = queue[next]
            next += 1
            guard uid >= 0, Int(uid) < count, visited.insert(uid).inserted else { continue }
            switch entry(uid) {
            case .string(let text) where forbidden(text): return (text, uid, false, path)
            case .classEntry(let name, let classes) where forbidden(name) || classes.contains(where: forbidden):
                return (forbidden(name) ? name : classes.first(where: forbidden) ?? name, uid, false, path)
            case .object(let box):
                queue.append((box.classUID, path))
                switch box.kind {
                case .fields:
                    for field in box.fields {
                        let key = keys[Int(field.key)]
                        if forbidden(key) { return (key, nil, true, path.appending(ArchiveCodingKey(stringValue: key))) }
                        if case .uid(let child) = field.value { queue.append((child, path.appending(ArchiveCodingKey(stringValue: key)))) }
                    }
                case .array:
                    for (index, child) in box.elements.enumerated() { queue.append((child, path.appending(index: index))) }
                case .dictionary:
                    for (keyUID, child) in zip(box.keys, box.elements) {
                        let key: any CodingKey
                        if Int(keyUID) < count, case .string(let text) = entry(keyUID) {
                            if forbidden(text) { return (text, keyUID, true, path) }
                            key = ArchiveCodingKey(stringValue: text)
                        } else {
                            key = ArchiveCodingKey(stringValue: "key \(keyUID)")
                        }
                        queue.append((child, path.appending(key)))
                    }
                }
            default: break
            }
        }
        return ("", nil, false, .root)
    }
}
