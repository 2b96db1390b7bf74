import Foundation
import Testing
@testable import KeyedArchive

// 128-bit integers against independent readers: Python's plistlib reads every value we
// write (16-byte and 32-byte integers are signed big-endian, as it reads them), and
// Foundation on this machine reads the 64-bit ones exactly. Foundation cannot hold more than
// 64 bits in an NSNumber: its binary reader keeps the low 64 bits of a wider integer (as
// Apple's CFBinaryPList does) and its XML reader refuses the text. Those reads run in a
// child process, like every oracle check that might trap.

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
private struct WideFields: Codable, Equatable {
    var signed: [Int128]
    var unsigned: [UInt128]
    var small: Int128
    var huge: UInt128
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
private struct WideNumber: Codable, ArchivedClass {
    static let archivedClassName = "NumberBox"
    var number: Int128
}

private struct NumberBox: Codable, ArchivedClass {
    static let archivedClassName = "NumberBox"
    @NSCodingObject var number: NSNumber
}

@Suite("Int128 and UInt128 read by plistlib and Foundation")
struct Int128InteropTests {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("python3 plistlib reads every value of a plain property list as we wrote it", .requiresPython3,
          arguments: PropertyListFormat.allCases)
    func plistlibReadsPlainValues(format: PropertyListFormat) throws {
        let tree = PropertyListValue.array(Int128Values.allSigned.map(PropertyListValue.init)
                                           + Int128Values.allUnsigned.map(PropertyListValue.init))
        let theirs = try plistlibJSON(of: tree.propertyListData(format: format))
        #expect(theirs == tree.canonicalJSON)
        #expect(theirs.contains("340282366920938463463374607431768211455"))   // UInt128.max (32 bytes in binary)
        #expect(theirs.contains("-170141183460469231731687303715884105728"))  // Int128.min
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("python3 plistlib reads an ArchiveEncoder archive with 128-bit fields", .requiresPython3,
          arguments: PropertyListFormat.allCases)
    func plistlibReadsArchive(format: PropertyListFormat) throws {
        let value = WideFields(signed: [.min, -1, Int128(Int64.min) - 1], unsigned: [.max, UInt128(UInt64.max) + 1],
                               small: 42, huge: UInt128(Int128.max) + 1)
        let data = try archive(value, format: format)
        let theirs = try plistlibJSON(of: data)
        #expect(theirs == (try PropertyListValue(propertyList: data)).canonicalJSON)
        #expect(theirs.contains("-9223372036854775809"))
        #expect(theirs.contains("170141183460469231731687303715884105728"))
        #expect(try ArchiveDecoder().decode(WideFields.self, from: data) == value)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("NSKeyedUnarchiver reads 64-bit Int128/UInt128 values as the NSNumbers Int64/UInt64 give",
          arguments: PropertyListFormat.allCases)
    func foundationReadsSixtyFourBitValues(format: PropertyListFormat) throws {
        let signed: [Int128] = [Int128(Int64.min), -1, 0, 300, Int128(Int64.max)]
        let unsigned: [UInt128] = [0, UInt128(Int64.max) + 1, UInt128(UInt64.max)]
        let readSigned = try #require(try foundationUnarchive(archive(signed, format: format)) as? [NSNumber])
        #expect(readSigned.map(\.int64Value) == signed.map { Int64($0) })
        let readUnsigned = try #require(try foundationUnarchive(archive(unsigned, format: format)) as? [NSNumber])
        #expect(readUnsigned.map(\.uint64Value) == unsigned.map { UInt64($0) })
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("NSKeyedArchiver's 64-bit NSNumbers decode as Int128 and UInt128", arguments: PropertyListFormat.allCases)
    func weReadFoundationNumbers(format: PropertyListFormat) throws {
        let numbers: NSArray = [NSNumber(value: Int64.min), NSNumber(value: -1), NSNumber(value: UInt64.max), NSNumber(value: 7)]
        let data = foundationArchive(numbers, format: format.foundationFormat)
        #expect(try ArchiveDecoder().decode([Int128].self, from: data) == [Int128(Int64.min), -1, Int128(UInt64.max), 7])
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([UInt128].self, from: data) }
        let positive = foundationArchive([NSNumber(value: UInt64.max), NSNumber(value: 0)] as NSArray, format: format.foundationFormat)
        #expect(try ArchiveDecoder().decode([UInt128].self, from: positive) == [UInt128(UInt64.max), 0])
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("decodeObject gives an NSNumber within 64 bits and throws beyond, never a truncated number")
    func decodeObjectAsNSNumber() throws {
        let narrow = try ArchiveDecoder().decode(NumberBox.self, from: archive(WideNumber(number: Int128(UInt64.max)), format: .binary))
        #expect(narrow.number.uint64Value == .max)
        let error = try #require(throws: DecodingError.self) {
            try ArchiveDecoder().decode(NumberBox.self, from: archive(WideNumber(number: .min), format: .binary))
        }
        guard case .dataCorrupted(let context) = error else { Issue.record("\(error)"); return }
        #expect(context.debugDescription.contains("does not fit in an NSNumber"))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("encodeCodable under NSKeyedArchiver refuses a value an NSNumber cannot hold")
    func encodeCodableRefusesWideValues() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        let error = try #require(throws: EncodingError.self) { try archiver.encodeCodable([Int128(1), Int128.max], forKey: "wide") }
        guard case .invalidValue(_, let context) = error else { Issue.record("\(error)"); return }
        #expect(context.debugDescription.contains("170141183460469231731687303715884105727"))
        try archiver.encodeCodable([Int128(-3), Int128(UInt64.max)], forKey: "narrow")
        archiver.finishEncoding()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.requiresSecureCoding = false
        #expect(try unarchiver.decodeCodable([Int128].self, forKey: "narrow") == [-3, Int128(UInt64.max)])
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Foundation beyond 64 bits: binary keeps the low 64 bits, XML is refused (the documented limit)")
    func foundationBeyondSixtyFourBits() async {
        await #expect(processExitsWith: .success) {
            let wide = Int128(UInt64.max) + 6  // low 64 bits: 5
            let tree = PropertyListValue.array([PropertyListValue(wide)])
            let binary = try PropertyListSerialization.propertyList(from: tree.propertyListData(format: .binary), format: nil)
            guard let numbers = binary as? [NSNumber], numbers.map(\.int64Value) == [5] else { exit(1) }
            let xml = try? PropertyListSerialization.propertyList(from: tree.propertyListData(format: .xml), format: nil)
            guard xml == nil else { exit(2) }
            // An NSKeyedUnarchiver reading our XML archive fails rather than returning a wrong number.
            let encoder = ArchiveEncoder()
            encoder.outputFormat = .xml
            let archived = try encoder.encode([wide])
            guard (try? foundationUnarchive(archived)) == nil else { exit(3) }
            exit(0)
        }
    }
}
