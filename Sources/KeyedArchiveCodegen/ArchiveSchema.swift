import KeyedArchive

/// What `keyedarchive swift` knows about an archive: the type of each top-level value and
/// the fields of every archived class reachable from `$top`.
package struct ArchiveSchema {
    /// The `$top` entries, in file order, with the keys as stored.
    var top: [(key: String, type: InferredType)]
    /// The archived classes that become generated types, by `$classname`.
    var classes: [String: ClassSchema]
    /// The archive, for what the types alone cannot tell (which back edges may be `weak`).
    let view: KeyedArchiveView
    /// The objects that become instances of generated classes, by index.
    let generatedObjects: Set<Int>
    /// The Foundation collections that contain themselves (instances of list classes), by index.
    let listObjects: Set<Int>

    /// The `$top` entry the generated `Root` decodes: `root`, or the only entry; nil when
    /// `Root` is a struct of every entry.
    var rootEntry: (key: String, type: InferredType)? {
        top.first(where: { $0.key == "root" }) ?? (top.count == 1 ? top.first : nil)
    }
}

/// The fields seen over every instance of one archived class.
package struct ClassSchema {
    /// `$classname`.
    let name: String
    /// `$classes`, most specific first.
    var chain: [String]
    var instanceCount = 0
    /// Each key seen, with the merged type of its values and how many instances hold a
    /// non-nil value under it.
    var fields: [String: Field] = [:]
    /// Whether an instance is reached from two places or from itself: the type must be a
    /// class, so that the decoded graph keeps one object per archived object.
    var needsIdentity = false
    /// Whether an instance is reached again while its own fields are being read: the type
    /// and every type on a cycle with it must decode in two phases (`ArchiveReferenceCodable`).
    var closesCycle = false
    /// A Foundation collection (`NSArray`, `NSSet`…) that contains itself: a two-phase
    /// class over its elements, whose merged type is the field ``listItemsKey``. (A hostile
    /// archive may also name a class of its own like this; its objects then fail to decode.)
    var isList = false
    static let listItemsKey = "items"

    struct Field {
        /// The merged type of the values, set once every instance is seen.
        var type: InferredType
        var presentCount: Int
        /// Gathers the values' types while the archive is walked.
        let merger: TypeMerger

        /// One instance's value has `type`.
        mutating func record(_ type: InferredType) {
            merger.add(type)
            if !type.isOptional { presentCount += 1 }
        }
    }

    /// The type of a property: optional when some instance lacks the key or holds nil.
    func propertyType(_ key: String) -> InferredType {
        guard let field = fields[key] else { return .optional(.unknown) }
        if field.presentCount < instanceCount, !field.type.isOptional { return .optional(field.type) }
        return field.type
    }
}

/// Why `keyedarchive swift` refuses an archive (too deep, too many kinds of value at one place…).
package struct CodegenError: Error {
    package let message: String

    init(_ message: String) { self.message = message }
}
