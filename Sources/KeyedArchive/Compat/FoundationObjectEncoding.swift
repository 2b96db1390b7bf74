import Foundation

/// Writing Foundation objects (what `NSCoder.encode(_:forKey:)` receives) into the object
/// table, laid out exactly as `NSKeyedArchiver` lays them out.
extension _ArchiveEncoder {
    /// Encodes any object an `NSCoding` class may hand to `encode(_:forKey:)`: Foundation
    /// values and collections, other `NSCoding` objects, ``ArchiveCoding`` objects and
    /// Codable values. Returns its UID (0 for nil).
    func encodeFoundationObject(_ object: Any?, at path: CodingPathNode) throws -> Int32 {
        // The objects this value opens are stored when it is done (see ArchiveObjectTable+Records.swift).
        let mark = table.openMark
        defer { table.close(downTo: mark) }
        guard let object else { return 0 }
        if let optional = object as? any _OptionalBox {
            guard let wrapped = optional._wrapped else { return 0 }
            return try encodeFoundationObject(wrapped, at: path)
        }
        switch object {
        case is NSNull:
            if nullIsNil { return 0 }
            return makeObject(kind: .fields, className: StandardClass(name: "NSNull", classes: ["NSNull", "NSObject"])).uid
        case let string as String:
            return table.string(string)
        case let number as NSNumber where !(number is NSDecimalNumber):
            return encodeNumber(number)
        case let data as Data:
            return table.data(data)
        case let date as Date:
            return try box(date, at: path)
        case let url as URL:
            return try box(url, at: path)
        case let uuid as UUID:
            return try box(uuid, at: path)
        case let decimal as NSDecimalNumber:
            return try box(decimal.decimalValue, at: path)
        case let decimal as Decimal:
            return try box(decimal, at: path)
        case let ordered as NSOrderedSet:
            return try encodeOrderedSet(ordered, at: path)
        case let set as NSSet:
            return try encodeElements(set.allObjects, ordered: false, at: path)
        case let array as NSArray:
            return try encodeElements(array.map { $0 }, ordered: true, at: path)
        case let array as [Any]:
            return try encodeElements(array, ordered: true, at: path)
        case let dictionary as NSDictionary:
            return try encodeDictionary(dictionary, at: path)
        case let coding as any ArchiveCoding:
            return try box(coding, at: path)
        case let coding as NSObject & NSCoding:
            return try encodeNSCoding(coding, at: path)
        case let encodable as any Encodable:
            return try box(encodable, at: path)
        default:
            throw EncodingError.invalidValue(object, EncodingError.Context(
                codingPath: path.path,
                debugDescription: "\(type(of: object)) is neither a Foundation value, NSCoding, ArchiveCoding nor Encodable, so it cannot be archived."))
        }
    }

    /// An NSNumber as Foundation stores it: boolean, real of its width, or integer.
    func encodeNumber(_ number: NSNumber) -> Int32 {
        let type = String(cString: number.objCType)
        if Self.isBoolean(number, objCType: type) { return table.bool(number.boolValue) }
        switch type {
        case "f": return table.float(number.floatValue)
        case "d": return table.real(number.doubleValue)
        case "Q", "L": return table.unsignedInteger(number.uint64Value)
        default: return table.integer(number.int64Value)
        }
    }

    /// Whether `number` (whose `objCType` is `objCType`) is one of the two boolean
    /// `NSNumber`s (`kCFBooleanTrue`, `kCFBooleanFalse`). Darwin reports the `objCType` "c"
    /// for booleans and for `Int8` numbers alike, so the type is asked of CoreFoundation
    /// there; swift-corelibs-foundation reports "c" only for booleans (an `Int8` is "i").
    static func isBoolean(_ number: NSNumber, objCType: String) -> Bool {
        #if canImport(ObjectiveC)
        return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
        return objCType == "c" || objCType == "B"
        #endif
    }

    /// NSArray or NSSet. A set's elements are sorted so the output is deterministic.
    private func encodeElements(_ elements: [Any], ordered: Bool, at path: CodingPathNode) throws -> Int32 {
        let made = makeObject(kind: .array, className: ordered ? .array : .set)
        var uids: [Int32] = []
        uids.reserveCapacity(elements.count)
        // A set's iteration order varies from instance to instance: objects are written (and
        // so numbered) in an order of their own, then listed by content.
        for (index, element) in (ordered ? elements : Self.stableOrder(elements)).enumerated() {
            uids.append(try encodeFoundationObject(element, at: path.appending(index: index)))
        }
        if !ordered { uids = try sortedForOutput(uids) }
        for uid in uids { made.box.appendElement(uid) }
        return made.uid
    }

    /// NSOrderedSet: `{NS.object.0, NS.object.1, …}`.
    private func encodeOrderedSet(_ set: NSOrderedSet, at path: CodingPathNode) throws -> Int32 {
        let made = makeObject(kind: .fields, className: StandardClass(name: "NSOrderedSet", classes: ["NSOrderedSet", "NSObject"]))
        for (index, element) in set.array.enumerated() {
            let uid = try encodeFoundationObject(element, at: path.appending(index: index))
            made.box.append(key: table.keyID("NS.object.\(index)"), .uid(uid))
        }
        return made.uid
    }

    /// NSDictionary, entries in a deterministic order.
    private func encodeDictionary(_ dictionary: NSDictionary, at path: CodingPathNode) throws -> Int32 {
        let made = makeObject(kind: .dictionary)
        var entries: [(key: Int32, value: Int32)] = []
        // Entries are written (and so numbered) in a stable order, not the hash order.
        let pairs = Self.stableOrder(dictionary.map { ($0.key, $0.value) }, by: \.0)
        for (key, value) in pairs {
            let entryPath = path.appending(ArchiveCodingKey(stringValue: "\(key)"))
            entries.append((try encodeFoundationObject(key, at: entryPath), try encodeFoundationObject(value, at: entryPath)))
        }
        let order = try sortedForOutput(entries.map(\.key))
        var position: [Int32: Int] = [:]
        for (index, entry) in entries.enumerated() { position[entry.key] = index }
        for key in order {
            guard let index = position[key] else { continue }
            made.box.appendEntry(key: key, value: entries[index].value)
        }
        return made.uid
    }

    /// `items` in an order that depends only on their content (type, then description), so
    /// that unordered collections number their objects the same way every time.
    private static func stableOrder<T>(_ items: [T], by object: (T) -> Any = { $0 }) -> [T] {
        items.map { (item: $0, key: "\(type(of: object($0)))\u{0}\(object($0))") }
            .sorted { $0.key < $1.key }
            .map(\.item)
    }

    /// UIDs ordered by the content of their objects (strings and numbers by value), so that
    /// unordered Foundation collections encode to the same bytes every time.
    private func sortedForOutput(_ uids: [Int32]) throws -> [Int32] {
        func key(_ uid: Int32) -> ArchiveSortKey {
            guard uid > 0, Int(uid) < table.count else { return .integer(Int64(uid)) }
            switch table.entry(uid) {
            case .string(let s): return .string(s)
            case .integer(let i): return .integer(i)
            case .unsignedInteger(let u): return .unsigned(u)
            case .real(let d): return .bytes(withUnsafeBytes(of: d.bitPattern.bigEndian, Array.init))
            default: return .integer(Int64(uid))
            }
        }
        return uids.map { ($0, key($0)) }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// Runs `encode(with:)` of an NSCoding object into an object of its own.
    ///
    /// The object's UID is recorded before its fields are encoded, so NSCoding graphs may
    /// contain cycles (as NSKeyedArchiver allows); a back-reference gets the same UID.
    func encodeNSCoding(_ object: NSObject & NSCoding, at path: CodingPathNode) throws -> Int32 {
        let id = ObjectIdentifier(object)
        if let uid = table.instanceUIDs[id] { return uid }
        // The class it archives as, as NSKeyedArchiver asks (`classForCoder` by default).
        let names = table.classNames(forInstanceOf: object.classForKeyedArchiver ?? type(of: object))
        let made = makeObject(kind: .fields, className: StandardClass(name: names.name, classes: names.classes))
        table.instanceUIDs[id] = made.uid
        table.retainedInstances.append(object)
        let coder = ArchiveNSCoder(encoder: self, box: made.box, path: path)
        object.encode(with: coder)
        if let error = coder.encodingError { throw error }
        return made.uid
    }
}

/// Lets `encodeFoundationObject` see through an `Optional` that arrived as `Any`.
protocol _OptionalBox {
    var _wrapped: Any? { get }
}

extension Optional: _OptionalBox {
    var _wrapped: Any? {
        switch self {
        case .some(let value): return value
        case .none: return nil
        }
    }
}
