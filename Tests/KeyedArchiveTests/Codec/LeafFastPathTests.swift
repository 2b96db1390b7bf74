import Foundation
import Testing
@testable import KeyedArchive

// The decoder reads plain strings, integers, reals and booleans through a fast path
// (Decoder/FastPaths/LeafFastPaths.swift) and everything else through the general readers. These
// tests pin down that the two agree: the same work charged, the same values for the
// layouts only the general reader handles, the same errors for damaged leaves.

private struct OneString: Codable { var a: String }
private struct TwoStrings: Codable { var a: String; var b: String }
private struct OneInt: Codable { var a: Int }
private struct TwoInts: Codable { var a: Int; var b: Int }
private struct OneInt8: Codable { var a: Int8 }
private struct TwoInt8s: Codable { var a: Int8; var b: Int8 }
private struct OneDouble: Codable { var a: Double }
private struct TwoDoubles: Codable { var a: Double; var b: Double }
private struct OneBool: Codable { var a: Bool }
private struct TwoBools: Codable { var a: Bool; var b: Bool }

private struct Mixed: Decodable, Equatable {
    var text: String
    var long: String
    var wide: String
    var count: Int
    var small: Int8
    var ratio: Double
    var flag: Bool
}

@Suite("Leaf fast paths")
struct LeafFastPathTests {
    @Test("Every leaf read costs one unit of work, whichever path reads it, plus the bytes of a long string made")
    func oneUnitPerLeaf() throws {
        let long = String(repeating: "x", count: 100)  // past the fast path's length
        let encoder = ArchiveEncoder()
        let pairs: [(one: Int, two: Int, what: String)] = [
            (try smallestDecodingBudget(OneString.self, try encoder.encode(OneString(a: "short"))),
             try smallestDecodingBudget(TwoStrings.self, try encoder.encode(TwoStrings(a: "short", b: "other"))), "short string"),
            (try smallestDecodingBudget(OneString.self, try encoder.encode(OneString(a: long))),
             try smallestDecodingBudget(TwoStrings.self, try encoder.encode(TwoStrings(a: long, b: long + "y"))), "long string"),
            (try smallestDecodingBudget(OneString.self, try encoder.encode(OneString(a: "café"))),
             try smallestDecodingBudget(TwoStrings.self, try encoder.encode(TwoStrings(a: "café", b: "naïve"))), "UTF-16 string"),
            (try smallestDecodingBudget(OneInt.self, try encoder.encode(OneInt(a: 1 << 40))),
             try smallestDecodingBudget(TwoInts.self, try encoder.encode(TwoInts(a: 1 << 40, b: -7))), "Int"),
            (try smallestDecodingBudget(OneInt8.self, try encoder.encode(OneInt8(a: -3))),
             try smallestDecodingBudget(TwoInt8s.self, try encoder.encode(TwoInt8s(a: -3, b: 100))), "Int8"),
            (try smallestDecodingBudget(OneDouble.self, try encoder.encode(OneDouble(a: 0.5))),
             try smallestDecodingBudget(TwoDoubles.self, try encoder.encode(TwoDoubles(a: 0.5, b: -1e300))), "Double"),
            (try smallestDecodingBudget(OneBool.self, try encoder.encode(OneBool(a: true))),
             try smallestDecodingBudget(TwoBools.self, try encoder.encode(TwoBools(a: true, b: false))), "Bool"),
        ]
        for pair in pairs {
            // A string too long to be stored inline is made once (one unit per 4 bytes) and shared.
            let made = pair.what == "long string" ? (long.utf8.count + 1) / 4 : 0
            #expect(pair.two - pair.one == 1 + made, "\(pair.what): \(pair.one) units for one field, \(pair.two) for two")
        }
    }

    @Test("Leaves in layouts the fast path leaves to the general reader decode the same")
    func generalLayouts() throws {
        let long = String(repeating: "long text ", count: 10)
        // text: an NSMutableString object; long: a 100-byte string; wide: UTF-16; count: a
        // real holding an integer; small: a negative integer; ratio: an integer; flag: true.
        let data = archive([
            dict(["$class": uid(2), "text": uid(3), "long": uid(6), "wide": uid(7), "count": uid(8),
                  "small": uid(9), "ratio": uid(10), "flag": uid(11)]),
            classEntry("Mixed"),
            dict(["$class": uid(4), "NS.string": uid(5)]),
            classEntry("NSMutableString", superclasses: ["NSString", "NSObject"]),
            .string("mutable"),
            .string(long),
            .string("Grüße, 世界"),
            .real(42),
            .integer(-5),
            .integer(3),
            .bool(true),
        ])
        let value = try ArchiveDecoder().decode(Mixed.self, from: data)
        #expect(value == Mixed(text: "mutable", long: long, wide: "Grüße, 世界", count: 42, small: -5, ratio: 3, flag: true))
    }

    @Test("Short strings read in place: Latin-1 bytes in an ASCII string, UTF-16, and an unpaired surrogate as the general reader reads them")
    func shortStringsInPlace() throws {
        // An ASCII string object whose last byte is 0xE9 reads as Latin-1 ("café"), as
        // CoreFoundation reads it.
        var latin1 = try ArchiveEncoder().encode(TwoStrings(a: "cafX", b: "tea"))
        try replace(Array("cafX".utf8), with: Array("caf".utf8) + [0xE9], in: &latin1)
        #expect(try ArchiveDecoder().decode(TwoStrings.self, from: latin1).a == "café")
        // A UTF-16 string reads as its text; with an unpaired surrogate it throws at the field.
        var wide = try ArchiveEncoder().encode(TwoStrings(a: "tea", b: "café"))
        #expect(try ArchiveDecoder().decode(TwoStrings.self, from: wide).b == "café")
        try replace([0x00, 0x66, 0x00, 0xE9], with: [0x00, 0x66, 0xD8, 0x00], in: &wide)
        #expect(codingPathOfFailure(wide) { _ = try ArchiveDecoder().decode(TwoStrings.self, from: $0) } == ["b"])
    }

    @Test("A damaged or mistyped leaf throws the general reader's error at the field's coding path",
          arguments: ["a", "b"])
    func damagedLeaves(field: String) throws {
        // Field `field` is a UID past `$objects`; the other one is fine.
        let other = field == "a" ? "b" : "a"
        let kinds: [(value: PropertyListValue, decode: (Data) throws -> Void)] = [
            (.string("s"), { _ = try ArchiveDecoder().decode(TwoStrings.self, from: $0) }),
            (.integer(1), { _ = try ArchiveDecoder().decode(TwoInts.self, from: $0) }),
            (.real(1), { _ = try ArchiveDecoder().decode(TwoDoubles.self, from: $0) }),
            (.bool(true), { _ = try ArchiveDecoder().decode(TwoBools.self, from: $0) }),
        ]
        for kind in kinds {
            let outOfRange = archive([dict(["$class": uid(2), field: uid(99), other: uid(3)]),
                                      classEntry("Pair"), kind.value])
            #expect(codingPathOfFailure(outOfRange, kind.decode) == [field])
            // The wrong kind of leaf (a string where a number is wanted, and the reverse).
            let wrong: PropertyListValue = if case .string = kind.value { .integer(7) } else { .string("seven") }
            let mistyped = archive([dict(["$class": uid(2), field: uid(4), other: uid(3)]),
                                    classEntry("Pair"), kind.value, wrong])
            #expect(codingPathOfFailure(mistyped, kind.decode) == [field])
        }
    }
}

/// The coding path of the `DecodingError` that `decode` throws for `data`, or nil when it
/// does not throw one.
private func codingPathOfFailure(_ data: Data, _ decode: (Data) throws -> Void) -> [String]? {
    decodingFailure(data, decode)?.path
}

/// Replaces the one occurrence of `old` in `data` with `new` (of the same length).
private func replace(_ old: [UInt8], with new: [UInt8], in data: inout Data) throws {
    let bytes = [UInt8](data)
    let starts = bytes.indices.filter { bytes[$0...].starts(with: old) }
    guard starts.count == 1, old.count == new.count else { throw KeyedArchiveError("expected one occurrence of \(old)") }
    data.replaceSubrange((data.startIndex + starts[0])..<(data.startIndex + starts[0] + old.count), with: new)
}
