import Foundation
import Testing
@testable import KeyedArchive

// 128-bit integers in the property-list engine: 16-byte (32-byte above Int128.max)
// integers in binary, decimal text in XML, and 64-bit values exactly as before.

@Suite("128-bit integers in property lists")
struct WideIntegerPropertyListTests {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Every Int128 and UInt128 round-trips through both formats", arguments: PropertyListFormat.allCases)
    func roundTrip(format: PropertyListFormat) throws {
        for value in Int128Values.allSigned {
            let tree = PropertyListValue.array([PropertyListValue(value)])
            let back = try PropertyListValue(propertyList: tree.propertyListData(format: format))
            #expect(back == tree, "\(value)")
            guard case .array(let items) = back, let item = items.first else { Issue.record("\(value): not an array"); continue }
            #expect(Self.int128(item) == value)
        }
        for value in Int128Values.allUnsigned {
            let tree = PropertyListValue.array([PropertyListValue(value)])
            let back = try PropertyListValue(propertyList: tree.propertyListData(format: format))
            #expect(back == tree, "\(value)")
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Only values outside 64 bits are .wideInteger; the others read as .integer/.unsignedInteger")
    func narrowest() {
        #expect(PropertyListValue(Int128(-5)) == .integer(-5))
        #expect(PropertyListValue(Int128(Int64.min)) == .integer(.min))
        #expect(PropertyListValue(UInt128(UInt64.max)) == .unsignedInteger(.max))
        #expect(PropertyListValue(Int128(UInt64.max) + 1) == .wideInteger(PropertyListWideInteger(isNegative: false, magnitudeHigh: 1, magnitudeLow: 0)))
        #expect(PropertyListValue(Int128(Int64.min) - 1) == .wideInteger(PropertyListWideInteger(isNegative: true, magnitudeHigh: 0, magnitudeLow: 1 << 63 + 1)))
        #expect(PropertyListWideInteger(Int128.min).int128Value == .min)
        #expect(PropertyListWideInteger(Int128.min).uint128Value == nil)
        #expect(PropertyListWideInteger(UInt128.max).int128Value == nil)
        #expect(PropertyListWideInteger(isNegative: true, magnitudeHigh: 0, magnitudeLow: 0) == PropertyListWideInteger(Int128(0)))
    }

    @Test("Values within 64 bits are written byte for byte as before, whatever case holds them",
          arguments: [Int64.min, -1, 0, 1, 255, 256, 65_536, 1 << 32, .max])
    func sixtyFourBitBytesUnchanged(value: Int64) {
        let wide = PropertyListWideInteger(isNegative: value < 0, magnitudeHigh: 0, magnitudeLow: value.magnitude)
        for format in PropertyListFormat.allCases {
            #expect(PropertyListValue.wideInteger(wide).propertyListData(format: format)
                    == PropertyListValue.integer(value).propertyListData(format: format))
        }
        let unsigned = UInt64(bitPattern: value) | 1 << 63
        let wideUnsigned = PropertyListWideInteger(isNegative: false, magnitudeHigh: 0, magnitudeLow: unsigned)
        #expect(PropertyListValue.wideInteger(wideUnsigned).propertyListData(format: .binary)
                == PropertyListValue.unsignedInteger(unsigned).propertyListData(format: .binary))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("The binary forms: 16 bytes signed big-endian, 32 bytes above Int128.max")
    func binaryBytes() throws {
        func body(_ value: PropertyListValue) -> [UInt8] {
            let bytes = [UInt8](value.propertyListData(format: .binary))
            return Array(bytes[8..<(bytes.count - 32 - 1)])  // the one object (1-byte offset table)
        }
        #expect(body(PropertyListValue(Int128(UInt64.max) + 1)) == [0x14, 0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8))
        #expect(body(PropertyListValue(-(Int128(1) << 64))) == [0x14] + [UInt8](repeating: 0xFF, count: 8) + [UInt8](repeating: 0, count: 8))
        #expect(body(PropertyListValue(Int128.min)) == [0x14, 0x80] + [UInt8](repeating: 0, count: 15))
        #expect(body(PropertyListValue(Int128.max)) == [0x14, 0x7F] + [UInt8](repeating: 0xFF, count: 15))
        #expect(body(PropertyListValue(UInt128.max)) == [0x15] + [UInt8](repeating: 0, count: 16) + [UInt8](repeating: 0xFF, count: 16))
        // As CoreFoundation writes UInt64 values above Int64.max, unchanged.
        #expect(body(.unsignedInteger(.max)) == [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8))
        #expect(body(.integer(-1)) == [0x13] + [UInt8](repeating: 0xFF, count: 8))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("XML: decimal text, and 0x hexadecimal up to 128 bits on reading")
    func xmlText() throws {
        let xml = String(decoding: PropertyListValue(UInt128.max).propertyListData(format: .xml), as: UTF8.self)
        #expect(xml.contains("<integer>340282366920938463463374607431768211455</integer>"))
        let minText = String(decoding: PropertyListValue(Int128.min).propertyListData(format: .xml), as: UTF8.self)
        #expect(minText.contains("<integer>-170141183460469231731687303715884105728</integer>"))
        #expect(try Self.readXML("0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF") == PropertyListValue(UInt128.max))
        #expect(try Self.readXML("-0x80000000000000000000000000000000") == PropertyListValue(Int128.min))
        #expect(try Self.readXML("+18446744073709551616") == PropertyListValue(Int128(UInt64.max) + 1))
        #expect(try Self.readXML("-0") == .integer(0))
    }

    @Test("XML: beyond a 128-bit magnitude is refused",
          arguments: ["340282366920938463463374607431768211456", "-340282366920938463463374607431768211456",
                      "0x100000000000000000000000000000000", "99999999999999999999999999999999999999999999"])
    func xmlOutOfRange(text: String) {
        #expect {
            try Self.readXML(text)
        } throws: { error in
            "\(error)".contains("integer out of range")
        }
    }

    @Test("Binary: a truncated 16-byte integer says so")
    func truncated() {
        // The object claims 16 bytes; only 8 follow before the offset table.
        let data = handmade(objects: [[0x14, 0, 0, 0, 0, 0, 0, 0, 1]])
        #expect {
            try PropertyListValue(propertyList: data)
        } throws: { error in
            "\(error)".contains("truncated")
        }
    }

    @Test("Binary: a 32-byte integer beyond 128 bits and a 64-byte integer are refused")
    func tooWide() {
        let notSignExtended = handmade(objects: [[0x15, 0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 24)])
        #expect { try PropertyListValue(propertyList: notSignExtended) } throws: { "\($0)".contains("does not fit in 128 bits") }
        let minus2To128 = handmade(objects: [[0x15] + [UInt8](repeating: 0xFF, count: 16) + [UInt8](repeating: 0, count: 16)])
        #expect { try PropertyListValue(propertyList: minus2To128) } throws: { "\($0)".contains("does not fit in 128 bits") }
        let sixtyFour = handmade(objects: [[0x16] + [UInt8](repeating: 0, count: 64)])
        #expect { try PropertyListValue(propertyList: sixtyFour) } throws: { "\($0)".contains("not supported") }
    }

    @Test("Binary: a 16-byte integer of a 64-bit value reads as the 64-bit value (CoreFoundation's own form)")
    func sixteenByteNarrowValues() throws {
        let minusOne = handmade(objects: [[0x14] + [UInt8](repeating: 0xFF, count: 16)])
        #expect(try PropertyListValue(propertyList: minusOne) == .integer(-1))
        let five = handmade(objects: [[0x14] + [UInt8](repeating: 0, count: 15) + [5]])
        #expect(try PropertyListValue(propertyList: five) == .integer(5))
        let int64Min = handmade(objects: [[0x14] + [UInt8](repeating: 0xFF, count: 8) + [0x80] + [UInt8](repeating: 0, count: 7)])
        #expect(try PropertyListValue(propertyList: int64Min) == .integer(.min))
    }

    @Test("Decimal text of the magnitude halves", arguments: [
        (PropertyListWideInteger(isNegative: false, magnitudeHigh: 1, magnitudeLow: 0), "18446744073709551616"),
        (PropertyListWideInteger(isNegative: true, magnitudeHigh: .max, magnitudeLow: .max), "-340282366920938463463374607431768211455"),
        (PropertyListWideInteger(isNegative: false, magnitudeHigh: 0, magnitudeLow: 0), "0"),
        (PropertyListWideInteger(isNegative: true, magnitudeHigh: 0, magnitudeLow: 7), "-7"),
    ])
    func description(value: PropertyListWideInteger, text: String) {
        #expect(value.description == text)
    }

    private static func readXML(_ text: String) throws -> PropertyListValue {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><integer>\(text)</integer></plist>
            """
        return try PropertyListValue(propertyList: Data(xml.utf8))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    private static func int128(_ value: PropertyListValue) -> Int128? {
        switch value {
        case .integer(let i): return Int128(i)
        case .unsignedInteger(let u): return Int128(u)
        case .wideInteger(let w): return w.int128Value
        default: return nil
        }
    }
}
