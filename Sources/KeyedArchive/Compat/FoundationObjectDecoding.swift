import Foundation

/// Reading Foundation objects (what `NSCoder.decodeObject(forKey:)` returns) from the
/// object table: Swift values for Foundation value classes, instances for allowed
/// `NSCoding` and ``ArchiveCoding`` classes.
extension _ArchiveDecoder {
    /// Foundation value classes, by archived name, in the form returned: the library's one table.
    private typealias FoundationClass = FoundationClassKind

    /// The mutable variants, for allow-lists that name them (`NSMutableArray.self`).
    private static let mutableClasses: [String: NSObject.Type] = [
        "NSMutableString": NSMutableString.self, "NSMutableData": NSMutableData.self,
        "NSMutableArray": NSMutableArray.self, "NSMutableSet": NSMutableSet.self,
        "NSMutableOrderedSet": NSMutableOrderedSet.self, "NSMutableDictionary": NSMutableDictionary.self,
    ]

    /// Decodes the object at `slot` the way `NSKeyedUnarchiver.decodeObject` would.
    ///
    /// - Parameter allowed: the classes this call names (`decodeObject(of:forKey:)`, an
    ///   `@NSCodingObject` property's type), or nil for a call that names none, which the
    ///   decoder's `allowedClasses` and registrations govern. A call that names classes gets
    ///   only those (see ``ArchiveClassRegistry/resolve(_:for:)``), and so do the elements of
    ///   a collection it reads. Nothing is instantiated, and no shared instance returned,
    ///   before that check.
    func decodeFoundationObject(_ slot: ArchiveSlot, allowed: [AnyClass]?, at path: CodingPathNode) throws -> Any? {
        if isNil(slot) { return nil }
        let object = try self.object(in: slot, expecting: Any.self, at: path)
        switch object {
        case .bool(let b): return try permitted(NSNumber.self, NSNumber(value: b), allowed, slot, path)
        case .integer(let i): return try permitted(NSNumber.self, NSNumber(value: i), allowed, slot, path)
        case .unsignedInteger(let u): return try permitted(NSNumber.self, NSNumber(value: u), allowed, slot, path)
        case .wideInteger:
            // NSNumber holds 64 bits; CoreFoundation itself keeps only the low 64 of such a number.
            throw corrupted(at: path, slot: slot, "the \(describe(object)) does not fit in an NSNumber (64 bits)")
        case .real(let d): return try permitted(NSNumber.self, NSNumber(value: d), allowed, slot, path)
        case .float(let f): return try permitted(NSNumber.self, NSNumber(value: f), allowed, slot, path)
        case .asciiString, .utf16String: return try permitted(NSString.self, try unboxString(from: slot, at: path), allowed, slot, path)
        case .data: return try permitted(NSData.self, try unboxData(from: slot, at: path), allowed, slot, path)
        case .date(let seconds):
            return try permitted(NSDate.self, try finiteDate(sinceReferenceDate: seconds, slot: slot, at: path), allowed, slot, path)
        case .uid, .array:
            throw typeMismatch(NSObject.self, found: object, slot: slot, at: path)
        case .dictionary:
            guard case .uid(let uid) = slot else { throw typeMismatch(NSObject.self, found: object, slot: slot, at: path) }
            let info = try archivedClass(of: slot, at: path)  // read once per class entry, keys indexed
            guard let info else {
                throw corrupted(at: path, slot: slot, "object \(uid) has no $class, so it is not an archived object")
            }
            // The class name itself counts, whatever `$classes` lists.
            if let (name, known) = ([info.name] + info.classes).lazy.compactMap({ name in FoundationClassKind.kind(ofClassNamed: name).map { (name, $0) } }).first {
                // The archived class (NSMutableArray) is checked where it is known; else the layout's.
                let archivedClass = Self.mutableClasses[name] ?? known.objectClass
                guard ArchiveClassRegistry.permits(archivedClass, for: allowed) else {
                    throw notAllowed(info.name, allowed, uid: uid, path: path)
                }
                return try decodeFoundationValue(known, slot: slot, uid: uid, allowed: allowed, path: path)
            }
            return try instantiate(className: info.name, uid: uid, allowed: allowed, path: path)
        }
    }

    /// `value` if the call permits `foundationClass`; otherwise a thrown error.
    private func permitted(_ foundationClass: NSObject.Type, _ value: @autoclosure () throws -> Any, _ allowed: [AnyClass]?,
                           _ slot: ArchiveSlot, _ path: CodingPathNode) throws -> Any {
        guard ArchiveClassRegistry.permits(foundationClass, for: allowed) else {
            throw notAllowed("\(foundationClass)", allowed, uid: slot.objectIndex, path: path)
        }
        return try value()
    }

    @inline(never)
    private func notAllowed(_ className: String, _ allowed: [AnyClass]?, uid: Int, path: CodingPathNode) -> DecodingError {
        let advice = allowed == nil
            ? "register it with ArchiveDecoder.setClass(_:forClassName:) or list it in allowedClasses"
            : "this read allows only \(ArchiveClassRegistry.describe(allowed)); the decoder's allowedClasses and registrations do not widen a read that names its classes"
        return corrupted(at: path, slot: .uid(uid), "class '\(className)' is not allowed: \(advice)")
    }

    private func decodeFoundationValue(_ kind: FoundationClass, slot: ArchiveSlot, uid: Int, allowed: [AnyClass]?, path: CodingPathNode) throws -> Any {
        switch kind {
        case .string: return try unboxString(from: slot, at: path)
        case .data: return try unboxData(from: slot, at: path)
        case .date: return try Date._archiveDecode(from: self, slot: slot, at: path)
        case .url: return try URL._archiveDecode(from: self, slot: slot, at: path)
        case .uuid: return try UUID._archiveDecode(from: self, slot: slot, at: path)
        case .null: return NSNull()
        case .decimal: return NSDecimalNumber(decimal: try Decimal._archiveDecode(from: self, slot: slot, at: path))
        case .array, .set, .orderedSet:
            let elements: [Any] = try withObject(uid, at: path) {
                // Each element is counted by the container and checked against this call's classes.
                var container = try ArchiveUnkeyedDecodingContainer(decoder: self, slot: slot, path: path)
                var elements: [Any] = []
                while !container.isAtEnd {
                    let index = container.currentIndex
                    let element = try container.decode(ElementSlot.self).slot
                    elements.append(try decodeFoundationObject(element, allowed: allowed, at: path.appending(index: index)) ?? NSNull())
                }
                return elements
            }
            switch kind {
            case .set: return NSSet(array: elements)
            case .orderedSet: return NSOrderedSet(array: elements)
            default: return elements
            }
        case .dictionary:
            return try withObject(uid, at: path) {
                let (layout, _) = try ArchiveKeyedLayout.open(slot, decoder: self, path: path)
                guard case .dictionary(let keys, let values) = layout else {
                    throw corrupted(at: path, slot: slot, "NSDictionary without NS.keys and NS.objects")
                }
                var result: [AnyHashable: Any] = [:]
                for i in 0..<keys.count {
                    let entryPath = path.appending(index: i)
                    // The key is a decoded object too (it may be any object), so each entry is charged twice.
                    try countValue(at: entryPath, slot: slot)
                    try countValue(at: entryPath, slot: slot)
                    let (keySlot, valueSlot) = try reading(slot, entryPath) {
                        (try self.slot(forValueAt: try plist.ref(keys, i), owner: uid),
                         try self.slot(forValueAt: try plist.ref(values, i), owner: uid))
                    }
                    guard let key = try decodeFoundationObject(keySlot, allowed: allowed, at: entryPath) as? AnyHashable else {
                        throw corrupted(at: entryPath, slot: keySlot, "dictionary key is nil or not hashable")
                    }
                    result[key] = try decodeFoundationObject(valueSlot, allowed: allowed, at: entryPath) ?? NSNull()
                }
                return result
            }
        }
    }

    /// Instantiates a class the call allows with its decoding initializer, once per object.
    ///
    /// The class is resolved and checked first, so a class the call does not allow never
    /// runs its initializer, and an instance decoded earlier is returned only when it is of
    /// the class this call resolved.
    private func instantiate(className: String, uid: Int, allowed: [AnyClass]?, path: CodingPathNode) throws -> Any {
        guard let cls = state.registry.resolve(className, for: allowed) else {
            throw notAllowed(className, allowed, uid: uid, path: path)
        }
        // Foundation's own classes are read only through their known layouts: their
        // `init(coder:)` relies on NSKeyedUnarchiver internals and traps with any other coder.
        if Self.isFoundationClass(cls) {
            throw corrupted(at: path, slot: .uid(uid),
                            "class '\(className)' is a Foundation class without a layout this decoder reads; its init(coder:) is never run")
        }
        if let existing = try existingInstance(uid, at: DecodingPath(path)) {
            // Kind, not exact class, as NSKeyedUnarchiver checks: an initializer may return an
            // instance of a subclass (a class cluster's private class on Darwin).
            guard Self.isInstance(existing, of: cls) else {
                throw typeMismatch(cls, found: "object \(uid) of class '\(className)', decoded earlier as \(type(of: existing))", slot: .uid(uid), at: path)
            }
            return existing
        }
        if let reference = cls as? any ArchiveReferenceDecodable.Type {
            // Recorded before its fields are read, so a reference back to it gets this instance.
            return try withObject(uid, at: path) {
                try reference._archiveDecodeReference(as: AnyObject.self, from: self, uid: uid, at: path)
            }
        }
        let codingType = cls as? any ArchiveCoding.Type
        let nsType = cls as? any NSCoding.Type
        // Made in one phase and shared: no back reference inside it (see `acceptBackReference(to:at:)`).
        state.sharedClassesOpen &+= 1
        defer { state.sharedClassesOpen &-= 1 }
        let instance: AnyObject = try withObject(uid, at: path) {
            let container = try ArchiveKeyedDecodingContainer<ArchiveCodingKey>(decoder: self, slot: .uid(uid), path: path)
            if let codingType {
                let coder = ArchiveKeyedDecoder(decoder: subDecoder(slot: .uid(uid), path: path), container: container)
                let made = try codingType.init(coder: coder)
                try coder.rethrowRecordedError()
                return made
            }
            guard let nsType else { throw corrupted(at: path, slot: .uid(uid), "class '\(className)' adopts neither NSCoding nor ArchiveCoding") }
            let coder = ArchiveNSCoder(decoder: self, container: container, path: path)
            let made = nsType.init(coder: coder)
            if let error = coder.decodingError { throw error }
            guard let made = made as AnyObject? else {
                throw corrupted(at: path, slot: .uid(uid), "init(coder:) of \(className) returned nil")
            }
            return made
        }
        state.instances[uid] = instance
        return instance
    }
}

extension _ArchiveDecoder {
    /// Whether `cls` is Foundation's own class (``FoundationClassOrigin``), or a subclass
    /// of one of the value and collection classes read through layouts.
    fileprivate static func isFoundationClass(_ cls: AnyClass) -> Bool {
        if FoundationClassOrigin.isFoundations(cls) { return true }
        guard let object = cls as? NSObject.Type else { return false }
        return layoutClasses.contains { object.isSubclass(of: $0) }
    }

    /// Whether `object` is an instance of `cls` or of a subclass of it.
    fileprivate static func isInstance(_ object: AnyObject, of cls: AnyClass) -> Bool {
        var current: AnyClass? = type(of: object)
        while let candidate = current {
            if candidate == cls { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    private static let layoutClasses: [NSObject.Type] = FoundationClassKind.every.map(\.objectClass) + [NSNumber.self]
}

/// The slot of one element of a Foundation collection, taken through the unkeyed
/// container so that it is counted against the decode's work budget like any element.
private struct ElementSlot: Decodable, _ArchiveSpecialDecodable {
    /// Only the slot is taken here; ``_ArchiveDecoder/decodeFoundationObject(_:allowed:at:)`` enters it.
    static var _archiveEntersItself: Bool { true }
    var slot: ArchiveSlot

    init(from decoder: any Decoder) throws {
        throw DecodingError.archive(.dataCorrupted, "Foundation objects decode only with ArchiveDecoder.", codingPath: decoder.codingPath)
    }

    private init(slot: ArchiveSlot) { self.slot = slot }

    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ElementSlot {
        ElementSlot(slot: slot)
    }
}

extension FoundationClassKind {
    /// Every kind, for the allow-list check of Foundation's own classes.
    fileprivate static let every: [FoundationClassKind] = [
        .string, .data, .date, .url, .uuid, .null, .decimal, .array, .set, .orderedSet, .dictionary,
    ]

    /// The class an allow-list must name (or name a superclass of) to admit it.
    fileprivate var objectClass: NSObject.Type {
        switch self {
        case .string: return NSString.self
        case .data: return NSData.self
        case .date: return NSDate.self
        case .url: return NSURL.self
        case .uuid: return NSUUID.self
        case .null: return NSNull.self
        case .decimal: return NSDecimalNumber.self
        case .array: return NSArray.self
        case .set: return NSSet.self
        case .orderedSet: return NSOrderedSet.self
        case .dictionary: return NSDictionary.self
        }
    }
}
