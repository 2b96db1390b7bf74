import Foundation

/// Reading Foundation objects (what `NSCoder.decodeObject(forKey:)` returns) from the
/// object table: Swift values for Foundation value classes, instances for allowed
/// `NSCoding` and ``ArchiveCoding`` classes.
extension _ArchiveDecoder {
    /// Foundation value classes, by archived name, in the form returned.
    private enum FoundationClass {
        case string, data, date, url, uuid, null, decimal, array, set, orderedSet, dictionary
    }

    private static let foundationClasses: [String: FoundationClass] = [
        "NSString": .string, "NSMutableString": .string,
        "NSData": .data, "NSMutableData": .data,
        "NSDate": .date, "NSURL": .url, "NSUUID": .uuid, "NSNull": .null,
        "NSDecimalNumber": .decimal, "NSDecimalNumberPlaceholder": .decimal,
        "NSArray": .array, "NSMutableArray": .array,
        "NSSet": .set, "NSMutableSet": .set,
        "NSOrderedSet": .orderedSet, "NSMutableOrderedSet": .orderedSet,
        "NSDictionary": .dictionary, "NSMutableDictionary": .dictionary,
    ]

    /// Decodes the object at `slot` the way `NSKeyedUnarchiver.decodeObject` would.
    ///
    /// - Parameter allowed: classes this call allows on top of the decoder's registry
    ///   (`decodeObject(of:forKey:)`).
    func decodeFoundationObject(_ slot: ArchiveSlot, allowed: [AnyClass]?, at path: CodingPathNode) throws -> Any? {
        if isNil(slot) { return nil }
        let object = try self.object(in: slot, expecting: Any.self, at: path)
        switch object {
        case .bool(let b): return NSNumber(value: b)
        case .integer(let i): return NSNumber(value: i)
        case .unsignedInteger(let u): return NSNumber(value: u)
        case .real(let d): return NSNumber(value: d)
        case .float(let f): return NSNumber(value: f)
        case .asciiString, .utf16String: return try unboxString(from: slot, at: path)
        case .data: return try unboxData(from: slot, at: path)
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .uid, .array:
            throw typeMismatch(NSObject.self, found: object, slot: slot, at: path)
        case .dictionary:
            guard case .uid(let uid) = slot else { throw typeMismatch(NSObject.self, found: object, slot: slot, at: path) }
            let info = try reading(slot, path) { try document.classInfo(ofObject: uid) }
            guard let info else {
                throw corrupted(at: path, slot: slot, "object \(uid) has no $class, so it is not an archived object")
            }
            if let known = info.classes.lazy.compactMap({ Self.foundationClasses[$0] }).first {
                return try decodeFoundationValue(known, slot: slot, uid: uid, allowed: allowed, path: path)
            }
            return try instantiate(className: info.name, uid: uid, allowed: allowed, path: path)
        }
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
                var container = try ArchiveUnkeyedDecodingContainer(decoder: self, slot: slot, path: path)
                var elements: [Any] = []
                while !container.isAtEnd {
                    elements.append(try container.decode(FoundationObjectBox.self).value ?? NSNull())
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
                let (layout, _) = try ArchiveKeyedDecodingContainer<ArchiveCodingKey>.layout(of: slot, decoder: self, path: path)
                guard case .dictionary(let keys, let values) = layout else {
                    throw corrupted(at: path, slot: slot, "NSDictionary without NS.keys and NS.objects")
                }
                var result: [AnyHashable: Any] = [:]
                for i in 0..<keys.count {
                    let entryPath = path.appending(index: i)
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

    /// Instantiates an allowed class with its decoding initializer, once per object.
    private func instantiate(className: String, uid: Int, allowed: [AnyClass]?, path: CodingPathNode) throws -> Any {
        if let existing = state.instances[uid] { return existing }
        guard let cls = state.registry.lookup(className, alsoAllowed: allowed) else {
            throw corrupted(at: path, slot: .uid(uid),
                            "class '\(className)' is not allowed: register it with ArchiveDecoder.setClass(_:forClassName:) or list it in allowedClasses")
        }
        let instance: AnyObject = try withObject(uid, at: path) {
            let container = try ArchiveKeyedDecodingContainer<ArchiveCodingKey>(decoder: self, slot: .uid(uid), path: path)
            if let codingType = cls as? any ArchiveCoding.Type {
                let sub = subDecoder(slot: .uid(uid), path: path)
                return try codingType.init(coder: ArchiveKeyedDecoder(decoder: sub, container: container))
            }
            guard let nsType = cls as? any NSCoding.Type else {
                throw corrupted(at: path, slot: .uid(uid), "registered class '\(className)' adopts neither NSCoding nor ArchiveCoding")
            }
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

/// Decodes one element of a Foundation collection as a Foundation object.
struct FoundationObjectBox: Decodable, _ArchiveSpecialDecodable {
    static var _archiveEntersItself: Bool { true }
    var value: Any?

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: decoder.codingPath, debugDescription: "Foundation objects decode only with ArchiveDecoder."))
    }

    private init(value: Any?) { self.value = value }

    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> FoundationObjectBox {
        FoundationObjectBox(value: try decoder.decodeFoundationObject(slot, allowed: nil, at: path()))
    }
}
