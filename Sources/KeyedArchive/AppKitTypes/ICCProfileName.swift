import Foundation

/// Recognises a colour space by the name in its ICC profile: AppKit archives Display P3
/// as an `NSColorSpace` holding only its profile, whose description (`desc` tag) names it.
enum ICCProfileName {
    /// Whether `profile` holds the text "Display P3", in ASCII (a `desc` tag) or UTF-16
    /// big-endian (an `mluc` tag). Linear in the profile's size.
    static func isDisplayP3(_ profile: Data) -> Bool {
        let ascii = Array("Display P3".utf8)
        let utf16: [UInt8] = ascii.flatMap { byte -> [UInt8] in [0, byte] }
        let bytes = [UInt8](profile)
        return contains(bytes, ascii) || contains(bytes, utf16)
    }

    /// Whether `needle` occurs in `bytes`: O(bytes × needle), the needle being at most 20 bytes.
    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
