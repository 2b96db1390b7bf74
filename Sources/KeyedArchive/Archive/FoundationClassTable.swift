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
    package static let byClassName: [String: FoundationClassKind] = [
        "NSString": .string, "NSMutableString": .string,
        "NSData": .data, "NSMutableData": .data,
        "NSDate": .date, "NSURL": .url, "NSUUID": .uuid, "NSNull": .null,
        "NSDecimalNumber": .decimal, "NSDecimalNumberPlaceholder": .decimal,
        "NSArray": .array, "NSMutableArray": .array,
        "NSSet": .set, "NSMutableSet": .set,
        "NSOrderedSet": .orderedSet, "NSMutableOrderedSet": .orderedSet,
        "NSDictionary": .dictionary, "NSMutableDictionary": .dictionary,
    ]

    /// The kind of an object whose `$classes` chain (most specific first) is `classes`:
    /// the first Foundation class in the chain, so that a subclass of NSArray reads as an
    /// array, as `NSKeyedUnarchiver` would instantiate it.
    package static func kind(ofClasses classes: [String]) -> FoundationClassKind? {
        for name in classes {
            if let kind = byClassName[name] { return kind }
        }
        return nil
    }
}
