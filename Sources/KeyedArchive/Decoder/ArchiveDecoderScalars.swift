import Foundation

/// Scalars and strings. Storage is strict, as with `JSONDecoder`: integers and reals read
/// number storage only (a real only when it is exact), `Bool` reads boolean storage only,
/// unless ``ArchiveDecoder/BooleanDecodingStrategy/numbersAreBooleans`` is chosen for
/// archives written by swift-corelibs-foundation (which stores 0/1 and false/true as one
/// object).
extension _ArchiveDecoder {
    /// The general readers below (`readInteger`, `readDouble`, `readBool`, `readString`)
    /// handle every layout and report every error; the `unbox…` entry points in
    /// `LeafFastPaths.swift` try the plain leaf first.
    func readInteger<T: FixedWidthInteger>(_ type: T.Type, from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        let object = try self.object(in: slot, expecting: T.self, at: path())
        let result: T?
        switch object {
        case .integer(let i): result = T(exactly: i)
        case .unsignedInteger(let u): result = T(exactly: u)
        case .wideInteger(let w): result = w.exactly(as: T.self)
        case .real(let d): result = T(exactly: d)
        case .float(let f): result = T(exactly: f)
        case .bool(let b) where state.booleansAreNumbers: result = b ? 1 : 0
        default: throw typeMismatch(T.self, found: object, slot: slot, at: path())
        }
        guard let result else {
            throw corrupted(at: path(), slot: slot, "the number \(describe(object)) does not fit in \(T.self)")
        }
        return result
    }

    func readDouble(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Double {
        let object = try self.object(in: slot, expecting: Double.self, at: path())
        if state.options.checksFloats, let special = try nonConformingFloat(object, slot: slot, at: path()) { return special }
        switch object {
        case .real(let d): return d
        case .float(let f): return Double(f)
        case .integer(let i):
            guard let d = Double(exactly: i) else { break }
            return d
        case .unsignedInteger(let u):
            guard let d = Double(exactly: u) else { break }
            return d
        case .wideInteger(let w):
            guard let d = w.exactly(as: Double.self) else { break }
            return d
        case .bool(let b) where state.booleansAreNumbers: return b ? 1 : 0
        default: throw typeMismatch(Double.self, found: object, slot: slot, at: path())
        }
        throw corrupted(at: path(), slot: slot, "the number \(describe(object)) does not fit in Double exactly")
    }

    func unboxFloat(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Float {
        let object = try self.object(in: slot, expecting: Float.self, at: path())
        if state.options.checksFloats, let special = try nonConformingFloat(object, slot: slot, at: path()) { return Float(special) }
        switch object {
        case .float(let f): return f
        case .real(let d):
            // Rounding to the nearest Float is accepted (as JSONDecoder does); overflow is not.
            let f = Float(d)
            guard f.isFinite || !d.isFinite else { break }
            return f
        case .integer(let i):
            guard let f = Float(exactly: i) else { break }
            return f
        case .unsignedInteger(let u):
            guard let f = Float(exactly: u) else { break }
            return f
        case .wideInteger(let w):
            guard let f = w.exactly(as: Float.self) else { break }
            return f
        case .bool(let b) where state.booleansAreNumbers: return b ? 1 : 0
        default: throw typeMismatch(Float.self, found: object, slot: slot, at: path())
        }
        throw corrupted(at: path(), slot: slot, "the number \(describe(object)) does not fit in Float")
    }

    func readBool(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Bool {
        let object = try self.object(in: slot, expecting: Bool.self, at: path())
        switch object {
        case .bool(let b): return b
        case .integer(0) where state.booleansAreNumbers: return false
        case .integer(1) where state.booleansAreNumbers: return true
        default: throw typeMismatch(Bool.self, found: object, slot: slot, at: path())
        }
    }

    /// A string: plain, or the `NS.string` of an NSString / NSMutableString object.
    func readString(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> String {
        let object = try self.object(in: slot, expecting: String.self, at: path())
        switch object {
        case .asciiString, .utf16String:
            return try plainString(object, slot: slot, at: path())
        case .dictionary(let keys, let values):
            guard let chain = try archivedClass(keys: keys, values: values, slot: slot, at: path()) else { break }
            if chain.contains(anyOf: FoundationClassNames.string) {
                let inner = try requiredField("NS.string", of: String.self, keys: keys, values: values, slot: slot, path: path())
                let leaf = try leafObject(inner, expecting: String.self, at: path())
                return try plainString(leaf, slot: inner, at: path())
            }
            if chain.contains(anyOf: FoundationClassNames.attributedString) {
                // The text only: its `NSString` field, a string or an NSString object (the
                // attributes are not part of a String). At most two hops, no recursion.
                let text = try requiredField("NSString", of: String.self, keys: keys, values: values, slot: slot, path: path())
                let textObject = try self.object(in: text, expecting: String.self, at: path())
                guard case .dictionary(let textKeys, let textValues) = textObject,
                      try archivedClass(keys: textKeys, values: textValues, slot: text, at: path())?.contains(anyOf: FoundationClassNames.string) == true
                else { return try plainString(textObject, slot: text, at: path()) }
                let inner = try requiredField("NS.string", of: String.self, keys: textKeys, values: textValues, slot: text, path: path())
                return try plainString(try leafObject(inner, expecting: String.self, at: path()), slot: inner, at: path())
            }
        default:
            break
        }
        throw typeMismatch(String.self, found: object, slot: slot, at: path())
    }

    /// The text of a plain string object, made once per object (see ``SharedLeafValues``).
    @inline(__always)
    func plainString(_ object: BinaryPropertyList.Object, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> String {
        try reading(slot, path()) {
            guard let text = try state.leaves.string(object, ref: try plistRef(of: slot), in: plist, budget: &state.budget) else {
                throw typeMismatch(String.self, found: object, slot: slot, at: path())
            }
            return text
        }
    }

    /// The text of string object `ref` (a key), made once per object; `nil` when it is not a
    /// string. Keys are hashed or compared wherever they go (an index, a `Dictionary`), so
    /// each hand-out of a long one also costs its bytes at the shared rate.
    func keyString(at ref: Int) throws -> String? {
        guard let key = try state.leaves.string(at: ref, in: plist, budget: &state.budget) else { return nil }
        try chargeHashing(key)
        return key
    }

    /// Charges the hashing of a long string key (see ``keyString(at:)``).
    @inline(__always)
    func chargeHashing(_ key: String) throws {
        let bytes = key.utf8.count
        if bytes >= ArchiveWorkBudget.bytesPerUnitShared { try charge(ArchiveWorkBudget.sharedCost(bytes: bytes)) }
    }

    /// The user key stored at `ref` (unescaped, see ``ArchiveKeyEscaping``); `nil` when it is
    /// not a string or is reserved (`$class`). An escaped key is a new string, charged as one.
    func userKey(at ref: Int) throws -> String? {
        guard let stored = try keyString(at: ref), let key = ArchiveKeyEscaping.unescape(stored) else { return nil }
        if key.utf8.count != stored.utf8.count { try chargeMade(bytes: key.utf8.count) }
        return key
    }

    /// The value of a Foundation object's field that must be a plain value (a string,
    /// data, a number): inline, or one UID away. Never a container, so a field that points
    /// back at its object (or at a chain of such objects) cannot recurse.
    func leafObject(_ slot: ArchiveSlot, expecting type: Any.Type, at path: @autoclosure () -> CodingPathNode) throws -> BinaryPropertyList.Object {
        let object = try self.object(in: slot, expecting: type, at: path())
        switch object {
        case .array, .dictionary, .uid:
            throw typeMismatch(type, found: object, slot: slot, at: path())
        default:
            return object
        }
    }

    /// The slot of field `name` in an object dictionary, or nil when absent.
    func field(_ name: String, keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList, owner: Int) throws -> ArchiveSlot? {
        guard let index = try fieldIndex(of: name, keys: keys) else { return nil }
        return try slot(forValueAt: try plist.ref(values, index), owner: owner)
    }
}

/// The Foundation classes whose archived layouts the decoder reads, by role. A layout is
/// applied only to objects whose `$classes` chain lists one of its classes.
enum FoundationClassNames {
    static let string = ["NSString", "NSMutableString"]
    /// Read as their text (`NSString` field) when a `String` is asked for.
    static let attributedString = ["NSAttributedString", "NSMutableAttributedString"]
    static let data = ["NSData", "NSMutableData"]
    static let date = ["NSDate"]
    static let url = ["NSURL"]
    static let uuid = ["NSUUID"]
    static let decimal = ["NSDecimalNumber", "NSDecimalNumberPlaceholder"]
    static let dictionary = ["NSDictionary", "NSMutableDictionary"]
    /// `NS.objects`: NSArray and NSSet.
    static let list = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet"]
    /// `NS.object.0`, `NS.object.1`, …
    static let orderedSet = ["NSOrderedSet", "NSMutableOrderedSet"]
    /// `NS.object0`/`NS.count0`, `NS.object1`/`NS.count1`, …
    static let countedSet = ["NSCountedSet"]
    /// Objects whose one field is a plain value (`NS.string`, `NS.data`, `NS.time`): read as
    /// that value, never as a `Dictionary` of their fields. (NSURL, NSUUID, NSDecimalNumber
    /// and attributed strings still read as dictionaries, so generic types lose nothing.)
    static let scalarValues = string + data + date
}
