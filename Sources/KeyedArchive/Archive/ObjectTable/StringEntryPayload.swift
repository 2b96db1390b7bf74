/// The payload of a `.string` entry of an ``ArchiveObjectTable``: the string's position among
/// the table's strings (low 40 bits) and, above them, its layout as a binary plist object —
/// its size doubled, plus 1 when it is all ASCII — or 0 when that does not fit in 24 bits (a
/// string of 8 MB or more). Made once, when the string is stored: the binary writer then
/// sizes every string in its first pass without reading it, and writes an ASCII one in its
/// second without checking its bytes again.
enum StringEntryPayload {
    private static let positionBits: UInt64 = 40
    private static let positionMask: UInt64 = 1 << positionBits - 1
    private static let layoutLimit = 1 << (64 - positionBits)

    /// The payload of `value`, stored at `position` (below 2^40: a table of that many
    /// strings would take 16 TB).
    @inline(__always)
    static func make(position: Int, of value: String) -> UInt64 {
        let utf8 = value.utf8.count
        let utf16 = value.utf16.count
        let size = BinaryPlistEncoding.stringSize(utf8Count: utf8, utf16Count: utf16)
        let layout = 2 &* size &+ (utf8 == utf16 ? 1 : 0)
        let stored = layout < layoutLimit ? UInt64(layout) << positionBits : 0
        return stored | UInt64(truncatingIfNeeded: position) & positionMask
    }

    /// The string's position among the table's strings.
    @inline(__always)
    static func position(_ payload: UInt64) -> Int {
        Int(truncatingIfNeeded: payload & positionMask)
    }

    /// The string's size as a binary plist object and whether it is all ASCII, or nil when
    /// not recorded (then ``BinaryPlistEncoding/stringSize(_:)`` of the string gives it).
    @inline(__always)
    static func layout(_ payload: UInt64) -> (size: Int, isASCII: Bool)? {
        let layout = Int(truncatingIfNeeded: payload >> positionBits)
        return layout == 0 ? nil : (layout >> 1, layout & 1 == 1)
    }
}
