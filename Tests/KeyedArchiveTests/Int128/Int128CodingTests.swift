import Foundation
import Testing
@testable import KeyedArchive

// Int128 and UInt128 through ArchiveEncoder/ArchiveDecoder: every container, Optional and
// arrays, the strict storage rules of the other integers, and 64-bit values written exactly
// as Int64/UInt64 are.

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
private struct Wide: Codable, Equatable {
    var signed: Int128
    var unsigned: UInt128
    var optionalSigned: Int128?
    var optionalUnsigned: UInt128?
    var signedList: [Int128]
    var unsignedList: [UInt128?]
}

/// One struct for every integer type, so `Holder<Int128>` and `Holder<Int64>` can be
/// compared byte for byte (both written under the class name "Holder").
private struct Holder<T: Codable & Equatable>: Codable, Equatable {
    var value: T
    var optional: T?
    var absent: T?
    var list: [T]
}

/// Decodes the fields with unkeyed and nested single-value containers by hand.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
private struct HandCoded: Codable, Equatable {
    var signed: Int128
    var unsigned: UInt128

    init(signed: Int128, unsigned: UInt128) {
        self.signed = signed
        self.unsigned = unsigned
    }

    init(from decoder: any Decoder) throws {
        var list = try decoder.unkeyedContainer()
        signed = try list.decode(Int128.self)
        unsigned = try list.decode(UInt128.self)
    }

    func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        try list.encode(signed)
        try list.encode(unsigned)
    }
}

@Suite("Int128 and UInt128 with ArchiveEncoder and ArchiveDecoder")
struct Int128CodingTests {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Keyed, optional and array fields round-trip over the whole range", arguments: PropertyListFormat.allCases)
    func keyedRoundTrip(format: PropertyListFormat) throws {
        let signed = Int128Values.allSigned
        let unsigned = Int128Values.allUnsigned
        for (index, value) in signed.enumerated() {
            let other = unsigned[index % unsigned.count]
            let wide = Wide(signed: value, unsigned: other,
                            optionalSigned: index.isMultiple(of: 3) ? nil : value,
                            optionalUnsigned: index.isMultiple(of: 4) ? nil : other,
                            signedList: [value, -(value / 2), value],
                            unsignedList: [other, nil, other / 3])
            #expect(try roundTrip(wide, format: format) == wide, "\(value), \(other)")
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Single values, unkeyed containers and top-level arrays round-trip", arguments: PropertyListFormat.allCases)
    func otherContainers(format: PropertyListFormat) throws {
        for value in Int128Values.allSigned { #expect(try roundTrip(value, format: format) == value) }
        for value in Int128Values.allUnsigned { #expect(try roundTrip(value, format: format) == value) }
        #expect(try roundTrip(Int128Values.allSigned, format: format) == Int128Values.allSigned)
        #expect(try roundTrip(Int128Values.allUnsigned, format: format) == Int128Values.allUnsigned)
        let optionals: [Int128?] = [nil, .min, nil, .max, 0]
        #expect(try roundTrip(optionals, format: format) == optionals)
        let hand = HandCoded(signed: .min, unsigned: .max)
        #expect(try roundTrip(hand, format: format) == hand)
        let dictionary: [String: UInt128] = ["a": .max, "b": 1]
        #expect(try roundTrip(dictionary, format: format) == dictionary)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Values within 64 bits encode byte for byte as Int64 and UInt64 do", arguments: PropertyListFormat.allCases)
    func sixtyFourBitBytesUnchanged(format: PropertyListFormat) throws {
        for value: Int64 in [.min, -1, 0, 1, 200, 70_000, 1 << 40, .max] {
            let narrow = Holder(value: value, optional: value, absent: nil, list: [value, 0])
            let wide = Holder(value: Int128(value), optional: Int128(value), absent: nil, list: [Int128(value), 0])
            #expect(try encode(wide, format: format) == encode(narrow, format: format), "\(value)")
            #expect(try encode(Int128(value), format: format) == encode(value, format: format))
        }
        for value: UInt64 in [0, 1, 1 << 63, .max] {
            let narrow = Holder(value: value, optional: value, absent: nil, list: [value])
            let wide = Holder(value: UInt128(value), optional: UInt128(value), absent: nil, list: [UInt128(value)])
            #expect(try encode(wide, format: format) == encode(narrow, format: format), "\(value)")
            #expect(try encode(UInt128(value), format: format) == encode(value, format: format))
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Narrower integers read 128-bit storage only when the value fits")
    func narrowerTypes() throws {
        let data = try encode(Holder(value: Int128(-5), optional: Int128(UInt64.max), absent: nil, list: [Int128.max]), format: .binary)
        let back = try ArchiveDecoder().decode(Holder<Int64>.self, from: try encode(Holder(value: Int128(-5), optional: nil, absent: nil, list: [Int128(Int64.min)]), format: .binary))
        #expect(back == Holder(value: -5, optional: nil, absent: nil, list: [.min]))
        let error = try #require(throws: DecodingError.self) { try ArchiveDecoder().decode(Holder<Int8>.self, from: data) }
        guard case .dataCorrupted(let context) = error else { Issue.record("\(error)"); return }
        #expect(context.codingPath.map(\.stringValue) == ["optional"])
        #expect(context.debugDescription.contains("does not fit in Int8"))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Out of range: dataCorrupted with the coding path, in every container")
    func outOfRange() throws {
        let keyed = try encode(Holder(value: UInt128.max, optional: nil, absent: nil, list: []), format: .binary)
        let keyedError = try #require(throws: DecodingError.self) { try ArchiveDecoder().decode(Holder<Int128>.self, from: keyed) }
        guard case .dataCorrupted(let keyedContext) = keyedError else { Issue.record("\(keyedError)"); return }
        #expect(keyedContext.codingPath.map(\.stringValue) == ["value"])
        #expect(keyedContext.debugDescription.contains("340282366920938463463374607431768211455"))

        let list = try encode([Int128(1), Int128.min], format: .xml)
        let listError = try #require(throws: DecodingError.self) { try ArchiveDecoder().decode([UInt128].self, from: list) }
        guard case .dataCorrupted(let listContext) = listError else { Issue.record("\(listError)"); return }
        #expect(listContext.codingPath.map { $0.intValue } == [1])

        let single = try encode(Int128(-1), format: .binary)
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(UInt128.self, from: single) }
        let hugeSingle = try encode(UInt128(Int128.max) + 1, format: .binary)
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Int128.self, from: hugeSingle) }
        #expect(try ArchiveDecoder().decode(UInt128.self, from: hugeSingle) == UInt128(Int128.max) + 1)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Strict storage: no booleans; reals only when exact, both ways")
    func strictStorage() throws {
        let flag = try encode(Holder(value: true, optional: nil, absent: nil, list: []), format: .binary)
        let error = try #require(throws: DecodingError.self) { try ArchiveDecoder().decode(Holder<Int128>.self, from: flag) }
        guard case .typeMismatch = error else { Issue.record("\(error)"); return }

        let exact = Double(sign: .plus, exponent: 100, significand: 1)
        #expect(try ArchiveDecoder().decode(Int128.self, from: encode(exact, format: .binary)) == Int128(1) << 100)
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Int128.self, from: encode(0.5, format: .binary)) }
        #expect(try ArchiveDecoder().decode(Double.self, from: encode(Int128(1) << 100, format: .binary)) == exact)
        #expect(try ArchiveDecoder().decode(Float.self, from: encode(-(Int128(3) << 90), format: .xml)) == -Float(sign: .plus, exponent: 90, significand: 3))
        let inexact = try #require(throws: DecodingError.self) { try ArchiveDecoder().decode(Double.self, from: encode(UInt128.max, format: .binary)) }
        guard case .dataCorrupted = inexact else { Issue.record("\(inexact)"); return }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Sets and dictionary keys of 128-bit values are written in one order: deterministic bytes")
    func deterministicCollections() throws {
        // Values that agree in their low 64 bits, so only a full 128-bit comparison orders them.
        let values: [Int128] = (0..<40).map { (Int128($0) << 64) | 5 } + (0..<40).map { -(Int128($0 + 1) << 64) }
        var small = Set<Int128>()
        for value in values { small.insert(value) }
        var large = Set<Int128>(minimumCapacity: 4_096)
        for value in values.reversed() { large.insert(value) }
        #expect(try encode(small, format: .binary) == encode(large, format: .binary))
        #expect(try roundTrip(small, format: .binary) == small)
        var dictionary = [UInt128: Int](minimumCapacity: 1_000)
        for (index, value) in values.enumerated() { dictionary[UInt128(bitPattern: value)] = index }
        let copy = Dictionary(uniqueKeysWithValues: dictionary.sorted { $0.value > $1.value }.map { ($0.key, $0.value) })
        #expect(try encode(dictionary, format: .xml) == encode(copy, format: .xml))
        #expect(try roundTrip(dictionary, format: .xml) == dictionary)
        #expect(PropertyListWideInteger(Int128.min) < PropertyListWideInteger(Int128(-1) << 64))
        #expect(PropertyListWideInteger(Int128(1) << 64) < PropertyListWideInteger(UInt128.max))
        #expect(!(PropertyListWideInteger(UInt128.max) < PropertyListWideInteger(UInt128.max)))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Decimal reads 128-bit integers exactly")
    func decimal() throws {
        let value = try ArchiveDecoder().decode(Decimal.self, from: encode(UInt128.max, format: .binary))
        #expect(value == Decimal(string: "340282366920938463463374607431768211455"))
        let negative = try ArchiveDecoder().decode(Decimal.self, from: encode(Int128.min, format: .xml))
        #expect(negative == Decimal(string: "-170141183460469231731687303715884105728"))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("KeyedArchiveView shows the value")
    func view() throws {
        let view = try KeyedArchiveView(data: encode([UInt128.max, 7], format: .binary))
        #expect(view.objects.contains { $0.plainValue == .wideInteger(PropertyListWideInteger(UInt128.max)) })
        #expect(view.objects.contains { $0.plainValue == .integer(7) })
        #expect(view.description.contains("340282366920938463463374607431768211455"))
    }

    private func encode<T: Encodable>(_ value: T, format: PropertyListFormat) throws -> Data {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        encoder.setClassName("Holder", for: T.self)
        return try encoder.encode(value)
    }

    private func roundTrip<T: Codable>(_ value: T, format: PropertyListFormat) throws -> T {
        try ArchiveDecoder().decode(T.self, from: encode(value, format: format))
    }
}
