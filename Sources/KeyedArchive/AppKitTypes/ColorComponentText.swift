import Foundation

/// The text AppKit stores colour components in (`NSRGB`, `NSWhite`, `NSCMYK`,
/// `NSComponents`): ASCII decimal numbers separated by spaces, the first three
/// NUL-terminated.
enum ColorComponentText {
    /// The numbers in `bytes`; nil when a number is not a finite decimal (NaN, infinity,
    /// a stray character) or there is none. Linear in the byte count.
    static func parse(_ bytes: Data) -> [Double]? {
        var numbers: [Double] = []
        var token: [UInt8] = []
        var ended = false
        func flush() -> Bool {
            defer { token.removeAll(keepingCapacity: true) }
            guard !token.isEmpty else { return true }
            guard token.count <= 64, let text = String(bytes: token, encoding: .ascii),
                  let value = Double(text), value.isFinite else { return false }
            numbers.append(value)
            return true
        }
        for byte in bytes {
            switch byte {
            case 0:
                ended = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                guard !ended, flush() else { return nil }
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
                 UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !ended else { return nil }
                token.append(byte)
            default:
                return nil
            }
        }
        guard flush(), !numbers.isEmpty else { return nil }
        return numbers
    }

    /// `numbers` as AppKit writes them: up to ten significant digits, separated by spaces,
    /// followed by a NUL when `terminated`.
    static func format(_ numbers: [Double], terminated: Bool) -> Data {
        var text = numbers.map { String(format: "%.10g", $0) }.joined(separator: " ")
        if terminated { text += "\u{0}" }
        return Data(text.utf8)
    }
}
