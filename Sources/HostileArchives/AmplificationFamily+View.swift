import Foundation

// The amplification families of issue 53 that the untyped readers met: colours sharing one
// long component text (each colour interpreted by `KeyedArchiveView.appKitValue(of:)`), and
// one data value referenced from half a million places (`render()` and `dump`).

extension AmplificationFamily {
    /// Whether the shared value is a colour's component text.
    var isColor: Bool { self == .sharedColorText || self == .sharedColorFallback }
    /// Whether references stay one byte wide (as many references as the bytes allow; the
    /// data family has a handful of objects, so they never widen).
    var usesNarrowReferences: Bool { self == .sharedData }
}

extension ArchiveGraph {
    /// The root of `family`'s archive: `references` colours or references sharing a value of
    /// about `length` bytes.
    mutating func viewAmplification(_ family: AmplificationFamily, references n: Int, length: Int) -> UInt64 {
        switch family {
        case .sharedColorText:
            let text = colorText(length: length)
            let space = plist.shared(.integer(1))
            return array(of: (0..<n).map { _ in addObject(className: "NSColor", fields: [("NSColorSpace", space), ("NSRGB", text)]) })
        case .sharedColorFallback:
            let fallback = uid(addObject(className: "NSColor", fields: [("NSColorSpace", plist.shared(.integer(1))),
                                                                         ("NSRGB", colorText(length: length))]))
            let space = plist.shared(.integer(6)), catalog = string("System"), name = string("labelColor")
            return array(of: (0..<n).map { _ in
                addObject(className: "NSColor", fields: [("NSColorSpace", space), ("NSCatalogName", catalog),
                                                         ("NSColorName", name), ("NSColor", fallback)])
            })
        default:
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            return arrayRepeating(.data(bytes), count: n)
        }
    }

    /// An `NSRGB` data object of `length` bytes that AppKit reads as one colour: spaces, then
    /// red, green, blue and alpha, NUL-terminated.
    private mutating func colorText(length: Int) -> Int {
        let numbers = Array("0.5 0.25 0.125 1".utf8) + [0]
        return plist.add(.data(Array(repeating: UInt8(ascii: " "), count: max(0, length - numbers.count)) + numbers))
    }
}
