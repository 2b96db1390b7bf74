/// Foundation's value and collection classes, by archived class name: the one table the
/// typed decoder (`decodeObject`), ``KeyedArchiveView/foundationValue(of:)`` and the
/// command-line tool use to recognise them.
///
/// ```swift
/// FoundationClassKind.kind(ofClasses: ["NSMutableArray", "NSArray", "NSObject"])   // .array
/// ```
package enum FoundationClassKind: Sendable, Hashable {
    /// NSString, NSMutableString.
    case string
    /// NSData, NSMutableData.
    case data
    /// NSDate.
    case date
    /// NSURL.
    case url
    /// NSUUID.
    case uuid
    /// NSNull.
    case null
    /// NSDecimalNumber.
    case decimal
    /// NSArray, NSMutableArray.
    case array
    /// NSSet, NSMutableSet.
    case set
    /// NSOrderedSet, NSMutableOrderedSet.
    case orderedSet
    /// NSDictionary, NSMutableDictionary.
    case dictionary

    /// Every Foundation class the package reads as a value or collection, by archived name.
    private static let byClassName: [String: FoundationClassKind] = [
        "NSString": .string, "NSMutableString": .string,
        "NSData": .data, "NSMutableData": .data,
        "NSDate": .date, "NSURL": .url, "NSUUID": .uuid, "NSNull": .null,
        "NSDecimalNumber": .decimal, "NSDecimalNumberPlaceholder": .decimal,
        "NSArray": .array, "NSMutableArray": .array,
        "NSSet": .set, "NSMutableSet": .set,
        "NSOrderedSet": .orderedSet, "NSMutableOrderedSet": .orderedSet,
        "NSDictionary": .dictionary, "NSMutableDictionary": .dictionary,
    ]

    /// Whether `key` is one of the fields this kind's archived layout reads (`NS.time` of
    /// an NSDate, `NS.keys` and `NS.objects` of an NSDictionary…). A subclass's own fields
    /// (NSCalendarDate's `NS.timezone` and `NS.format`) are not.
    ///
    /// ```swift
    /// FoundationClassKind.date.layoutUses("NS.time")       // true
    /// FoundationClassKind.date.layoutUses("NS.timezone")   // false
    /// ```
    package func layoutUses(_ key: String) -> Bool {
        switch self {
        case .string: return key == "NS.string" || key == "NS.bytes"
        case .data: return key == "NS.data" || key == "NS.bytes"
        case .date: return key == "NS.time"
        case .url: return key == "NS.base" || key == "NS.relative"
        case .uuid: return key == "NS.uuidbytes"
        case .null: return false
        case .decimal: return key.hasPrefix("NS.mantissa") || ["NS.exponent", "NS.length", "NS.negative", "NS.compact"].contains(key)
        // Lists and dictionaries also have numbered layouts (`NS.object.0`, `NS.key.0`).
        case .array, .set, .orderedSet: return key == "NS.objects" || key.hasPrefix("NS.object.")
        case .dictionary: return key == "NS.keys" || key == "NS.objects" || key.hasPrefix("NS.key.") || key.hasPrefix("NS.object.")
        }
    }

    /// The kind of an object whose `$classes` chain (most specific first) is `classes`:
    /// the first Foundation class in the chain, so that a subclass of NSArray reads as an
    /// array, as `NSKeyedUnarchiver` would instantiate it.
    package static func kind(ofClasses classes: [String]) -> FoundationClassKind? {
        for name in classes {
            if let kind = kind(ofClassNamed: name) { return kind }
        }
        return nil
    }

    /// The kind of the class named `name` itself (not of its superclasses).
    ///
    /// ```swift
    /// FoundationClassKind.kind(ofClassNamed: "NSMutableArray")   // .array
    /// ```
    package static func kind(ofClassNamed name: String) -> FoundationClassKind? {
        name.utf8.count <= longestClassName ? byClassName[name] : nil
    }

    /// The longest name in ``byClassName``, in UTF-8 bytes. A longer name is no Foundation
    /// class, and is not hashed: a hostile archive can give thousands of objects one class
    /// name of half its size, and hashing it for each object would cost their product.
    private static let longestClassName = byClassName.keys.map(\.utf8.count).max() ?? 0
}
