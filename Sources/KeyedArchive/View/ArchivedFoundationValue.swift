import Foundation

/// What an object of one of Foundation's own classes stands for, read from its fields:
/// the one interpretation of Foundation objects that ``KeyedArchiveView/render(options:)``,
/// the command-line tool and your own untyped code share.
///
/// ```swift
/// let view = try KeyedArchiveView(data: data)
/// for object in view.objects {
///     if case .date(let date)? = view.foundationValue(of: object) { print(date) }
/// }
/// ```
public enum ArchivedFoundationValue: Sendable, Hashable {
    /// NSString, NSMutableString (`NS.string`, or UTF-8 `NS.bytes`).
    case string(String)
    /// NSData, NSMutableData (`NS.data` or `NS.bytes`).
    case data(Data)
    /// NSDate (`NS.time`, seconds since 2001-01-01 00:00:00 UTC).
    case date(Date)
    /// NSURL: `NS.relative` resolved against its chain of `NS.base` URLs.
    case url(URL)
    /// NSUUID (16 `NS.uuidbytes`).
    case uuid(UUID)
    /// NSDecimalNumber, exactly as archived.
    case decimal(ArchivedDecimal)
    /// NSNull.
    case null
    /// NSArray, NSMutableArray: the elements (`NS.objects`).
    case array([ArchivedValue])
    /// NSSet, NSMutableSet: the elements in archive order.
    case set([ArchivedValue])
    /// NSOrderedSet, NSMutableOrderedSet: the elements in order (`NS.object.0`, …).
    case orderedSet([ArchivedValue])
    /// NSDictionary, NSMutableDictionary: keys and values pairwise (`NS.keys`, `NS.objects`;
    /// `NS.key.0`/`NS.object.0`, …; or Core Data's NSKnownKeysDictionary1, whose keys are in
    /// its `searchMapping` object).
    case dictionary(keys: [ArchivedValue], values: [ArchivedValue])

    /// The elements of an array, set or ordered set; `nil` for other values.
    public var elements: [ArchivedValue]? {
        switch self {
        case .array(let items), .set(let items), .orderedSet(let items): return items
        default: return nil
        }
    }
}

/// An NSDecimalNumber as archived: mantissa, exponent and sign, kept exactly (its digits
/// can be printed without rounding through ``description``).
///
/// ```swift
/// if case .decimal(let number)? = view.foundationValue(of: object) {
///     print(number.description, number.decimal)   // "-12.5" -12.5
/// }
/// ```
public struct ArchivedDecimal: Sendable, Hashable, CustomStringConvertible {
    let layout: DecimalLayout

    /// The power of ten.
    public var exponent: Int { layout.exponent }
    /// Whether the number is negative (or NaN, with no mantissa).
    public var isNegative: Bool { layout.isNegative }
    /// The significant 16-bit words of the mantissa, least significant first.
    public var mantissa: [UInt16] { Array(layout.words.prefix(layout.length)) }
    /// Whether this is NaN.
    public var isNaN: Bool { layout.isNaN }
    /// The value as a `Decimal`.
    public var decimal: Decimal { layout.decimal }
    /// The exact digits: `-12.5`, `1.5e45`, `NaN`.
    public var description: String { layout.exactText }
}

extension KeyedArchiveView {
    /// The Foundation value an object stands for, when its class (or the first Foundation
    /// class in its `$classes` chain) is one of Foundation's value or collection classes
    /// and its fields have that class's layout; `nil` otherwise (the object is then best
    /// shown by its fields). A collection is never read as empty when it has fields of a
    /// layout not known here: it is `nil` then.
    ///
    /// Reading never follows a reference into another object's fields, except along an
    /// NSURL's `NS.base` chain, which is bounded by the view's `maxDepth` and stops at a
    /// cycle, and to the `searchMapping` and arrays of an NSKnownKeysDictionary1, one
    /// reference away; so it costs time proportional to the fields it reads.
    ///
    /// ```swift
    /// if case .string(let text)? = view.foundationValue(of: view.objects[3]) { print(text) }
    /// ```
    public func foundationValue(of object: ArchivedObject) -> ArchivedFoundationValue? {
        guard let kind = FoundationClassKind.kind(ofClasses: object.classes), object.className != nil else { return nil }
        switch kind {
        case .array:
            return listElements(object, kind: kind).map { .array($0) }
        case .set:
            return listElements(object, kind: kind).map { .set($0) }
        case .orderedSet:
            return numbered(object, prefix: "NS.object.", kind: kind).map { .orderedSet($0) }
        case .dictionary:
            if case .array(let keys)? = object["NS.keys"], case .array(let values)? = object["NS.objects"] {
                return keys.count == values.count ? .dictionary(keys: keys, values: values) : nil
            }
            if let entries = knownKeysEntries(object) { return .dictionary(keys: entries.keys, values: entries.values) }
            // The layout NSDictionary writes for an archiver other than NSKeyedArchiver itself
            // (SceneKit's SCNKeyedArchiver): `NS.key.0`/`NS.object.0`, `NS.key.1`/…
            guard object["NS.objects"] == nil, let keys = numbered(object, prefix: "NS.key.", kind: kind),
                  let values = numbered(object, prefix: "NS.object.", kind: kind), keys.count == values.count else { return nil }
            return .dictionary(keys: keys, values: values)
        case .string:
            return shallowString(object).map { .string($0) }
        case .data:
            return shallowData(object).map { .data($0) }
        case .date:
            return number(object["NS.time"]).flatMap(Date.init(finiteSecondsSinceReferenceDate:)).map { .date($0) }
        case .url:
            return url(object).map { .url($0) }
        case .uuid:
            guard let bytes = data(object["NS.uuidbytes"]), bytes.count == 16 else { return nil }
            let b = [UInt8](bytes)
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                                     b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case .decimal:
            return decimal(object).map { .decimal(ArchivedDecimal(layout: $0)) }
        case .null:
            return .null
        }
    }

    /// The fields of a Foundation object that its class's layout does not read: those a
    /// subclass adds (NSCalendarDate's `NS.timezone` and `NS.format`, the `pytype` of
    /// PyObjC's dictionaries), which untyped readers show beside the value. Empty when
    /// ``foundationValue(of:)`` is `nil` (every field of such an object is its own).
    ///
    /// ```swift
    /// let date = view.objects[12]                      // an NSCalendarDate
    /// view.foundationValue(of: date)                   // .date(…)
    /// view.addedFields(of: date).map(\.key)            // ["NS.timezone", "NS.format"]
    /// ```
    public func addedFields(of object: ArchivedObject) -> [ArchivedField] {
        addedFields(of: object, interpreted: foundationValue(of: object))
    }

    /// ``addedFields(of:)`` for a reader that has `object`'s ``foundationValue(of:)``
    /// already (`interpreted`), so that the object is not interpreted twice.
    package func addedFields(of object: ArchivedObject, interpreted: ArchivedFoundationValue?) -> [ArchivedField] {
        guard interpreted != nil, let kind = FoundationClassKind.kind(ofClasses: object.classes) else { return [] }
        let knownKeys = kind == .dictionary && isKnownKeysDictionary(object)
        return object.fields.filter { !kind.layoutUses($0.key) && !(knownKeys && Self.knownKeysFields.contains($0.key)) }
    }

    /// The plain value stored inline or behind a UID (not another object's fields).
    ///
    /// ```swift
    /// if case .string(let name)? = view.plainValue(object["name"]) { print(name) }
    /// ```
    public func plainValue(_ value: ArchivedValue?) -> ArchivedValue? {
        guard let value else { return nil }
        if case .reference(let index) = value {
            guard index < objects.count else { return nil }
            return objects[index].plainValue
        }
        return value
    }

    /// An NSArray's or NSSet's elements: `NS.objects`, or `NS.object.0`, `NS.object.1`, …
    /// as NSArray writes them for an archiver other than NSKeyedArchiver itself.
    private func listElements(_ object: ArchivedObject, kind: FoundationClassKind) -> [ArchivedValue]? {
        if let list = object["NS.objects"] {
            guard case .array(let items) = list else { return nil }
            return items
        }
        return numbered(object, prefix: "NS.object.", kind: kind)
    }

    /// `PREFIX0`, `PREFIX1`, … in numeric order; `nil` unless they run 0..<n, and `nil`
    /// rather than empty when the object (a collection of `kind`) has none but has fields
    /// its kind's layouts do not use (a layout not known here).
    private func numbered(_ object: ArchivedObject, prefix: String, kind: FoundationClassKind) -> [ArchivedValue]? {
        var items: [Int: ArchivedValue] = [:]
        let length = prefix.count
        for field in object.fields {
            guard field.key.hasPrefix(prefix), let position = Int(field.key.dropFirst(length)) else { continue }
            items[position] = field.value
        }
        if items.isEmpty, object.fields.contains(where: { !kind.layoutUses($0.key) }) { return nil }
        var result: [ArchivedValue] = []
        result.reserveCapacity(items.count)
        for position in 0..<items.count {
            guard let item = items[position] else { return nil }
            result.append(item)
        }
        return result
    }

    /// An NSString's text from plain values only (never another object).
    private func shallowString(_ object: ArchivedObject) -> String? {
        if case .string(let text)? = plainValue(object["NS.string"]) { return text }
        if case .data(let bytes)? = plainValue(object["NS.bytes"]) { return String(data: bytes, encoding: .utf8) }
        return nil
    }

    /// An NSData's bytes from plain values only (never another object).
    private func shallowData(_ object: ArchivedObject) -> Data? {
        if case .data(let bytes)? = plainValue(object["NS.data"]) { return bytes }
        if case .data(let bytes)? = plainValue(object["NS.bytes"]) { return bytes }
        return nil
    }

    /// The object a field refers to when it is of Foundation kind `kind`.
    private func referenced(_ value: ArchivedValue?, kind: FoundationClassKind) -> ArchivedObject? {
        guard case .reference(let index)? = value, index < objects.count else { return nil }
        let object = objects[index]
        return FoundationClassKind.kind(ofClasses: object.classes) == kind && object.className != nil ? object : nil
    }

    /// A string: plain, or an NSString object behind a UID.
    private func string(_ value: ArchivedValue?) -> String? {
        if case .string(let text)? = plainValue(value) { return text }
        return referenced(value, kind: .string).flatMap(shallowString)
    }

    /// Bytes: plain, or an NSData object behind a UID.
    private func data(_ value: ArchivedValue?) -> Data? {
        if case .data(let bytes)? = plainValue(value) { return bytes }
        return referenced(value, kind: .data).flatMap(shallowData)
    }

    private func number(_ value: ArchivedValue?) -> Double? {
        switch plainValue(value) {
        case .real(let number)?: return number
        case .integer(let number)?: return Double(number)
        case .unsignedInteger(let number)?: return Double(number)
        default: return nil
        }
    }

    private func integer(_ value: ArchivedValue?) -> Int64? {
        switch plainValue(value) {
        case .integer(let number)?: return number
        case .unsignedInteger(let number)?: return Int64(exactly: number)
        case .bool(let flag)?: return flag ? 1 : 0
        default: return nil
        }
    }

    private func decimal(_ object: ArchivedObject) -> DecimalLayout? {
        guard let mantissa = data(object["NS.mantissa"]) else { return nil }
        var isNegative = false
        if case .bool(let flag)? = plainValue(object["NS.negative"]) { isNegative = flag }
        return DecimalLayout(mantissa: [UInt8](mantissa), length: integer(object["NS.length"]) ?? -1,
                             exponent: integer(object["NS.exponent"]) ?? 0, isNegative: isNegative,
                             byteOrder: integer(object["NS.mantissa.bo"]))
    }

    /// An NSURL: `NS.relative` resolved against its `NS.base` chain (UID 0 or absent ends
    /// it). The chain is walked without recursion; one longer than the view's `maxDepth`,
    /// or one that comes back to a URL already in it, gives `nil`.
    private func url(_ object: ArchivedObject) -> URL? {
        var chain: [String] = []
        var seen: Set<Int> = [object.index]
        var current = object
        while true {
            guard chain.count < limits.maxDepth, let relative = string(current["NS.relative"]) else { return nil }
            chain.append(relative)
            switch current["NS.base"] {
            case nil, .null?:
                break
            case .reference(let index)?:
                guard let base = referenced(.reference(index), kind: .url), seen.insert(index).inserted else { return nil }
                current = base
                continue
            default:
                return nil
            }
            break
        }
        var resolved: URL?
        for relative in chain.reversed() {
            guard let next = URL(string: relative, relativeTo: resolved.flatMap { URL(string: $0.absoluteString) }) else { return nil }
            resolved = next
        }
        return resolved
    }
}
