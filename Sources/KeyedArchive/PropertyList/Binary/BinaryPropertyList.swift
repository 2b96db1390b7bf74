import Foundation

/// A lazily parsed binary property list (`bplist00`).
///
/// Creating one validates the header and the trailer only; objects are parsed on demand
/// from the offset table, so reading one field of a large archive touches only the bytes
/// of that field. Every offset, reference and length is checked before it is used:
/// malformed input throws a ``PropertyListError``, it never traps.
///
/// ```swift
/// let plist = try BinaryPropertyList(data)
/// let value = try plist.topValue()          // the whole tree
/// ```
package struct BinaryPropertyList: Sendable {
    /// The file's bytes, borrowed from their owner (see ``PropertyListBytes``).
    let bytes: PropertyListBytes
    /// What this property list owns: its own copy of ``bytes`` (``init(_:)``) and the
    /// report of repeated keys. `nil` for a borrowed property list without repeated keys
    /// (the decoder's, almost always): the decoder copies its property list on hot paths,
    /// and a copy with no reference to count is a plain copy of its bytes.
    private var owner: PropertyListOwner?
    /// Width in bytes of each offset-table entry (1…8).
    let offsetSize: Int
    /// Width in bytes of each object reference (1…8).
    let refSize: Int
    /// Number of objects in the offset table.
    package let objectCount: Int
    /// Reference of the top object.
    package let topObject: Int
    /// Where the offset table starts; every object lies before it.
    let offsetTableStart: Int
    /// The keys that dictionaries held more than once, when this property list was made by
    /// ``resolvingDuplicateKeys(keepingFirst:)`` (which drops the extra entries).
    var duplicateKeys: [PropertyListDuplicateKey] {
        get { owner?.duplicateKeys ?? [] }
        set { owner = PropertyListOwner(copy: owner?.copy, duplicateKeys: newValue) }
    }
    /// The check of each dictionary as it is first parsed, when duplicate keys are checked
    /// as the file is read (see ``DuplicateKeyLazyCheck``). Not counted: it lives as long as
    /// the borrowed bytes do (``PropertyListInput`` keeps it during the read), and a
    /// property list is never used past them (a decoder kept longer reads ``none``). Unmanaged,
    /// so that using it retains nothing (an `unowned(unsafe)` one was retained per dictionary).
    var lazyKeyCheck: Unmanaged<DuplicateKeyLazyCheck>?

    /// Validates the header and trailer of `bytes`, borrowed: the result must not outlive
    /// them (see ``PropertyListInput``).
    init(borrowing bytes: UnsafeRawBufferPointer) throws {
        try self.init(bytes: PropertyListBytes(bytes), copy: nil)
    }

    /// Validates the header and trailer of a copy of `data`, which this property list owns
    /// (for tests and tools that keep one; readers borrow the bytes instead, through
    /// ``PropertyListInput``).
    ///
    /// - Throws: ``PropertyListError`` when the data is not a sound `bplist00`.
    package init(_ data: Data) throws {
        let copy = PropertyListBytesCopy(data)
        try self.init(bytes: copy.bytes, copy: copy)
    }

    /// ``init(_:)`` for an array of bytes.
    package init(bytes: [UInt8]) throws {
        try self.init(Data(bytes))
    }

    /// No objects and no bytes: every read of it throws (what a decoder reads once its
    /// decode has returned).
    static let none = BinaryPropertyList()

    private init() {
        bytes = .none
        owner = nil
        offsetSize = 1
        refSize = 1
        objectCount = 0
        topObject = 0
        offsetTableStart = 0
    }

    /// Validates the header and trailer of `bytes`.
    private init(bytes: PropertyListBytes, copy: PropertyListBytesCopy?) throws {
        self.bytes = bytes
        owner = copy.map { PropertyListOwner(copy: $0, duplicateKeys: []) }
        let trailerSize = 32
        guard bytes.count >= 8 + 1 + trailerSize else {
            throw PropertyListError("binary property list is truncated: \(bytes.count) bytes is shorter than a header and trailer")
        }
        guard bytes[0] == 0x62, bytes[1] == 0x70, bytes[2] == 0x6C, bytes[3] == 0x69,
              bytes[4] == 0x73, bytes[5] == 0x74, bytes[6] == 0x30, bytes[7] == 0x30
        else { throw PropertyListError("missing bplist00 header") }
        let trailer = bytes.count - trailerSize
        offsetSize = Int(bytes[trailer + 6])
        refSize = Int(bytes[trailer + 7])
        let count = Self.readBigEndian(bytes, at: trailer + 8, size: 8)
        let top = Self.readBigEndian(bytes, at: trailer + 16, size: 8)
        let tableStart = Self.readBigEndian(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize) else {
            throw Self.truncated(bytes.count, "trailer: offset size \(offsetSize) is not 1…8")
        }
        guard (1...8).contains(refSize) else {
            throw Self.truncated(bytes.count, "trailer: reference size \(refSize) is not 1…8")
        }
        guard count >= 1 else { throw Self.truncated(bytes.count, "trailer: no objects") }
        guard top < count else {
            throw Self.truncated(bytes.count, "trailer: top object \(top) is not below the object count \(count)")
        }
        guard tableStart >= 9, tableStart < UInt64(trailer) else {
            throw Self.truncated(bytes.count, "trailer: offset table at \(tableStart) is outside the file")
        }
        // The table must fit between its start and the trailer; count × size cannot
        // overflow because count is bounded by the file length first.
        guard count <= UInt64(trailer), count * UInt64(offsetSize) <= UInt64(trailer) - tableStart else {
            throw Self.truncated(bytes.count, "trailer: offset table of \(count) × \(offsetSize) bytes does not fit in the file")
        }
        if refSize < 8, (count - 1) >> (8 * UInt64(refSize)) != 0 {
            throw Self.truncated(bytes.count, "trailer: reference size \(refSize) is too narrow for \(count) objects")
        }
        if offsetSize < 8, (tableStart - 1) >> (8 * UInt64(offsetSize)) != 0 {
            throw Self.truncated(bytes.count, "trailer: offset size \(offsetSize) is too narrow for offset \(tableStart)")
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTableStart = Int(tableStart)
    }

    /// A trailer that does not describe the file: almost always a file cut short (the
    /// trailer is its last 32 bytes), so the message says so, with where it was read.
    static func truncated(_ size: Int, _ detail: String) -> PropertyListError {
        PropertyListError("binary property list is truncated or damaged (\(size) bytes; trailer read at offset \(max(0, size - 32))): \(detail)")
    }

    /// The error for object `ref`, its message built out of line. The readers below are
    /// inlined into every hot path of the decoder; a message interpolated in place made
    /// each copy kilobytes of code that never runs on good input (instruction-cache misses).
    @inline(never)
    static func failure(_ ref: Int, _ detail: () -> String) -> PropertyListError {
        PropertyListError("object \(ref): \(detail())")
    }

    /// ``failure(_:_:)`` for a message not about one object.
    @inline(never)
    static func failure(_ message: () -> String) -> PropertyListError {
        PropertyListError(message())
    }

    /// Reads an unsigned big-endian integer of `size` (≤ 8) bytes; the caller checked the range.
    @inline(__always)
    static func readBigEndian(_ bytes: PropertyListBytes, at position: Int, size: Int) -> UInt64 {
        bytes.bigEndian(at: position, size: size)
    }

    // MARK: - Shallow access

    /// A run of object references inside a container: `count` references of the list's
    /// width starting at byte `start`.
    struct RefList: Sendable {
        let start: Int
        let count: Int
    }

    /// One object, parsed without its children.
    enum Object {
        case bool(Bool)
        case integer(Int64)
        case unsignedInteger(UInt64)
        /// Only for values outside `Int64.min...UInt64.max`.
        case wideInteger(PropertyListWideInteger)
        case real(Double)
        case float(Float)
        case date(Double)
        case data(Range<Int>)
        case asciiString(Range<Int>)
        case utf16String(Range<Int>)
        case uid(UInt64)
        case array(RefList)
        case dictionary(keys: RefList, values: RefList)
    }

    /// The byte offset of object `ref`.
    @inline(__always)
    func offset(of ref: Int) throws -> Int {
        guard let offset = checkedOffset(of: ref) else { throw offsetFailure(ref) }
        return offset
    }

    /// The byte offset of object `ref`, or nil when the reference or the offset stored for
    /// it is out of range (``offset(of:)`` says which).
    @inline(__always)
    func checkedOffset(of ref: Int) -> Int? {
        guard ref >= 0, ref < objectCount else { return nil }
        // ref < objectCount, and objectCount × offsetSize fits before the trailer (init).
        let offset = Self.readBigEndian(bytes, at: offsetTableStart + ref * offsetSize, size: offsetSize)
        guard offset >= 8, offset < UInt64(offsetTableStart) else { return nil }
        return Int(offset)
    }

    @inline(never)
    private func offsetFailure(_ ref: Int) -> PropertyListError {
        guard ref >= 0, ref < objectCount else {
            return PropertyListError("object reference \(ref) is out of range (\(objectCount) objects)")
        }
        let offset = Self.readBigEndian(bytes, at: offsetTableStart + ref * offsetSize, size: offsetSize)
        return PropertyListError("object \(ref): offset \(offset) is outside the object area")
    }

    /// The `index`-th reference of `list`, checked against the object count.
    @inline(__always)
    func ref(_ list: RefList, _ index: Int) throws -> Int {
        // A list read against ``none`` (a decoder kept past its decode) reads zeros, and
        // reference 0 is out of range there.
        let value = Self.refBits(list, index, in: bytes, refSize: refSize)
        guard value < UInt64(objectCount) else {
            throw Self.failure { "reference \(value) at byte \(list.start + index * refSize) is out of range (\(objectCount) objects)" }
        }
        return Int(value)
    }

    /// The `index`-th reference of `list` as it is stored, without ``ref(_:_:)``'s check
    /// against the object count and its error: for readers that check it themselves, or
    /// compare it with a reference checked before. The list was checked to lie before the
    /// offset table when it was read, and `index` is below its count.
    @inline(__always)
    func refBits(_ list: RefList, _ index: Int) -> UInt64 {
        Self.refBits(list, index, in: bytes, refSize: refSize)
    }

    /// ``refBits(_:_:)`` with the property list's `bytes` and `refSize` held apart: the
    /// decoder's per-field paths read them once, not the whole property list per field.
    @inline(__always)
    static func refBits(_ list: RefList, _ index: Int, in bytes: PropertyListBytes, refSize: Int) -> UInt64 {
        bytes.bigEndian(at: list.start &+ index &* refSize, size: refSize)
    }

    /// Whether object `ref` is an array, set or dictionary (false when `ref` is out of range:
    /// reading it reports that).
    @inline(__always)
    func isContainer(_ ref: Int) -> Bool {
        guard let start = try? offset(of: ref) else { return false }
        switch bytes[start] >> 4 {
        case 0xA, 0xC, 0xD: return true
        default: return false
        }
    }

    /// Whether object `ref` may be a dictionary of one entry (false when `ref` is out of
    /// range): a marker read, no parse. True for `0xD1`, and for `0xDF`, whose count
    /// follows the marker.
    @inline(__always)
    func mayHoldOneEntry(_ ref: Int) -> Bool {
        guard let start = checkedOffset(of: ref) else { return false }
        return bytes[start] == 0xD1 || bytes[start] == 0xDF
    }

    /// Parses the marker of object `ref` and returns its shallow form.
    func object(_ ref: Int) throws -> Object {
        let start = try offset(of: ref)
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        let end = offsetTableStart
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw Self.failure(ref) { "unsupported marker 0x\(String(marker, radix: 16))" }
            }
        case 0x1:
            return try integer(at: start, ref: ref)
        case 0x2:
            if info == 2, start + 5 <= end {
                return .float(Float(bitPattern: UInt32(Self.readBigEndian(bytes, at: start + 1, size: 4))))
            }
            if info == 3, start + 9 <= end {
                return .real(Double(bitPattern: Self.readBigEndian(bytes, at: start + 1, size: 8)))
            }
            throw Self.failure(ref) { "bad real (marker 0x\(String(marker, radix: 16)))" }
        case 0x3:
            guard marker == 0x33, start + 9 <= end else {
                throw Self.failure(ref) { "bad date (marker 0x\(String(marker, radix: 16)))" }
            }
            return .date(Double(bitPattern: Self.readBigEndian(bytes, at: start + 1, size: 8)))
        case 0x4, 0x5, 0x6:
            let (count, body) = try lengthAndBody(start: start, info: info, ref: ref)
            let unit = marker >> 4 == 0x6 ? 2 : 1
            guard count <= (end - body) / unit else {
                throw Self.failure(ref) { "length \(count) runs past the object area" }
            }
            let range = body..<(body + count * unit)
            switch marker >> 4 {
            case 0x4: return .data(range)
            case 0x5: return .asciiString(range)
            default: return .utf16String(range)
            }
        case 0x8:
            return .uid(try uidBody(start: start, info: info, ref: ref))
        case 0xA, 0xC:
            let (count, body) = try lengthAndBody(start: start, info: info, ref: ref)
            guard count <= (end - body) / refSize else {
                throw Self.failure(ref) { "\(count) references run past the object area" }
            }
            return .array(RefList(start: body, count: count))
        case 0xD:
            let (count, body) = try lengthAndBody(start: start, info: info, ref: ref)
            guard count <= (end - body) / refSize / 2 else {
                throw Self.failure(ref) { "\(count) dictionary entries run past the object area" }
            }
            let keys = RefList(start: body, count: count)
            if let lazyKeyCheck { try lazyKeyCheck._withUnsafeGuaranteedRef { try $0.check(ref, keys: keys, in: self) } }
            return .dictionary(keys: keys, values: RefList(start: body + count * refSize, count: count))
        default:
            throw Self.failure(ref) { "unknown marker 0x\(String(marker, radix: 16))" }
        }
    }

    /// ``object(_:)`` of a property list stored in a class, read where it is stored (through
    /// `inout`, which no other code can change meanwhile), not copied first.
    @inline(__always)
    static func object(_ ref: Int, inPlace plist: inout BinaryPropertyList) throws -> Object {
        try plist.object(ref)
    }

    /// The value of object `ref` when it is a UID, else nil: what `object(_:)` reads for
    /// a UID, without parsing any other kind of object (the commonest question a decoder
    /// asks of a field's value).
    @inline(__always)
    func uid(_ ref: Int) throws -> UInt64? {
        let start = try offset(of: ref)
        let marker = bytes[start]
        guard marker >> 4 == 0x8 else { return nil }
        return try uidBody(start: start, info: Int(marker & 0x0F), ref: ref)
    }

    /// The body of a UID object (`0x8n`, n + 1 bytes) at `start`.
    @inline(__always)
    private func uidBody(start: Int, info: Int, ref: Int) throws -> UInt64 {
        let size = info + 1
        guard start + 1 + size <= offsetTableStart else {
            throw Self.failure(ref) { "UID runs past the object area" }
        }
        if size > 8 {
            // A 9…16-byte UID is accepted when its high bytes are zero.
            for i in (start + 1)..<(start + 1 + size - 8) where bytes[i] != 0 {
                throw Self.failure(ref) { "UID is larger than 64 bits" }
            }
            return Self.readBigEndian(bytes, at: start + 1 + size - 8, size: 8)
        }
        return Self.readBigEndian(bytes, at: start + 1, size: size)
    }

    /// Reads an integer object (`0x1n`) at `start`: 1, 2 and 4 bytes unsigned, 8 and 16
    /// bytes signed (as CoreFoundation reads them, which keeps only the low 64 bits of a
    /// 16-byte one), and 32 bytes signed for values up to `UInt128.max`, which is the
    /// form KeyedArchive writes above `Int128.max`. Values that fit in 64 bits read as
    /// `.integer`/`.unsignedInteger` whatever their width.
    private func integer(at start: Int, ref: Int) throws -> Object {
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        guard info <= 5 else {
            throw Self.failure(ref) { "integer of 2^\(info) bytes is not supported" }
        }
        let size = 1 << info
        guard start + 1 + size <= offsetTableStart else {
            throw Self.failure(ref) { "integer of \(size) bytes is truncated (runs past the object area)" }
        }
        switch size {
        case 1, 2, 4:
            return .integer(Int64(Self.readBigEndian(bytes, at: start + 1, size: size)))
        case 8:
            return .integer(Int64(bitPattern: Self.readBigEndian(bytes, at: start + 1, size: 8)))
        case 16:
            let high = Self.readBigEndian(bytes, at: start + 1, size: 8)
            let low = Self.readBigEndian(bytes, at: start + 9, size: 8)
            if high >> 63 == 0 { return Self.integerObject(isNegative: false, high, low) }
            let magnitude = PropertyListWideInteger.negate(high, low)
            return Self.integerObject(isNegative: true, magnitude.high, magnitude.low)
        default:
            let fill0 = Self.readBigEndian(bytes, at: start + 1, size: 8)
            let fill1 = Self.readBigEndian(bytes, at: start + 9, size: 8)
            let high = Self.readBigEndian(bytes, at: start + 17, size: 8)
            let low = Self.readBigEndian(bytes, at: start + 25, size: 8)
            if fill0 == 0, fill1 == 0 { return Self.integerObject(isNegative: false, high, low) }
            if fill0 == .max, fill1 == .max, high | low != 0 {
                let magnitude = PropertyListWideInteger.negate(high, low)
                return Self.integerObject(isNegative: true, magnitude.high, magnitude.low)
            }
            throw Self.failure(ref) { "32-byte integer does not fit in 128 bits" }
        }
    }

    /// The narrowest integer object for a sign and 128-bit magnitude.
    private static func integerObject(isNegative: Bool, _ high: UInt64, _ low: UInt64) -> Object {
        PropertyListWideInteger(isNegative: isNegative, magnitudeHigh: high, magnitudeLow: low)
            .narrowest(Object.integer, Object.unsignedInteger, Object.wideInteger)
    }

    /// The element count of a data/string/array/dict object and where its body starts.
    /// Counts of 15 or more are stored as an integer object after the marker.
    @inline(__always)
    func lengthAndBody(start: Int, info: Int, ref: Int) throws -> (count: Int, body: Int) {
        if info != 0x0F { return (info, start + 1) }
        let position = start + 1
        guard position < offsetTableStart, bytes[position] >> 4 == 0x1 else {
            throw Self.failure(ref) { "missing length integer" }
        }
        let sizeExponent = Int(bytes[position] & 0x0F)
        guard sizeExponent <= 3 else {
            throw Self.failure(ref) { "length integer of 2^\(sizeExponent) bytes" }
        }
        let size = 1 << sizeExponent
        guard position + 1 + size <= offsetTableStart else {
            throw Self.failure(ref) { "length runs past the object area" }
        }
        let count = Self.readBigEndian(bytes, at: position + 1, size: size)
        guard count <= UInt64(offsetTableStart) else {
            throw Self.failure(ref) { "length \(count) is larger than the file" }
        }
        return (Int(count), position + 1 + size)
    }

    // MARK: - Typed shallow readers

    /// Decodes an ASCII string body. Bytes above 0x7F are read as Latin-1 rather than
    /// rejected, as CoreFoundation does.
    ///
    /// (Read by ``PropertyListBytes``: a call to a method of a property list kept in a
    /// class, as the decoder keeps it, copies the property list and retains what it owns.)
    @inline(__always)
    func asciiString(_ range: Range<Int>) -> String {
        bytes.asciiString(range)
    }

    /// Decodes a UTF-16BE string body, rejecting unpaired surrogates.
    @inline(__always)
    func utf16String(_ range: Range<Int>, ref: Int) throws -> String {
        try bytes.utf16String(range, ref: ref)
    }

    /// The string value of object `ref`, or `nil` when it is not a string.
    func string(_ ref: Int) throws -> String? {
        switch try object(ref) {
        case .asciiString(let range): return asciiString(range)
        case .utf16String(let range): return try utf16String(range, ref: ref)
        default: return nil
        }
    }

    /// Whether object `ref` is the string whose UTF-8 bytes are `key`. An ASCII string (the
    /// usual key) is compared byte for byte in place: no `String`, no shallow object.
    @inline(__always)
    func stringEquals(_ ref: Int, utf8 key: UnsafeBufferPointer<UInt8>) throws -> Bool {
        let start = try offset(of: ref)
        let marker = bytes[start]
        guard marker >> 4 == 0x5 else {
            guard marker >> 4 == 0x6 else { return false }
            // UTF-16: made into a string only when its length matches the key's.
            let wanted = String(decoding: key, as: UTF8.self)
            let (units, _) = marker & 0x0F == 0x0F ? try lengthAndBody(start: start, info: 0x0F, ref: ref) : (Int(marker & 0x0F), start + 1)
            guard units == wanted.utf16.count else { return false }
            return try string(ref) == wanted
        }
        var count = Int(marker & 0x0F)
        var body = start + 1
        if count == 0x0F { (count, body) = try lengthAndBody(start: start, info: count, ref: ref) }
        guard count == key.count, count <= offsetTableStart - body else { return false }
        for index in 0..<count where bytes[body + index] != key[index] {
            return false
        }
        return true
    }

    /// Whether object `ref` is the string `key`.
    func stringEquals(_ ref: Int, _ key: String) throws -> Bool {
        var key = key
        return try key.withUTF8 { try stringEquals(ref, utf8: $0) }
    }

    // MARK: - Deep values

    /// The whole tree under the top object.
    ///
    /// - Parameter maxDepth: containers nested deeper than this throw (protection against
    ///   malicious input; Apple's own reader uses 512).
    package func topValue(maxDepth: Int = 512) throws -> PropertyListValue {
        try value(at: topObject, maxDepth: maxDepth)
    }

    /// The tree under object `ref`. A container that contains itself, nesting deeper than
    /// `maxDepth`, or shared containers that would expand the tree past a size
    /// proportional to the file all throw.
    package func value(at ref: Int, maxDepth: Int = 512) throws -> PropertyListValue {
        var walker = TreeWalker(plist: self, maxDepth: maxDepth)
        return try walker.value(ref, depth: 0)
    }

    /// State of one deep read: which containers are open (cycle check) and how many
    /// nodes have been produced (fan-out check).
    private struct TreeWalker {
        let plist: BinaryPropertyList
        let maxDepth: Int
        var open: Set<Int> = []
        var budget: Int
        /// Long strings and data made so far, by reference: an object many references share
        /// is made once and then shared, not copied at each reference (issue 53 §6).
        var leaves: [Int: PropertyListValue] = [:]

        init(plist: BinaryPropertyList, maxDepth: Int) {
            self.plist = plist
            self.maxDepth = maxDepth
            // A plist cannot legitimately describe more nodes than a generous multiple of
            // its object count unless containers are shared, which real writers do not do.
            budget = plist.objectCount.multipliedReportingOverflow(by: 16).partialValue &+ 65_536
        }

        mutating func value(_ ref: Int, depth: Int) throws -> PropertyListValue {
            budget -= 1
            guard budget >= 0 else {
                throw PropertyListError("object \(ref): shared containers expand beyond the size limit")
            }
            let object = try plist.object(ref)
            let length: Int
            switch object {
            case .asciiString(let range), .utf16String(let range), .data(let range): length = range.count
            default: length = 0
            }
            if length >= 32 {
                if let known = leaves[ref] { return known }
                let leaf = try plist.scalarValue(object, ref: ref) ?? .array([])  // not reached: a leaf
                leaves[ref] = leaf
                return leaf
            }
            if let scalar = try plist.scalarValue(object, ref: ref) { return scalar }
            switch object {
            case .array(let list):
                try enter(ref, depth: depth)
                defer { open.remove(ref) }
                var items = [PropertyListValue]()
                items.reserveCapacity(list.count)
                for i in 0..<list.count {
                    items.append(try value(try plist.ref(list, i), depth: depth + 1))
                }
                return .array(items)
            case .dictionary(let keys, let values):
                try enter(ref, depth: depth)
                defer { open.remove(ref) }
                var entries = [PropertyListEntry]()
                entries.reserveCapacity(keys.count)
                for i in 0..<keys.count {
                    let keyRef = try plist.ref(keys, i)
                    guard let key = try plist.string(keyRef) else {
                        throw PropertyListError("object \(ref): dictionary key \(i) (object \(keyRef)) is not a string")
                    }
                    entries.append(PropertyListEntry(key: key, value: try value(try plist.ref(values, i), depth: depth + 1)))
                }
                return .dictionary(entries)
            default:
                return .array([])  // not reached: scalars returned above
            }
        }

        mutating func enter(_ ref: Int, depth: Int) throws {
            guard depth < maxDepth else {
                throw PropertyListError("object \(ref): nesting deeper than \(maxDepth)")
            }
            guard open.insert(ref).inserted else {
                throw PropertyListError("object \(ref): container contains itself")
            }
        }
    }
}
