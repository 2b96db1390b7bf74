import KeyedArchive

/// What Foundation's own classes need in their fields, checked the way
/// `NSKeyedUnarchiver` would need them to decode.
extension ArchiveChecker {
    mutating func checkFoundationFields(_ object: PropertyListValue, of index: Int, className: String) {
        switch FoundationClassKind.kind(ofClasses: [className]) {
        case .array?, .set?:
            // NS.objects, or (written through an NSKeyedArchiver subclass) NS.object.0, …
            if object["NS.objects"] != nil { requireUIDArray(object, "NS.objects", of: index) } else { requireNumberedUIDs(object, of: index) }
        case .orderedSet?:
            requireNumberedUIDs(object, of: index)
        case .dictionary?:
            guard object["NS.keys"] != nil || object["NS.objects"] != nil else {
                // NS.key.0/NS.object.0, … (written through an NSKeyedArchiver subclass).
                let keys = requireNumberedUIDs(object, prefix: "NS.key.", of: index)
                let values = requireNumberedUIDs(object, of: index)
                if keys != values { report(.error, object: index, "NS.key.\(min(keys, values))", "holds \(keys) numbered keys but \(values) numbered values") }
                return
            }
            let keys = requireUIDArray(object, "NS.keys", of: index)
            let values = requireUIDArray(object, "NS.objects", of: index)
            if let keys, let values, keys != values {
                report(.error, object: index, "NS.keys", "holds \(keys) key\(keys == 1 ? "" : "s") but NS.objects holds \(values) value\(values == 1 ? "" : "s")")
            }
        case .date?:
            switch object["NS.time"] {
            case .real?, .float?, .integer?: break
            case nil: report(.error, object: index, "NS.time", "missing")
            case let value?: report(.error, object: index, "NS.time", "is a \(Self.kind(value)), expected a number")
            }
        case .uuid?:
            switch object["NS.uuidbytes"] {
            case .data(let bytes)? where bytes.count == 16: break
            case .data(let bytes)?: report(.error, object: index, "NS.uuidbytes", "holds \(bytes.count) bytes, expected 16")
            case nil: report(.error, object: index, "NS.uuidbytes", "missing")
            case let value?: report(.error, object: index, "NS.uuidbytes", "is a \(Self.kind(value)), expected 16 bytes of data")
            }
        case .string?:
            requireValue(object, keys: ["NS.string", "NS.bytes"], of: index, description: "a string") {
                if case .string = $0 { return true }
                if case .data = $0 { return true }
                return false
            }
        case .data?:
            requireValue(object, keys: ["NS.data", "NS.bytes"], of: index, description: "data") {
                if case .data = $0 { return true }
                return false
            }
        case .url?:
            checkURL(object, of: index)
        default:
            break
        }
    }

    /// Every field `PREFIXn` must be a UID; returns how many there are.
    @discardableResult
    private mutating func requireNumberedUIDs(_ object: PropertyListValue, prefix: String = "NS.object.", of index: Int) -> Int {
        guard case .dictionary(let entries) = object else { return 0 }
        var count = 0
        for entry in entries where entry.key.hasPrefix(prefix) {
            count += 1
            if case .uid = entry.value { continue }
            report(.error, object: index, entry.key, "is a \(Self.kind(entry.value)), expected a UID")
        }
        return count
    }

    /// `key` must be an array of UIDs; returns its count when it is.
    @discardableResult
    private mutating func requireUIDArray(_ object: PropertyListValue, _ key: String, of index: Int) -> Int? {
        guard let value = object[key] else {
            report(.error, object: index, key, "missing")
            return nil
        }
        guard case .array(let items) = value else {
            report(.error, object: index, key, "is a \(Self.kind(value)), expected an array of UIDs")
            return nil
        }
        var sound = true
        for (position, item) in items.enumerated() {
            guard case .uid = item else {
                report(.error, object: index, "\(key)[\(position)]", "is a \(Self.kind(item)), expected a UID")
                sound = false
                continue
            }
        }
        return sound ? items.count : nil
    }

    /// One of `keys` must hold a value that `accepts` (inline, or behind a UID).
    private mutating func requireValue(
        _ object: PropertyListValue, keys: [String], of index: Int, description: String,
        accepts: (PropertyListValue) -> Bool
    ) {
        guard let key = keys.first(where: { object[$0] != nil }), let value = object[key] else {
            return report(.error, object: index, keys[0], "missing")
        }
        if accepts(resolved(value)) { return }
        report(.error, object: index, key, "is \(Self.describe(resolved(value))), expected \(description)")
    }

    /// NSURL: `NS.relative` a string (by UID), `NS.base` UID 0 or an NSURL.
    private mutating func checkURL(_ object: PropertyListValue, of index: Int) {
        switch object["NS.relative"] {
        case nil:
            report(.error, object: index, "NS.relative", "missing")
        case let value?:
            let target = resolved(value)
            if case .string = target { break }
            if case .uid(let uid) = value, uid > 0, uid < UInt64(objects.count),
               FoundationClassKind.kind(ofClasses: [className(ofObject: Int(uid)) ?? ""]) == .string { break }
            report(.error, object: index, "NS.relative", "is \(Self.describe(target)), expected a string")
        }
        if case .uid(let uid)? = object["NS.base"], uid > 0, uid < UInt64(objects.count) {
            let name = className(ofObject: Int(uid))
            if name != "NSURL" {
                report(.error, object: index, "NS.base", "points at object #\(uid)\(name.map { " (\($0))" } ?? ""), expected an NSURL")
            }
        }
    }

    /// The value a UID points at (plain values only), or the value itself.
    private func resolved(_ value: PropertyListValue) -> PropertyListValue {
        guard case .uid(let uid) = value, uid < UInt64(objects.count) else { return value }
        return objects[Int(uid)]
    }
}
