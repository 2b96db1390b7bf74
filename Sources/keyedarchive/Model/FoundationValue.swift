import Foundation
import KeyedArchive

/// What an object of one of Foundation's own classes stands for, read from its fields.
///
/// `json` and `dump` show these as the value itself (an array, a string, a date) instead
/// of as an object with `NS.*` fields. ``interpret(_:in:)`` returns `nil` for any other
/// class, and for a Foundation object whose fields do not have the expected shape, so
/// that callers fall back to showing the fields as they are.
enum FoundationValue {
    /// NSArray, NSMutableArray, NSSet, NSMutableSet, NSOrderedSet, NSMutableOrderedSet.
    case collection([ArchivedValue])
    /// NSDictionary, NSMutableDictionary: keys and values pairwise.
    case dictionary(keys: [ArchivedValue], values: [ArchivedValue])
    /// NSString, NSMutableString stored as `{NS.string}` or `{NS.bytes}`.
    case string(String)
    /// NSData, NSMutableData stored as `{NS.data}` or `{NS.bytes}`.
    case data(Data)
    /// NSDate: seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    /// NSURL, with `NS.base` resolved.
    case url(String)
    /// NSUUID, in Foundation's upper-case form.
    case uuid(String)
    /// NSDecimalNumber as JSON number text, or `nil` for NaN.
    case decimal(String?)
    /// NSNull.
    case null

    static let arrayClasses: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet"]
    static let orderedSetClasses: Set<String> = ["NSOrderedSet", "NSMutableOrderedSet"]
    static let dictionaryClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]

    static func interpret(_ object: ArchivedObject, in view: KeyedArchiveView) -> FoundationValue? {
        guard let name = object.className else { return nil }
        switch name {
        case _ where arrayClasses.contains(name):
            guard case .array(let items)? = object["NS.objects"] else { return nil }
            return .collection(items)
        case _ where orderedSetClasses.contains(name):
            return orderedSet(object)
        case _ where dictionaryClasses.contains(name):
            guard case .array(let keys)? = object["NS.keys"], case .array(let values)? = object["NS.objects"],
                  keys.count == values.count
            else { return nil }
            return .dictionary(keys: keys, values: values)
        case "NSString", "NSMutableString":
            if case .string(let text)? = plain(object["NS.string"], in: view) { return .string(text) }
            if case .data(let bytes)? = plain(object["NS.bytes"], in: view), let text = String(data: bytes, encoding: .utf8) {
                return .string(text)
            }
            return nil
        case "NSData", "NSMutableData":
            if case .data(let bytes)? = plain(object["NS.data"], in: view) { return .data(bytes) }
            if case .data(let bytes)? = plain(object["NS.bytes"], in: view) { return .data(bytes) }
            return nil
        case "NSDate":
            return number(object["NS.time"], in: view).map { .date($0) }
        case "NSURL":
            return url(object, in: view, depth: 0).map { .url($0) }
        case "NSUUID":
            guard let bytes = data(object["NS.uuidbytes"], in: view), bytes.count == 16 else { return nil }
            return .uuid(uuidString(bytes))
        case "NSDecimalNumber":
            switch DecimalText.value(of: object) {
            case .number(let text)?: return .decimal(text)
            case .notANumber?: return .decimal(nil)
            case nil: return nil
            }
        case "NSNull":
            return .null
        default:
            return nil
        }
    }

    /// `NS.object.0`, `NS.object.1`, … in numeric order; `nil` unless they run 0..<n.
    private static func orderedSet(_ object: ArchivedObject) -> FoundationValue? {
        var items: [Int: ArchivedValue] = [:]
        for field in object.fields {
            guard field.key.hasPrefix("NS.object."), let position = Int(field.key.dropFirst(10)) else { continue }
            items[position] = field.value
        }
        var result: [ArchivedValue] = []
        for position in 0..<items.count {
            guard let item = items[position] else { return nil }
            result.append(item)
        }
        return .collection(result)
    }

    /// A plain value stored inline or behind a UID.
    static func plain(_ value: ArchivedValue?, in view: KeyedArchiveView) -> ArchivedValue? {
        guard let value else { return nil }
        if case .reference(let index) = value {
            guard index < view.objects.count else { return nil }
            return view.objects[index].plainValue
        }
        return value
    }

    /// A string: plain, or (behind a UID) an NSString object.
    static func string(_ value: ArchivedValue?, in view: KeyedArchiveView) -> String? {
        if case .string(let text)? = plain(value, in: view) { return text }
        if case .reference(let index)? = value, index < view.objects.count,
           case .string(let text)? = shallow(view.objects[index], in: view) {
            return text
        }
        return nil
    }

    /// Only the string and data interpretations, which read plain values and never
    /// follow another object (so an `NS.string` pointing back at its own object ends).
    private static func shallow(_ object: ArchivedObject, in view: KeyedArchiveView) -> FoundationValue? {
        switch object.className {
        case "NSString", "NSMutableString", "NSData", "NSMutableData": return interpret(object, in: view)
        default: return nil
        }
    }

    static func data(_ value: ArchivedValue?, in view: KeyedArchiveView) -> Data? {
        if case .data(let bytes)? = plain(value, in: view) { return bytes }
        if case .reference(let index)? = value, index < view.objects.count,
           case .data(let bytes)? = shallow(view.objects[index], in: view) {
            return bytes
        }
        return nil
    }

    static func number(_ value: ArchivedValue?, in view: KeyedArchiveView) -> Double? {
        switch plain(value, in: view) {
        case .real(let number)?: return number
        case .integer(let number)?: return Double(number)
        case .unsignedInteger(let number)?: return Double(number)
        default: return nil
        }
    }

    /// The absolute string of an NSURL: `NS.relative` resolved against `NS.base` (itself
    /// an NSURL, or UID 0 for none). A chain of bases longer than 32 is refused, which also
    /// stops a base that refers back to itself.
    private static func url(_ object: ArchivedObject, in view: KeyedArchiveView, depth: Int) -> String? {
        guard depth < 32, let relative = string(object["NS.relative"], in: view) else { return nil }
        switch object["NS.base"] {
        case nil, .null?:
            return relative
        case .reference(let index)?:
            guard index < view.objects.count, view.objects[index].className == "NSURL",
                  let base = url(view.objects[index], in: view, depth: depth + 1),
                  let baseURL = URL(string: base),
                  let resolved = URL(string: relative, relativeTo: baseURL)
            else { return nil }
            return resolved.absoluteString
        default:
            return nil
        }
    }

    /// `8-4-4-4-12` upper-case hex, as `NSUUID.uuidString` writes it.
    static func uuidString(_ bytes: Data) -> String {
        let hex = bytes.map { String(format: "%02X", $0) }
        let groups = [0..<4, 4..<6, 6..<8, 8..<10, 10..<16]
        return groups.map { hex[$0].joined() }.joined(separator: "-")
    }
}
