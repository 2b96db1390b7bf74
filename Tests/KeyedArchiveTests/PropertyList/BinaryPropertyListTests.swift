import Foundation
import Testing
@testable import KeyedArchive

/// Builds a bplist00 by hand: header, object bytes, offset table and trailer, so tests can
/// break exactly one rule at a time.
func handmade(objects: [[UInt8]], offsetSize: UInt8 = 1, refSize: UInt8 = 1,
                      count: UInt64? = nil, top: UInt64 = 0, tableOffset: UInt64? = nil,
                      offsets: [UInt64]? = nil) -> Data {
    var bytes = Array("bplist00".utf8)
    var computed: [UInt64] = []
    for object in objects {
        computed.append(UInt64(bytes.count))
        bytes += object
    }
    let table = UInt64(bytes.count)
    for offset in offsets ?? computed {
        for shift in stride(from: Int(offsetSize) - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: offset >> (UInt64(shift) * 8)))
        }
    }
    bytes += [0, 0, 0, 0, 0, 0, offsetSize, refSize]
    for value in [count ?? UInt64(objects.count), top, tableOffset ?? table] {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
    return Data(bytes)
}

@Suite("Binary property lists")
struct BinaryPropertyListTests {
    @Test("Every value type round-trips through our writer and reader, and Foundation agrees")
    func roundTrip() throws {
        let value: PropertyListValue = .dictionary([
            .init(key: "ascii", value: .string("hello")),
            .init(key: "unicode", value: .string("grüße 🐕")),
            .init(key: "empty", value: .string("")),
            .init(key: "ints", value: .array([.integer(0), .integer(255), .integer(256), .integer(65_536),
                                               .integer(Int64(UInt32.max) + 1), .integer(-1), .integer(Int64.min),
                                               .unsignedInteger(UInt64.max)])),
            .init(key: "reals", value: .array([.real(0.5), .float(1.25), .real(-.infinity)])),
            .init(key: "bools", value: .array([.bool(true), .bool(false)])),
            .init(key: "date", value: .date(123.5)),
            .init(key: "data", value: .data(Data(repeating: 7, count: 40))),
            .init(key: "uid", value: .uid(300)),
            .init(key: "nested", value: .dictionary([.init(key: "deep", value: .array([]))])),
        ])
        let data = value.propertyListData(format: .binary)
        #expect(try PropertyListValue(propertyList: data) == value)
        #expect(data == value.propertyListData(format: .binary), "deterministic")
        // Foundation's own reader accepts the file and sees the same strings and numbers.
        let foundation = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        #expect(foundation?["unicode"] as? String == "grüße 🐕")
        #expect((foundation?["ints"] as? [Any])?.count == 8)
        #expect((foundation?["data"] as? Data)?.count == 40)
    }

    @Test("The writer stores equal strings and numbers once and picks the narrowest widths")
    func uniquingAndWidths() throws {
        let small = PropertyListValue.array(Array(repeating: .string("same"), count: 100) + [.integer(5), .integer(5)])
        let smallData = small.propertyListData(format: .binary)
        let smallPlist = try BinaryPropertyList(smallData)
        #expect(smallPlist.objectCount == 3)  // the array, "same", 5
        #expect(smallPlist.refSize == 1)
        #expect(smallPlist.offsetSize == 1)

        let many = PropertyListValue.array((0..<300).map { .string("s\($0)") })
        let manyPlist = try BinaryPropertyList(many.propertyListData(format: .binary))
        #expect(manyPlist.refSize == 2)
        #expect(try manyPlist.topValue() == many)

        let large = PropertyListValue.array([.data(Data(count: 70_000)), .string("after")])
        let largePlist = try BinaryPropertyList(large.propertyListData(format: .binary))
        #expect(largePlist.offsetSize == 4)
        #expect(try largePlist.topValue() == large)
    }

    @Test("Strings of 15 or more characters and containers of 15 or more use the extended length")
    func extendedLengths() throws {
        let value = PropertyListValue.array((0..<20).map { .string(String(repeating: "x", count: $0 + 10)) })
        #expect(try PropertyListValue(propertyList: value.propertyListData(format: .binary)) == value)
    }

    /// Each case breaks one rule of the trailer or of an object; reading must throw.
    static let brokenCases: [(String, Data)] = {
        var badMagic = [UInt8](handmade(objects: [[0x08]]))
        badMagic[0] = UInt8(ascii: "x")
        let hugeLength: [UInt8] = [0x4F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let wideInteger: [UInt8] = [0x16] + [UInt8](repeating: 0, count: 64)  // 32 bytes is the UInt128 form
        var cases: [(String, Data)] = []
        cases.append(("too short", Data("bplist00".utf8)))
        cases.append(("bad magic", Data(badMagic)))
        cases.append(("offset size 0", handmade(objects: [[0x08]], offsetSize: 0)))
        cases.append(("offset size 9", handmade(objects: [[0x08]], offsetSize: 9)))
        cases.append(("reference size 0", handmade(objects: [[0x08]], refSize: 0)))
        cases.append(("no objects", handmade(objects: [[0x08]], count: 0)))
        cases.append(("top object out of range", handmade(objects: [[0x08]], top: 1)))
        cases.append(("table outside the file", handmade(objects: [[0x08]], tableOffset: 10_000)))
        cases.append(("table inside the header", handmade(objects: [[0x08]], tableOffset: 2)))
        cases.append(("count × size overflows", handmade(objects: [[0x08]], offsetSize: 8, count: UInt64.max / 4)))
        cases.append(("offset past the object area", handmade(objects: [[0x08]], offsets: [500])))
        cases.append(("array reference out of range", handmade(objects: [[0xA1, 0x05]])))
        cases.append(("string longer than the file", handmade(objects: [[0x5F, 0x10, 0xFF, 0x41]])))
        cases.append(("data length as a huge integer", handmade(objects: [hugeLength])))
        cases.append(("unpaired UTF-16 surrogate", handmade(objects: [[0x61, 0xD8, 0x00]])))
        cases.append(("dictionary key is not a string", handmade(objects: [[0xD1, 0x01, 0x01], [0x10, 0x01]])))
        cases.append(("array contains itself", handmade(objects: [[0xA1, 0x00]])))
        cases.append(("unknown marker", handmade(objects: [[0x70]])))
        cases.append(("integer of 64 bytes", handmade(objects: [wideInteger])))
        cases.append(("real of 2 bytes", handmade(objects: [[0x21, 0, 0]])))
        return cases
    }()

    @Test("Broken trailers and objects throw", arguments: brokenCases)
    func brokenInputs(name: String, data: Data) throws {
        #expect(throws: PropertyListError.self, "\(name)") { try BinaryPropertyList(data).topValue() }
    }

    @Test("Reading an object in place (as the decoder reads its stored property list) reads what object(_:) reads, errors included")
    func objectInPlace() throws {
        let archive = try ArchiveEncoder().encode(["a": [1.5, 2], "b": ["text", "café"]] as [String: [AnyCodableLeaf]])
        for data in [archive] + Self.brokenCases.map(\.1) {
            guard var plist = try? BinaryPropertyList(data) else { continue }
            for ref in -1...(plist.objectCount) {
                let plain = Result { try plist.object(ref) }
                let inPlace = Result { try BinaryPropertyList.object(ref, inPlace: &plist) }
                #expect(describe(plain) == describe(inPlace), "object \(ref)")
            }
        }
    }

    @Test("ASCII string bodies of every length read as written; bytes above 0x7F read as Latin-1")
    func asciiStringBodies() {
        let text = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"
        let bytes = Array(text.utf8) + [0x63, 0x61, 0x66, 0xE9]  // "café" in Latin-1
        bytes.withUnsafeBytes { raw in
            let body = PropertyListBytes(raw)
            // Short (small strings) and long, ending on and off an 8-byte boundary.
            for start in 0..<3 {
                for end in start...text.utf8.count {
                    #expect(body.asciiString(start..<end) == String(text.dropFirst(start).prefix(end - start)))
                }
            }
            #expect(body.asciiString(text.utf8.count..<bytes.count) == "café")
            #expect(body.asciiString(40..<bytes.count) == "EFGHIJcafé")
            #expect(body.asciiString(0..<bytes.count) == text + "café")
        }
    }

    @Test("A reference width too narrow for the object count is rejected")
    func narrowReferences() throws {
        // 300 objects cannot be addressed with 1-byte references.
        let objects = [[0xA1, 0x01]] + Array(repeating: [UInt8]([0x08]), count: 299)
        let data = handmade(objects: objects, offsetSize: 2, refSize: 1)
        #expect(throws: PropertyListError.self) { try BinaryPropertyList(data) }
    }

    @Test("Nesting deeper than the limit throws instead of recursing")
    func depthLimit() throws {
        // 1,000 arrays, each holding the next.
        // With 2-byte references: array i holds array i + 1.
        var objects: [[UInt8]] = []
        for index in 0..<999 {
            let next = index + 1
            objects.append([0xA1, UInt8(next >> 8), UInt8(next & 0xFF)])
        }
        objects.append([0xA0])
        let data = handmade(objects: objects, offsetSize: 2, refSize: 2)
        #expect(throws: PropertyListError.self) { try BinaryPropertyList(data).topValue() }
        #expect(throws: Never.self) { try BinaryPropertyList(data).topValue(maxDepth: 2_000) }
    }
}

/// A leaf of either kind, for an archive with reals and strings.
private enum AnyCodableLeaf: Codable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    case real(Double), text(String)
    init(floatLiteral value: Double) { self = .real(value) }
    init(integerLiteral value: Int) { self = .real(Double(value)) }
    init(stringLiteral value: String) { self = .text(value) }
}

/// A result's value or error, as text.
private func describe(_ result: Result<BinaryPropertyList.Object, any Error>) -> String {
    switch result {
    case .success(let object): return "\(object)"
    case .failure(let error): return "error: \(error)"
    }
}
