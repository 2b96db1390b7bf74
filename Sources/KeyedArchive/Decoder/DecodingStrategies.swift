import Foundation

// Applying the decoder's non-default strategies. The default paths (NSDate, NSData, keys as
// stored, reals as they are) never come here: each call site tests one precomputed flag.

extension _ArchiveDecoder {
    /// A `Date` under a strategy other than `.nsDate`. (Called after the object is read:
    /// an early return before that crashes the Swift 6.3 optimizer in `Date._archiveDecode`.)
    @inline(never)
    func decodeDateWithStrategy(from slot: ArchiveSlot, at path: CodingPathNode) throws -> Date {
        let date = try decodeDateWithStrategyUnchecked(from: slot, at: path)
        return try finiteDate(sinceReferenceDate: date.timeIntervalSinceReferenceDate, slot: slot, at: path)
    }

    /// The date `seconds` after 2001-01-01; `DecodingError.dataCorrupted` when `seconds` is
    /// NaN or infinite (no point in time, and a `Date` Foundation traps on when printing it).
    /// Every date the decoder returns passes through here.
    /// (The path is built only for the error: a date is a leaf on the hot path.)
    @inline(__always)
    func finiteDate(sinceReferenceDate seconds: Double, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Date {
        guard let date = Date(finiteSecondsSinceReferenceDate: seconds) else {
            throw nonFiniteDate(seconds, slot: slot, at: path())
        }
        return date
    }

    @inline(never)
    private func nonFiniteDate(_ seconds: Double, slot: ArchiveSlot, at path: CodingPathNode) -> DecodingError {
        corrupted(at: path, slot: slot, "the date's time is \(seconds), not a finite number of seconds")
    }

    private func decodeDateWithStrategyUnchecked(from slot: ArchiveSlot, at path: CodingPathNode) throws -> Date {
        switch state.options.date {
        case .nsDate, .deferredToDate:
            return try decodeThrough(slot, at: path) { try Date(from: $0) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(from: slot, at: path))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(from: slot, at: path) / 1000)
        case .iso8601:
            let text = try unboxString(from: slot, at: path)
            guard let date = ISO8601Text.date(from: text) else {
                throw corrupted(at: path, slot: slot, "expected an ISO 8601 date string, found '\(TextExcerpt.of(text))'")
            }
            return date
        case .formatted(let formatter):
            let text = try unboxString(from: slot, at: path)
            guard let date = formatter.date(from: text) else {
                throw corrupted(at: path, slot: slot, "the date string '\(TextExcerpt.of(text))' does not match the formatter's format")
            }
            return date
        case .custom(let decode):
            return try decodeThrough(slot, at: path) { try decode($0) }
        }
    }

    /// `Data` under a strategy other than `.nsData`.
    @inline(never)
    func decodeDataWithStrategy(from slot: ArchiveSlot, at path: CodingPathNode) throws -> Data {
        switch state.options.data {
        case .nsData, .deferredToData:
            return try decodeThrough(slot, at: path) { try Data(from: $0) }
        case .base64:
            // Decoded once per string object, however many places refer to it.
            let ref = try reading(slot, path) { try plistRef(of: slot) }
            if let known = state.parsedBase64[ref] { return known }
            let text = try unboxString(from: slot, at: path)
            try reading(slot, path) { try chargeMade(bytes: text.utf8.count) }
            guard let data = Data(base64Encoded: text) else {
                throw corrupted(at: path, slot: slot, "the string is not valid Base64")
            }
            state.parsedBase64[ref] = data
            return data
        case .custom(let decode):
            return try decodeThrough(slot, at: path) { try decode($0) }
        }
    }

    /// Runs `body` with a decoder of its own at `slot`. The object is already open
    /// (``unbox(_:from:at:)`` entered it), so the closure's nested reads count against the
    /// depth, cycle and work limits.
    private func decodeThrough<R>(_ slot: ArchiveSlot, at path: CodingPathNode, _ body: (any Decoder) throws -> R) throws -> R {
        try body(subDecoder(slot: slot, path: path))
    }

    /// Under `.throw` or `.convertFromString` (only called then): the value a string
    /// stands for, a thrown error for a NaN or infinite real under `.throw`, or nil to read
    /// `object` as usual.
    @inline(never)
    func nonConformingFloat(_ object: BinaryPropertyList.Object, slot: ArchiveSlot, at path: CodingPathNode) throws -> Double? {
        switch state.options.floats {
        case .allow:
            return nil
        case .throw:
            let value: Double
            switch object {
            case .real(let d): value = d
            case .float(let f): value = Double(f)
            default: return nil
            }
            guard value.isFinite else {
                throw corrupted(at: path, slot: slot, "the real \(value) is not a finite number (nonConformingFloatDecodingStrategy is .throw)")
            }
            return nil
        case .convertFromString(let positiveInfinity, let negativeInfinity, let nan):
            switch object {
            case .asciiString, .utf16String:
                switch try unboxString(from: slot, at: path) {
                case positiveInfinity: return .infinity
                case negativeInfinity: return -.infinity
                case nan: return .nan
                default: return nil
                }
            default:
                return nil
            }
        }
    }
}

/// The converted keys of each keyed object met in one `decode` call, so each object's keys
/// are converted once however many lookups it gets (hostile archives with 100,000 keys
/// stay linear).
final class ConvertedKeyTable {
    /// Converted key → position in the object's key list, by key list (start and kind).
    var byKeyList: [Int: [String: Int]] = [:]
}

extension ArchiveKeyedDecodingContainer {
    /// The slot whose converted archive key is `name` (key strategies other than `.useDefaultKeys`).
    @inline(never)
    func findConverted(_ name: String) throws -> ArchiveSlot? {
        let values: BinaryPropertyList.RefList
        switch layout {
        case .fields(_, let list), .dictionary(_, let list): values = list
        }
        guard let index = try convertedKeys()[name], index < values.count else { return nil }
        return try decoder.slot(forValueAt: try decoder.entryRef(values, index), owner: uid)
    }

    /// `allKeys` under a key strategy: the converted keys, in archive order.
    var convertedAllKeys: [Key] {
        guard let map = try? convertedKeys() else { return [] }
        return map.sorted { $0.value < $1.value }.compactMap { Key(stringValue: $0.key) }
    }

    /// Converted key → position, built once per object. When two archive keys convert to
    /// the same key, the first one in the archive wins.
    private func convertedKeys() throws -> [String: Int] {
        let keys: BinaryPropertyList.RefList
        let cacheKey: Int
        switch layout {
        case .fields(let list, _): (keys, cacheKey) = (list, list.start &* 2)
        case .dictionary(let list, _): (keys, cacheKey) = (list, list.start &* 2 &+ 1)
        }
        let table = decoder.state.options.convertedKeys
        if let known = table?.byKeyList[cacheKey] { return known }
        let map = try decoder.reading(.uid(uid), path) {
            try decoder.charge(keys.count)  // built once per object, charged like any key index
            return try buildConvertedKeys(keys)
        }
        table?.byKeyList[cacheKey] = map
        return map
    }

    private func buildConvertedKeys(_ keys: BinaryPropertyList.RefList) throws -> [String: Int] {
        let plist = decoder.plist
        var map: [String: Int] = [:]
        map.reserveCapacity(keys.count)
        for index in 0..<keys.count {
            let stored: String
            switch layout {
            case .fields:
                // `$class` and other reserved keys are never coding keys.
                guard let name = try decoder.userKey(at: try plist.ref(keys, index)) else { continue }
                stored = name
            case .dictionary:
                if let keyTexts {
                    stored = keyTexts[index].text
                    break
                }
                guard let keyUID = try decoder.uid(at: try decoder.entryRef(keys, index)),
                      let name = try decoder.keyString(at: try decoder.objectRef(keyUID)) else { continue }
                stored = name
            }
            let converted: String
            switch decoder.state.options.keys {
            case .useDefaultKeys: converted = stored
            case .convertFromSnakeCase: converted = SnakeCase.toCamelCase(stored)
            case .custom(let convert): converted = convert(path.appending(ArchiveCodingKey(stringValue: stored)).path).stringValue
            }
            if map[converted] == nil { map[converted] = index }
        }
        return map
    }
}
