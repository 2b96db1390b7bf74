#if canImport(ObjectiveC)
import Foundation
import ObjectiveC

// The entry points Darwin's `NSCoder` dispatches to: Objective-C methods of `NSCoder.h`. An
// Objective-C-era class's `initWithCoder:` calls them directly, and Foundation's Swift
// overlay reaches them from its own `@nonobjc` methods (`decodeObject(of: [AnyClass]?,
// forKey:)` calls `decodeObjectOfClasses:forKey:`, the generic `decodeObject(of:forKey:)`
// calls `decodeObjectOfClass:forKey:`). Every keyed method is overridden, as Apple's
// "Subclassing NSCoder" asks, so that none reaches a base-class implementation that raises
// an Objective-C exception (which Swift cannot catch). Each forwards to the one
// implementation in ArchiveNSCoder.swift, where swift-corelibs-foundation's entry points are.
extension ArchiveNSCoder {
    override func __decodeObject(ofClasses classes: Set<AnyHashable>?, forKey key: String) -> Any? {
        decodeObject(allowing: classes.map(Self.classList), forKey: key)
    }

    override func __decodeArrayOfObjects(ofClasses classes: Set<AnyHashable>, forKey key: String) -> [Any]? {
        decodeObject(allowing: [NSArray.self] + Self.classList(classes), forKey: key) as? [Any]
    }

    override func __decodeDictionary(withKeysOfClasses keyClasses: Set<AnyHashable>, objectsOfClasses: Set<AnyHashable>,
                                     forKey key: String) -> [AnyHashable: Any]? {
        let classes = [NSDictionary.self] + Self.classList(keyClasses) + Self.classList(objectsOfClasses)
        return decodeObject(allowing: classes, forKey: key) as? [AnyHashable: Any]
    }

    override var allowedClasses: Set<AnyHashable>? {
        isEncoding ? nil : Set(allowedClassList.compactMap { $0 as AnyObject as? NSObject }.map(AnyHashable.init))
    }

    /// `decodeBytesForKey:returnedLength:`: the bytes stay valid as long as this coder,
    /// which keeps them (`NS_RETURNS_INNER_POINTER`).
    override func decodeBytes(forKey key: String, returnedLength lengthp: UnsafeMutablePointer<Int>?) -> UnsafePointer<UInt8>? {
        lengthp?.pointee = 0
        guard let data = decodedBytes(forKey: key) else { return nil }
        let kept = NSData(data: data)
        keptBytes.append(kept)
        lengthp?.pointee = kept.length
        return kept.length == 0 ? nil : kept.bytes.assumingMemoryBound(to: UInt8.self)
    }

    /// `encodeInt:forKey:`, a C `int`.
    override func encodeCInt(_ value: Int32, forKey key: String) { encode(value, forKey: key) }

    /// The classes of an Objective-C class set (`NSSet<Class>`, bridged as `Set<AnyHashable>`).
    private static func classList(_ classes: Set<AnyHashable>) -> [AnyClass] {
        classes.compactMap { $0.base as AnyObject as? AnyClass }
    }

    /// `decodeObjectOfClass:forKey:` has no Swift name that a subclass may override (the
    /// overlay marks it unavailable in favour of its generic method, which calls it), so it
    /// is added to this class through the runtime, once.
    static let objectOfClassEntryPoint: Void = {
        let body: @convention(block) (ArchiveNSCoder, AnyClass, NSString) -> AnyObject? = { coder, cls, key in
            coder.decodeObject(allowing: [cls], forKey: key as String).map { $0 as AnyObject }
        }
        // id (self, SEL, Class, NSString *): "@@:#@".
        class_replaceMethod(ArchiveNSCoder.self, NSSelectorFromString("decodeObjectOfClass:forKey:"),
                            imp_implementationWithBlock(body), "@@:#@")
    }()
}
#endif
