import Foundation

/// The strings and data values of one document, each made once per property-list object and
/// then shared by every place that refers to it (a `[String]` of one string referenced a
/// million times holds one copy), the bytes made charged to the document's
/// ``ArchiveWorkBudget``. The typed decoder and ``KeyedArchiveView`` read every string and
/// data value they keep through one of these.
///
/// Values shorter than ``sharedLength`` are made at each use, which costs less than a
/// lookup: free when small enough to be stored inline (no allocation), else charged at each
/// use. A file whose offset table points many object numbers at one value's bytes gets one
/// copy per object number, each charged, so memory stays within the budget's bytes either way.
struct SharedLeafValues {
    /// Strings of fewer characters than this (bytes of an ASCII string, UTF-16 units of
    /// another) are mostly stored inline by `String`: made at each use, free.
    static let inlineStringBytes = 16
    /// Data of fewer bytes than this are stored inline by `Data`: made at each use, free.
    static let inlineDataBytes = 15
    /// Values this long or longer are made once per object and shared.
    static let sharedLength = 64

    /// By object number; sized to the property list on first use.
    private var strings: [String?] = []
    private var data: [Data?] = []

    /// The text of object `ref`, already parsed as `object`; `nil` when it is not a string.
    mutating func string(_ object: BinaryPropertyList.Object, ref: Int, in plist: BinaryPropertyList,
                         budget: inout ArchiveWorkBudget) throws -> String? {
        let range: Range<Int>, length: Int
        switch object {
        case .asciiString(let body): (range, length) = (body, body.count)
        case .utf16String(let body): (range, length) = (body, body.count / 2)
        default: return nil
        }
        guard length >= Self.sharedLength, ref >= 0, ref < plist.objectCount else {
            if length >= Self.inlineStringBytes, !budget.chargeMade(bytes: range.count) { throw budget.exhausted(objectIndex: nil) }
            return try Self.make(object, ref: ref, in: plist)
        }
        if strings.isEmpty { strings = [String?](repeating: nil, count: plist.objectCount) }
        if let known = strings[ref] { return known }
        guard budget.chargeMade(bytes: range.count) else { throw budget.exhausted(objectIndex: nil) }
        let made = try Self.make(object, ref: ref, in: plist)
        strings[ref] = made
        return made
    }

    /// The text of object `ref`; `nil` when it is not a string.
    mutating func string(at ref: Int, in plist: BinaryPropertyList, budget: inout ArchiveWorkBudget) throws -> String? {
        try string(try plist.object(ref), ref: ref, in: plist, budget: &budget)
    }

    /// The bytes `range` of data object `ref`.
    mutating func data(_ range: Range<Int>, ref: Int, in plist: BinaryPropertyList, budget: inout ArchiveWorkBudget) throws -> Data {
        guard range.count >= Self.sharedLength, ref >= 0, ref < plist.objectCount else {
            if range.count >= Self.inlineDataBytes, !budget.chargeMade(bytes: range.count) { throw budget.exhausted(objectIndex: nil) }
            return Data(plist.bytes[range])
        }
        if data.isEmpty { data = [Data?](repeating: nil, count: plist.objectCount) }
        if let known = data[ref] { return known }
        guard budget.chargeMade(bytes: range.count) else { throw budget.exhausted(objectIndex: nil) }
        let made = Data(plist.bytes[range])
        data[ref] = made
        return made
    }

    private static func make(_ object: BinaryPropertyList.Object, ref: Int, in plist: BinaryPropertyList) throws -> String? {
        switch object {
        case .asciiString(let range): return plist.asciiString(range)
        case .utf16String(let range): return try plist.utf16String(range, ref: ref)
        default: return nil
        }
    }
}
