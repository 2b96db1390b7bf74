import Foundation

/// The text AppKit stores colour components in (`NSRGB`, `NSWhite`, `NSCMYK`,
/// `NSComponents`): ASCII decimal numbers separated by spaces, the first three
/// NUL-terminated.
enum ColorComponentText {
    /// The numbers in `bytes`; nil when a number is not a finite decimal (NaN, infinity,
    /// a stray character) or there is none. Linear in the byte count, and a few
    /// nanoseconds a byte: the decoder charges every parse to its work budget, so a long
    /// text many colours share costs time in proportion to what the budget allows.
    static func parse(_ bytes: Data) -> [Double]? {
        bytes.withUnsafeBytes { parse(buffer: $0) }
    }

    private static func parse(buffer: UnsafeRawBufferPointer) -> [Double]? {
        var numbers: [Double] = []
        var tokenStart = -1
        var ended = false
        func flush(endingAt end: Int) -> Bool {
            guard tokenStart >= 0 else { return true }
            defer { tokenStart = -1 }
            guard end - tokenStart <= 64,
                  let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: buffer[tokenStart..<end]), as: UTF8.self)),
                  value.isFinite else { return false }
            numbers.append(value)
            return true
        }
        for index in buffer.indices {
            switch buffer[index] {
            case 0:
                // Only NULs may follow the first NUL: no number continues past it.
                guard flush(endingAt: index) else { return nil }
                ended = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                guard !ended, flush(endingAt: index) else { return nil }
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
                 UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !ended else { return nil }
                if tokenStart < 0 { tokenStart = index }
            default:
                return nil
            }
        }
        guard flush(endingAt: buffer.count), !numbers.isEmpty else { return nil }
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
