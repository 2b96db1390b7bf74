import Foundation

/// Types decoded from their Foundation layouts rather than through `init(from:)`. Each
/// accepts every layout real archives use for it (FORMAT.md §4, "reading is wider").
protocol _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Self
    /// Whether the type enters the object itself (through ``_ArchiveDecoder/withObject(_:at:_:)``),
    /// as the compatibility layer's Foundation objects do, so `unbox` must not enter it first.
    static var _archiveEntersItself: Bool { get }
}

extension _ArchiveSpecialDecodable {
    static var _archiveEntersItself: Bool { false }

    /// Decodes `Self` for a caller that knows it as `T` (its traits were found for `T`,
    /// so `T` is `Self`): handed over without a dynamic cast (see `_ArchiveDecoder.cast`).
    @inline(__always)
    static func _archiveDecode<T>(as type: T.Type, from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        try decoder.handOver(try _archiveDecode(from: decoder, slot: slot, at: path()), as: T.self, at: path())
    }
}

extension String: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> String {
        try decoder.unboxString(from: slot, at: path())
    }
}

extension Bool: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Bool {
        try decoder.unboxBool(from: slot, at: path())
    }
}

extension Double: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Double {
        try decoder.unboxDouble(from: slot, at: path())
    }
}

extension Float: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Float {
        try decoder.unboxFloat(from: slot, at: path())
    }
}

/// Integers of every width, from integer, real or boolean storage when the value fits.
protocol _ArchiveIntegerDecodable: _ArchiveSpecialDecodable, FixedWidthInteger {}

extension _ArchiveIntegerDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Self {
        try decoder.unboxInteger(Self.self, from: slot, at: path())
    }
}

extension Int: _ArchiveIntegerDecodable {}
extension Int8: _ArchiveIntegerDecodable {}
extension Int16: _ArchiveIntegerDecodable {}
extension Int32: _ArchiveIntegerDecodable {}
extension Int64: _ArchiveIntegerDecodable {}
extension UInt: _ArchiveIntegerDecodable {}
extension UInt8: _ArchiveIntegerDecodable {}
extension UInt16: _ArchiveIntegerDecodable {}
extension UInt32: _ArchiveIntegerDecodable {}
extension UInt64: _ArchiveIntegerDecodable {}

extension _ArchiveDecoder {
    /// The fields of the object at `slot`, for the Foundation layouts below.
    func foundationFields<T>(_ type: T.Type, at slot: ArchiveSlot, path: CodingPathNode)
        throws -> (keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList)? {
        let object = try self.object(in: slot, expecting: T.self, at: path)
        guard case .dictionary(let keys, let values) = object else { return nil }
        return (keys, values)
    }

    /// A required field of a Foundation object.
    func requiredField<T>(_ name: String, of type: T.Type, keys: BinaryPropertyList.RefList, values: BinaryPropertyList.RefList,
                          slot: ArchiveSlot, path: @autoclosure () -> CodingPathNode) throws -> ArchiveSlot {
        guard let field = try field(name, keys: keys, values: values, owner: slot.objectIndex) else {
            throw corrupted(at: path(), slot: slot, "\(T.self) needs the field \(name), which object \(slot.objectIndex) does not have")
        }
        return field
    }

    /// Bytes: plain data, or the `NS.data` (`NS.bytes`) of an NSData / NSMutableData object,
    /// made once per object (see ``SharedLeafValues``).
    func unboxData(from slot: ArchiveSlot, at path: CodingPathNode) throws -> Data {
        let (range, leaf) = try dataLeaf(from: slot, at: path)
        return try reading(leaf, path) {
            try state.leaves.data(range, ref: try plistRef(of: leaf), in: plist, budget: &state.budget)
        }
    }

    /// Where the bytes of a data value are in the file: a plain data object, or the
    /// `NS.data` of an NSData / NSMutableData object.
    func dataRange(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Range<Int> {
        try dataLeaf(from: slot, at: path()).range
    }

    /// ``dataRange(from:at:)`` and the slot of the plain data object holding the bytes.
    func dataLeaf(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> (range: Range<Int>, leaf: ArchiveSlot) {
        let object = try self.object(in: slot, expecting: Data.self, at: path())
        switch object {
        case .data(let range):
            return (range, slot)
        case .dictionary(let keys, let values):
            guard let chain = try archivedClass(keys: keys, values: values, slot: slot, at: path()),
                  chain.contains(anyOf: FoundationClassNames.data) else { break }
            guard let inner = try reading(slot, path(), {
                try field("NS.data", keys: keys, values: values, owner: slot.objectIndex)
                    ?? field("NS.bytes", keys: keys, values: values, owner: slot.objectIndex)
            }) else {
                throw corrupted(at: path(), slot: slot, "\(chain.name) needs the field NS.data, which object \(slot.objectIndex) does not have")
            }
            let leaf = try leafObject(inner, expecting: Data.self, at: path())
            guard case .data(let range) = leaf else { throw typeMismatch(Data.self, found: leaf, slot: inner, at: path()) }
            return (range, inner)
        default:
            break
        }
        throw typeMismatch(Data.self, found: object, slot: slot, at: path())
    }
}

extension Data: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Data {
        if !decoder.state.options.readsNSData { return try decoder.decodeDataWithStrategy(from: slot, at: path()) }
        return try decoder.unboxData(from: slot, at: path())
    }
}

extension Date: _ArchiveSpecialDecodable {
    /// NSDate's `{NS.time}`, or a plist date.
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Date {
        let object = try decoder.object(in: slot, expecting: Date.self, at: path())
        if !decoder.state.options.readsNSDate { return try decoder.decodeDateWithStrategy(from: slot, at: path()) }
        return try decoder.reading(slot, path()) {
            switch object {
            case .date(let seconds):
                return try decoder.finiteDate(sinceReferenceDate: seconds, slot: slot, at: path())
            case .dictionary:
                let (keys, values) = try decoder.foundationObject(Date.self, classes: FoundationClassNames.date, object: object, at: slot, path: path())
                let time = try decoder.requiredField("NS.time", of: Date.self, keys: keys, values: values, slot: slot, path: path())
                _ = try decoder.leafObject(time, expecting: Double.self, at: path())
                let date = try decoder.finiteDate(sinceReferenceDate: try decoder.unboxDouble(from: time, at: path()), slot: slot, at: path())
                if !decoder.state.options.checksFloats { decoder.learnShape(&decoder.state.dateShape, keys: keys, values: values) }
                return date
            default:
                throw decoder.typeMismatch(Date.self, found: object, slot: slot, at: path())
            }
        }
    }
}

extension URL: _ArchiveSpecialDecodable {
    /// NSURL's `{NS.base, NS.relative}`, or a plain string.
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> URL {
        let path = path()
        let object = try decoder.object(in: slot, expecting: URL.self, at: path)
        // Parsed once per object, however many places refer to it.
        let ref = try decoder.reading(slot, path) { try decoder.plistRef(of: slot) }
        if let known = decoder.state.parsedURLs[ref] { return known }
        let url = try decoder.reading(slot, path) {
            var base: URL?
            let relative: String
            switch object {
            case .asciiString, .utf16String:
                relative = try decoder.unboxString(from: slot, at: path)
            case .dictionary:
                let (keys, values) = try decoder.foundationObject(URL.self, classes: FoundationClassNames.url, at: slot, path: path)
                let relativeSlot = try decoder.requiredField("NS.relative", of: URL.self, keys: keys, values: values, slot: slot, path: path)
                relative = try decoder.unboxString(from: relativeSlot, at: path)
                if let baseSlot = try decoder.field("NS.base", keys: keys, values: values, owner: slot.objectIndex),
                   !decoder.isNil(baseSlot) {
                    // Another NSURL: decoded through `unbox`, so a chain of bases is bounded
                    // by the depth limit and a base that leads back here is a cycle.
                    base = try decoder.unbox(URL.self, from: baseSlot, at: path)
                }
            default:
                throw decoder.typeMismatch(URL.self, found: object, slot: slot, at: path)
            }
            try decoder.chargeMade(bytes: relative.utf8.count)
            guard let url = URL(string: relative, relativeTo: base) else {
                throw decoder.corrupted(at: path, slot: slot, "'\(TextExcerpt.of(relative))' is not a valid URL")
            }
            return url
        }
        decoder.state.parsedURLs[ref] = url
        return url
    }
}

extension UUID: _ArchiveSpecialDecodable {
    /// NSUUID's `{NS.uuidbytes}` (16 bytes), or a UUID string.
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> UUID {
        let object = try decoder.object(in: slot, expecting: UUID.self, at: path())
        return try decoder.reading(slot, path()) {
            switch object {
            case .asciiString, .utf16String:
                let string = try decoder.unboxString(from: slot, at: path())
                guard let uuid = UUID(uuidString: string) else {
                    throw decoder.corrupted(at: path(), slot: slot, "'\(TextExcerpt.of(string))' is not a UUID")
                }
                return uuid
            case .dictionary:
                let (keys, values) = try decoder.foundationObject(UUID.self, classes: FoundationClassNames.uuid, object: object, at: slot, path: path())
                let bytesSlot = try decoder.requiredField("NS.uuidbytes", of: UUID.self, keys: keys, values: values, slot: slot, path: path())
                // Read in place: no Data, no array.
                let range = try decoder.dataRange(from: bytesSlot, at: path())
                guard range.count == 16 else {
                    throw decoder.corrupted(at: path(), slot: slot, "NS.uuidbytes has \(range.count) bytes, not 16")
                }
                decoder.learnShape(&decoder.state.uuidShape, keys: keys, values: values)
                return UUID(uuid: decoder.plist.bytes[range].loadUnaligned(as: uuid_t.self))
            default:
                throw decoder.typeMismatch(UUID.self, found: object, slot: slot, at: path())
            }
        }
    }
}

extension Decimal: _ArchiveSpecialDecodable {
    /// NSDecimalNumber in Apple's keyed layout, or a plain number.
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Decimal {
        let path = path()
        let object = try decoder.object(in: slot, expecting: Decimal.self, at: path)
        return try decoder.reading(slot, path) {
            switch object {
            case .integer(let i): return Decimal(i)
            case .asciiString, .utf16String:
                // Exact digits as text (how a Decimal travels through Foundation's archiver on
                // Linux), parsed once per string object however many places refer to it.
                let ref = try decoder.plistRef(of: slot)
                if let known = decoder.state.parsedDecimals[ref] { return known }
                let text = try decoder.unboxString(from: slot, at: path)
                try decoder.chargeMade(bytes: text.utf8.count)
                guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw decoder.corrupted(at: path, slot: slot, "'\(TextExcerpt.of(text))' is not a decimal number")
                }
                decoder.state.parsedDecimals[ref] = value
                return value
            case .unsignedInteger(let u): return Decimal(u)
            case .wideInteger(let w): return w.decimalValue
            case .real(let d): return Decimal(d)
            case .float(let f): return Decimal(Double(f))
            case .dictionary:
                let (keys, values) = try decoder.foundationObject(Decimal.self, classes: FoundationClassNames.decimal, at: slot, path: path)
                func number(_ name: String) throws -> Int64 {
                    guard let field = try decoder.field(name, keys: keys, values: values, owner: slot.objectIndex) else { return 0 }
                    return try decoder.unboxInteger(Int64.self, from: field, at: path)
                }
                func flag(_ name: String) throws -> Bool {
                    guard let field = try decoder.field(name, keys: keys, values: values, owner: slot.objectIndex) else { return false }
                    return try decoder.unboxBool(from: field, at: path)
                }
                let exponent = try number("NS.exponent")
                let length = try number("NS.length")
                let byteOrder = try decoder.field("NS.mantissa.bo", keys: keys, values: values, owner: slot.objectIndex)
                    .map { try decoder.unboxInteger(Int64.self, from: $0, at: path) }
                let mantissaSlot = try decoder.requiredField("NS.mantissa", of: Decimal.self, keys: keys, values: values, slot: slot, path: path)
                // At most 8 words are read: the rest of a longer mantissa is never copied.
                let mantissaRange = try decoder.dataRange(from: mantissaSlot, at: path)
                let mantissa = [UInt8](decoder.plist.bytes[mantissaRange.prefix(16)])
                // The one reading of these fields (shared with KeyedArchiveView.foundationValue(of:)).
                guard let layout = DecimalLayout(mantissa: mantissa, length: length, exponent: exponent,
                                                 isNegative: try flag("NS.negative"), byteOrder: byteOrder) else {
                    throw decoder.corrupted(at: path, slot: slot, "NSDecimalNumber fields are out of range (exponent \(exponent), length \(length), \(mantissaRange.count) mantissa bytes)")
                }
                return layout.decimal
            default:
                throw decoder.typeMismatch(Decimal.self, found: object, slot: slot, at: path)
            }
        }
    }
}

extension Dictionary: _ArchiveSpecialDecodable where Key: Decodable, Value: Decodable {
    /// From an NSDictionary (any key type), an NSCountedSet (objects and their counts), or
    /// an object's fields (string keys). The caller has entered the object (``_ArchiveDecoder/unbox(_:from:at:)``).
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Dictionary {
        if Key.self == String.self {
            // String keys (the common case), through code specialized for the commonest value
            // types (the same type: `Key` is `String`, `Value` the type compared), so that each
            // entry's value, key hashing and insertion are not generic steps.
            if Value.self == Int.self {
                return unsafeBitCast(try [String: Int].archiveDecodeEntries(from: decoder, slot: slot, at: path()), to: Dictionary.self)
            }
            if Value.self == String.self {
                return unsafeBitCast(try [String: String].archiveDecodeEntries(from: decoder, slot: slot, at: path()), to: Dictionary.self)
            }
            if Value.self == Double.self {
                return unsafeBitCast(try [String: Double].archiveDecodeEntries(from: decoder, slot: slot, at: path()), to: Dictionary.self)
            }
        }
        return try archiveDecodeEntries(from: decoder, slot: slot, at: path())
    }

    /// ``_archiveDecode(from:slot:at:)``'s reading of the entries, for any key and value type.
    private static func archiveDecodeEntries(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Dictionary {
        let path = path()
        let owner = slot.objectIndex
        let plist = decoder.plist
        var result: [Key: Value] = [:]
        /// The path of an entry: its key when it is a string or an integer (as JSONDecoder
        /// reports it), else its position.
        func entryPath(_ key: Key, index: Int) -> CodingPathNode {
            if let name = key as? String { return path.appending(ArchiveCodingKey(stringValue: name)) }
            if let number = key as? Int { return path.appending(ArchiveCodingKey(intValue: number)) }
            return path.appending(index: index)
        }
        if let counted = try ArchiveUnkeyedDecodingContainer.countedSetEntries(of: slot, decoder: decoder, path: path) {
            for (i, entry) in counted.enumerated() {
                try decoder.countValue(at: path.appending(index: i), slot: slot)
                let key = try decoder.unbox(Key.self, from: entry.object, at: path.appending(index: i))
                result.updateValue(try decoder.unbox(Value.self, from: entry.count, at: entryPath(key, index: i)), forKey: key)
            }
            return result
        }
        let (layout, _) = try ArchiveKeyedLayout.open(slot, decoder: decoder, path: path, asDictionary: true)
        switch layout {
        case .dictionary(let keys, let values):
            result.reserveCapacity(keys.count)
            for i in 0..<keys.count {
                try decoder.countValue(at: path.appending(index: i), slot: slot)
                let (keySlot, valueSlot) = try decoder.reading(slot, path.appending(index: i)) {
                    (try decoder.slot(forValueAt: try decoder.entryRef(keys, i), owner: owner),
                     try decoder.slot(forValueAt: try decoder.entryRef(values, i), owner: owner))
                }
                // String keys read as a keyed container lists them (numbers as their digits,
                // URLs as their absolute string…); other key types decode the key object.
                let key = Key.self == String.self
                    ? unsafeBitCast(try decoder.keyText(of: keySlot, entry: i, owner: owner, at: path.appending(index: i)).text, to: Key.self)
                    : try decoder.unbox(Key.self, from: keySlot, at: path.appending(index: i))
                if Key.self == String.self { try decoder.reading(keySlot, path) { try decoder.chargeHashing(unsafeBitCast(key, to: String.self)) } }
                result.updateValue(try decoder.unbox(Value.self, from: valueSlot, at: entryPath(key, index: i)), forKey: key)
            }
        case .fields(let keys, let values):
            for i in 0..<keys.count {
                try decoder.countValue(at: path.appending(index: i), slot: slot)
                let (name, keyRef, valueRef) = try decoder.reading(slot, path.appending(index: i)) {
                    let keyRef = try plist.ref(keys, i)
                    return (try decoder.userKey(at: keyRef), keyRef, try plist.ref(values, i))
                }
                // Skip `$class` and other reserved keys.
                guard let unescaped = name else { continue }
                let keyPath = path.appending(ArchiveCodingKey(stringValue: unescaped))
                let key: Key
                if Key.self == String.self {
                    key = unsafeBitCast(unescaped, to: Key.self)
                } else {
                    key = try decoder.unbox(Key.self, from: .inline(ref: keyRef, owner: owner), at: keyPath)
                }
                let valueSlot = try decoder.reading(slot, keyPath) { try decoder.slot(forValueAt: valueRef, owner: owner) }
                result.updateValue(try decoder.unbox(Value.self, from: valueSlot, at: keyPath), forKey: key)
            }
        }
        return result
    }
}

extension Set: _ArchiveSpecialDecodable where Element: Decodable {
    /// From an NSSet, an NSArray or any list layout (``ArchiveUnkeyedDecodingContainer``).
    /// An element that is the same object as an earlier one (the same UID or plist
    /// reference) is the same value: it is not decoded or hashed again, so one long value
    /// referenced from many places costs its size once.
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Set {
        let path = path()
        var container = try ArchiveUnkeyedDecodingContainer(decoder: decoder, slot: slot, path: path)
        var seen = Set<Int>()
        var result = Set<Element>()
        while !container.isAtEnd {
            let index = container.currentIndex
            let element = try container.nextElement()
            let identity: Int
            switch element {
            case .uid(let uid): identity = uid
            case .inline(let ref, _): identity = -1 - ref
            }
            guard seen.insert(identity).inserted else { continue }
            result.insert(try decoder.unbox(Element.self, from: element, at: path.appending(index: index)))
        }
        return result
    }
}
