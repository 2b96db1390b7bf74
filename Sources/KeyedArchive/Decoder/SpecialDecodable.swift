import Foundation

/// Types decoded from their Foundation layouts rather than through `init(from:)`. Each
/// accepts every layout real archives use for it (FORMAT.md §4, "reading is wider").
protocol _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Self
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
                          slot: ArchiveSlot, path: CodingPathNode) throws -> ArchiveSlot {
        guard let field = try field(name, keys: keys, values: values, owner: slot.objectIndex) else {
            throw corrupted(at: path, slot: slot, "\(T.self) needs the field \(name), which object \(slot.objectIndex) does not have")
        }
        return field
    }

    /// Bytes: plain data, or `{NS.data}` / `{NS.bytes}` of NSData and NSMutableData.
    func unboxData(from slot: ArchiveSlot, at path: CodingPathNode) throws -> Data {
        let object = try self.object(in: slot, expecting: Data.self, at: path)
        return try reading(slot, path) {
            switch object {
            case .data(let range):
                if range.count < ArchiveDecodingState.sharingThreshold { return Data(plist.bytes[range]) }
                if let existing = state.sharedData[range.lowerBound] { return existing }
                let data = Data(plist.bytes[range])
                state.sharedData[range.lowerBound] = data
                return data
            case .dictionary(let keys, let values):
                if let inner = try field("NS.data", keys: keys, values: values, owner: slot.objectIndex)
                    ?? field("NS.bytes", keys: keys, values: values, owner: slot.objectIndex) {
                    return try unboxData(from: inner, at: path)
                }
            default: break
            }
            throw typeMismatch(Data.self, found: object, slot: slot, at: path)
        }
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
        let path = path()
        let object = try decoder.object(in: slot, expecting: Date.self, at: path)
        if !decoder.state.options.readsNSDate { return try decoder.decodeDateWithStrategy(from: slot, at: path) }
        return try decoder.reading(slot, path) {
            switch object {
            case .date(let seconds):
                return Date(timeIntervalSinceReferenceDate: seconds)
            case .dictionary(let keys, let values):
                let time = try decoder.requiredField("NS.time", of: Date.self, keys: keys, values: values, slot: slot, path: path)
                return Date(timeIntervalSinceReferenceDate: try decoder.unboxDouble(from: time, at: path))
            default:
                throw decoder.typeMismatch(Date.self, found: object, slot: slot, at: path)
            }
        }
    }
}

extension URL: _ArchiveSpecialDecodable {
    /// NSURL's `{NS.base, NS.relative}`, or a plain string.
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> URL {
        let path = path()
        let object = try decoder.object(in: slot, expecting: URL.self, at: path)
        return try decoder.reading(slot, path) {
            var base: URL?
            let relative: String
            switch object {
            case .asciiString, .utf16String:
                relative = try decoder.unboxString(from: slot, at: path)
            case .dictionary(let keys, let values):
                let relativeSlot = try decoder.requiredField("NS.relative", of: URL.self, keys: keys, values: values, slot: slot, path: path)
                relative = try decoder.unboxString(from: relativeSlot, at: path)
                if let baseSlot = try decoder.field("NS.base", keys: keys, values: values, owner: slot.objectIndex),
                   !decoder.isNil(baseSlot), case .uid(let baseUID) = baseSlot {
                    base = try decoder.withObject(baseUID, at: path) {
                        try URL._archiveDecode(from: decoder, slot: baseSlot, at: path)
                    }
                }
            default:
                throw decoder.typeMismatch(URL.self, found: object, slot: slot, at: path)
            }
            guard let url = URL(string: relative, relativeTo: base) else {
                throw decoder.corrupted(at: path, slot: slot, "'\(relative)' is not a valid URL")
            }
            return url
        }
    }
}

extension UUID: _ArchiveSpecialDecodable {
    /// NSUUID's `{NS.uuidbytes}` (16 bytes), or a UUID string.
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> UUID {
        let path = path()
        let object = try decoder.object(in: slot, expecting: UUID.self, at: path)
        return try decoder.reading(slot, path) {
            switch object {
            case .asciiString, .utf16String:
                let string = try decoder.unboxString(from: slot, at: path)
                guard let uuid = UUID(uuidString: string) else {
                    throw decoder.corrupted(at: path, slot: slot, "'\(string)' is not a UUID")
                }
                return uuid
            case .dictionary(let keys, let values):
                let bytesSlot = try decoder.requiredField("NS.uuidbytes", of: UUID.self, keys: keys, values: values, slot: slot, path: path)
                let bytes = try decoder.unboxData(from: bytesSlot, at: path)
                guard bytes.count == 16 else {
                    throw decoder.corrupted(at: path, slot: slot, "NS.uuidbytes has \(bytes.count) bytes, not 16")
                }
                let b = [UInt8](bytes)
                return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                                   b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
            default:
                throw decoder.typeMismatch(UUID.self, found: object, slot: slot, at: path)
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
                // Exact digits as text (how a Decimal travels through Foundation's archiver on Linux).
                let text = try decoder.unboxString(from: slot, at: path)
                guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw decoder.corrupted(at: path, slot: slot, "'\(text)' is not a decimal number")
                }
                return value
            case .unsignedInteger(let u): return Decimal(u)
            case .real(let d): return Decimal(d)
            case .float(let f): return Decimal(Double(f))
            case .dictionary(let keys, let values):
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
                let byteOrder = try number("NS.mantissa.bo")
                let mantissaSlot = try decoder.requiredField("NS.mantissa", of: Decimal.self, keys: keys, values: values, slot: slot, path: path)
                let mantissa = [UInt8](try decoder.unboxData(from: mantissaSlot, at: path))
                guard (-128...127).contains(exponent), (0...8).contains(length), mantissa.count == 16 else {
                    throw decoder.corrupted(at: path, slot: slot, "NSDecimalNumber fields are out of range (exponent \(exponent), length \(length), \(mantissa.count) mantissa bytes)")
                }
                var words = [UInt16](repeating: 0, count: 8)
                for i in 0..<8 {
                    let low = UInt16(mantissa[2 * i]), high = UInt16(mantissa[2 * i + 1])
                    // Byte order 1 is little-endian; anything else was written big-endian.
                    words[i] = byteOrder == 1 ? high << 8 | low : low << 8 | high
                }
                words.removeLast(8 - Int(length))
                return DecimalLayout(exponent: Int(exponent), isNegative: try flag("NS.negative"), words: words).decimal
            default:
                throw decoder.typeMismatch(Decimal.self, found: object, slot: slot, at: path)
            }
        }
    }
}

extension Dictionary: _ArchiveSpecialDecodable where Key: Decodable, Value: Decodable {
    /// From an NSDictionary (any key type), or from an object's fields (string keys).
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Dictionary {
        let path = path()
        guard case .uid(let uid) = slot, uid != 0 else {
            if decoder.isNil(slot) { throw decoder.valueNotFound(Dictionary.self, at: path) }
            let object = try decoder.object(in: slot, expecting: Dictionary.self, at: path)
            throw decoder.typeMismatch(Dictionary.self, found: object, slot: slot, at: path)
        }
        return try decoder.withObject(uid, at: path) {
            let (layout, _) = try ArchiveKeyedDecodingContainer<ArchiveCodingKey>.layout(of: slot, decoder: decoder, path: path)
            let plist = decoder.plist
            var result: [Key: Value] = [:]
            switch layout {
            case .dictionary(let keys, let values):
                result.reserveCapacity(keys.count)
                for i in 0..<keys.count {
                    let entryPath = path.appending(index: i)
                    try decoder.countValue(at: entryPath, slot: slot)
                    let (keySlot, valueSlot) = try decoder.reading(slot, entryPath) {
                        (try decoder.slot(forValueAt: try plist.ref(keys, i), owner: uid),
                         try decoder.slot(forValueAt: try plist.ref(values, i), owner: uid))
                    }
                    let key = try decoder.unbox(Key.self, from: keySlot, at: entryPath)
                    result[key] = try decoder.unbox(Value.self, from: valueSlot, at: entryPath)
                }
            case .fields(let keys, let values):
                for i in 0..<keys.count {
                    let entryPath = path.appending(index: i)
                    let (name, keyRef, valueRef) = try decoder.reading(slot, entryPath) {
                        let keyRef = try plist.ref(keys, i)
                        return (try plist.string(keyRef), keyRef, try plist.ref(values, i))
                    }
                    // Skip `$class` and other reserved keys.
                    guard let name, ArchiveKeyEscaping.unescape(name) != nil else { continue }
                    let key = try decoder.unbox(Key.self, from: .inline(ref: keyRef, owner: uid), at: entryPath)
                    let valueSlot = try decoder.reading(slot, entryPath) { try decoder.slot(forValueAt: valueRef, owner: uid) }
                    result[key] = try decoder.unbox(Value.self, from: valueSlot, at: entryPath)
                }
            }
            return result
        }
    }
}
