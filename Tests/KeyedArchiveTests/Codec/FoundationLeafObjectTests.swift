import Foundation
import Testing
@testable import KeyedArchive

// NSDate and NSUUID objects of the shape the general reader has read once in a decode are
// read as one leaf each (Decoder/FastPaths/FoundationLeafObjects.swift). These tests pin down that the
// fast path fires only once learned, agrees with the general reader (values, work, depth),
// and leaves every other layout — another class, a subclass, a field one UID away, short
// bytes, a non-finite time, another archive — to the general reader and its errors.

private let nsDate = classEntry("NSDate")
private let nsUUID = classEntry("NSUUID")

private func date(_ classUID: UInt64, _ seconds: Double) -> PropertyListValue {
    dict(["$class": uid(classUID), "NS.time": .real(seconds)])
}

private func uuidObject(_ classUID: UInt64, _ bytes: [UInt8]) -> PropertyListValue {
    dict(["$class": uid(classUID), "NS.uuidbytes": .data(Data(bytes))])
}

/// An NSArray (object 1, its class entry object 2) of the objects `elements` (UIDs).
private func list(_ elements: [UInt64]) -> [PropertyListValue] {
    [dict(["$class": uid(2), "NS.objects": .array(elements.map { uid($0) })]), classEntry("NSArray")]
}

private let bytesA: [UInt8] = Array(0..<16)
private let bytesB: [UInt8] = Array(100..<116)

/// Runs `body` with a decoder session over `data`.
private func withDecoder<R>(_ data: Data, _ body: (_ArchiveDecoder) throws -> R) throws -> R {
    try data.withUnsafeBytes { bytes in try ArchiveDecoder().withSession(bytes, file: nil) { try body($0.decoder) } }
}

/// The smallest `maxDepth` with which `data` decodes as `T`.
private func smallestDepth<T: Decodable>(_ type: T.Type, _ data: Data) throws -> Int {
    for depth in 1...64 {
        let decoder = ArchiveDecoder()
        decoder.limits = .init(maxDepth: depth)
        if (try? decoder.decode(type, from: data)) != nil { return depth }
    }
    throw KeyedArchiveError("no depth up to 64 decodes the value")
}

/// The description and coding path of what decoding `data` as `T` throws.
private func failure<T: Decodable>(_ type: T.Type, _ data: Data, decoder: ArchiveDecoder = ArchiveDecoder()) -> (text: String, path: [String])? {
    decodingFailure(data) { _ = try decoder.decode(type, from: $0) }
}

private struct Deep: Decodable, Equatable {
    var first: Date
    var rest: [[Date]]
}

private struct Stamped: Codable, Equatable {
    var id: UUID
    var at: Date
    var later: Date?
    var inner: [Inner]
    struct Inner: Codable, Equatable { var at: Date; var id: UUID? }
}

@Suite("NSDate and NSUUID objects read as leaves")
struct FoundationLeafObjectTests {
    @Test("The fast path reads nothing until the general reader has read an object of the shape, then reads the others")
    func firesOnceLearned() throws {
        // 3, 5: dates of class 4 ($class first, then NS.time last); 6, 7: UUIDs of class 8.
        let data = archive(list([3, 5, 6, 7]) + [date(4, 1), nsDate, date(4, 2.5), uuidObject(8, bytesA), uuidObject(8, bytesB), nsUUID])
        try withDecoder(data) { decoder in
            #expect(decoder.fastDate(.uid(3)) == nil && decoder.fastUUID(.uid(6)) == nil)
            let first = try decoder.unbox(Date.self, from: .uid(3), at: CodingPathNode.root)
            let firstUUID = try decoder.unbox(UUID.self, from: .uid(6), at: CodingPathNode.root)
            #expect(first == Date(timeIntervalSinceReferenceDate: 1))
            #expect(firstUUID == UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)))
            #expect(decoder.fastDate(.uid(5)) == Date(timeIntervalSinceReferenceDate: 2.5))
            #expect(decoder.fastUUID(.uid(7)) == UUID(uuid: (100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115)))
            // Another kind of object, nil, a UID out of range and an inline value are not read.
            #expect(decoder.fastDate(.uid(6)) == nil && decoder.fastUUID(.uid(5)) == nil)
            for slot: ArchiveSlot in [.uid(0), .uid(99), .inline(ref: 0, owner: 1)] {
                #expect(decoder.fastDate(slot) == nil)
            }
        }
    }

    @Test("Dates and UUIDs in structs, optionals and arrays round-trip")
    func roundTrip() throws {
        let values = (0..<50).map { (i: Int) -> Stamped in
            let later: Date? = i % 2 == 0 ? nil : Date(timeIntervalSinceReferenceDate: -Double(i))
            let inner = Stamped.Inner(at: Date(timeIntervalSince1970: Double(i)), id: i % 3 == 0 ? nil : UUID())
            return Stamped(id: UUID(), at: Date(timeIntervalSinceReferenceDate: Double(i) * 1000.25),
                           later: later, inner: [inner])
        }
        let data = try ArchiveEncoder().encode(values)
        #expect(try ArchiveDecoder().decode([Stamped].self, from: data) == values)
        // NSKeyedUnarchiver's reading of the same file agrees.
        let dates = [Date(timeIntervalSinceReferenceDate: 12.5), Date(timeIntervalSinceReferenceDate: -3)]
        let foundation = try NSKeyedArchiver.archivedData(withRootObject: dates.map { $0 as NSDate } as NSArray, requiringSecureCoding: false)
        #expect(try ArchiveDecoder().decode([Date].self, from: foundation) == dates)
    }

    @Test("Each object costs the same work whether the fast path or the general reader reads it")
    func sameWork() throws {
        // The same three dates: NS.time in place (fast after the first), or one UID away (general).
        let inPlace = archive(list([3, 5, 6]) + [date(4, 1), nsDate, date(4, 2), date(4, 3)])
        let byUID = archive(list([3, 5, 6]) + [
            dict(["$class": uid(4), "NS.time": uid(7)]), nsDate,
            dict(["$class": uid(4), "NS.time": uid(8)]), dict(["$class": uid(4), "NS.time": uid(9)]),
            .real(1), .real(2), .real(3),
        ])
        let dates = (fast: try ArchiveDecoder().decode([Date].self, from: inPlace), general: try ArchiveDecoder().decode([Date].self, from: byUID))
        #expect(dates.fast == dates.general && dates.fast.count == 3)
        let dateWork = (fast: try decodeWork([Date].self, inPlace).units, general: try decodeWork([Date].self, byUID).units)
        #expect(dateWork.fast == dateWork.general, "\(dateWork)")
        let uuidsInPlace = archive(list([3, 5, 6]) + [uuidObject(4, bytesA), nsUUID, uuidObject(4, bytesB), uuidObject(4, bytesA)])
        let uuidsByUID = archive(list([3, 5, 6]) + [
            dict(["$class": uid(4), "NS.uuidbytes": uid(7)]), nsUUID,
            dict(["$class": uid(4), "NS.uuidbytes": uid(8)]), dict(["$class": uid(4), "NS.uuidbytes": uid(7)]),
            .data(Data(bytesA)), .data(Data(bytesB)),
        ])
        let uuids = (fast: try ArchiveDecoder().decode([UUID].self, from: uuidsInPlace), general: try ArchiveDecoder().decode([UUID].self, from: uuidsByUID))
        #expect(uuids.fast == uuids.general && uuids.fast.count == 3)
        let uuidWork = (fast: try decodeWork([UUID].self, uuidsInPlace).units, general: try decodeWork([UUID].self, uuidsByUID).units)
        #expect(uuidWork.fast == uuidWork.general, "\(uuidWork)")
    }

    @Test("The depth limit applies to a date read by the fast path as to one read by the general reader")
    func sameDepth() throws {
        // `first` (learned), then a date inside two arrays: in place (fast) or its time one UID away (general).
        func deep(_ last: [PropertyListValue]) -> Data {
            archive([
                dict(["$class": uid(2), "first": uid(3), "rest": uid(5)]), classEntry("Deep"),
                date(4, 1), nsDate,
                dict(["$class": uid(7), "NS.objects": .array([uid(6)])]),
                dict(["$class": uid(7), "NS.objects": .array([uid(8)])]), classEntry("NSArray"),
            ] + last)
        }
        let fast = deep([date(4, 2)])
        let general = deep([dict(["$class": uid(4), "NS.time": uid(9)]), .real(2)])
        #expect(try ArchiveDecoder().decode(Deep.self, from: fast) == Deep(first: Date(timeIntervalSinceReferenceDate: 1), rest: [[Date(timeIntervalSinceReferenceDate: 2)]]))
        let depths = (fast: try smallestDepth(Deep.self, fast), general: try smallestDepth(Deep.self, general))
        #expect(depths.fast == depths.general && depths.fast > 3, "\(depths)")
    }

    @Test("A date object of another class, a subclass or another NSDate entry is read by the general reader")
    func otherClasses() throws {
        // 3: learned. 5: class NSNumber (not a date). 7: a subclass of NSDate. 9: a second NSDate entry.
        let mixed = archive(list([3, 7, 9]) + [
            date(4, 1), nsDate, date(6, 2), classEntry("NSNumber", superclasses: ["NSValue", "NSObject"]),
            date(8, 3), classEntry("MyDate", superclasses: ["NSDate", "NSObject"]),
            date(10, 4), nsDate,
        ])
        #expect(try ArchiveDecoder().decode([Date].self, from: mixed) == [1, 3, 4].map { Date(timeIntervalSinceReferenceDate: $0) })
        let wrong = archive(list([3, 5]) + [date(4, 1), nsDate, date(6, 2), classEntry("NSNumber", superclasses: ["NSValue", "NSObject"])])
        let error = try #require(failure([Date].self, wrong))
        #expect(error.path == ["Index 1"])
        #expect(error.text.contains("Expected Date but found an object of class 'NSNumber'"), "\(error.text)")
        // UUIDs: an NSDate object where a UUID is wanted after one UUID was read.
        let notUUID = archive(list([3, 5]) + [uuidObject(4, bytesA), nsUUID, date(6, 2), nsDate])
        let uuidError = try #require(failure([UUID].self, notUUID))
        #expect(uuidError.path == ["Index 1"] && uuidError.text.contains("NSDate"), "\(uuidError)")
    }

    @Test("Short bytes, a non-finite time, a third key, keys in the other order and an integer time read as the general reader reads them")
    func otherLayouts() throws {
        let short = archive(list([3, 5]) + [uuidObject(4, bytesA), nsUUID, uuidObject(4, Array(bytesB.prefix(15)))])
        let shortError = try #require(failure([UUID].self, short))
        #expect(shortError.path == ["Index 1"] && shortError.text.contains("NS.uuidbytes has 15 bytes, not 16"), "\(shortError)")
        let long = archive(list([3, 5]) + [uuidObject(4, bytesA), nsUUID, uuidObject(4, bytesB + [0])])
        #expect(failure([UUID].self, long)?.text.contains("NS.uuidbytes has 17 bytes, not 16") == true)
        let nan = archive(list([3, 5]) + [date(4, 1), nsDate, date(4, .nan)])
        let nanError = try #require(failure([Date].self, nan))
        #expect(nanError.path == ["Index 1"] && nanError.text.contains("not a finite number of seconds"), "\(nanError)")
        let others = archive(list([3, 5, 6, 7]) + [
            date(4, 1), nsDate,
            dict(["$class": uid(4), "NS.time": .real(2), "extra": .integer(1)]),
            dict(["NS.time": .real(3), "$class": uid(4)]),
            dict(["$class": uid(4), "NS.time": .integer(4)]),
        ])
        #expect(try ArchiveDecoder().decode([Date].self, from: others) == [1, 2, 3, 4].map { Date(timeIntervalSinceReferenceDate: $0) })
    }

    @Test("What one archive taught a decode is not used for another archive decoded by the same ArchiveDecoder")
    func perArchive() throws {
        let decoder = ArchiveDecoder()
        let first = archive(list([3, 4]) + [date(5, 1), date(5, 2), nsDate])
        #expect(try decoder.decode([Date].self, from: first) == [1, 2].map { Date(timeIntervalSinceReferenceDate: $0) })
        // The same object numbers, but class entry 5 is NSURL's.
        let second = archive(list([3, 4]) + [date(5, 1), date(5, 2), classEntry("NSURL")])
        let error = try #require(failure([Date].self, second, decoder: decoder))
        #expect(error.path == ["Index 0"] && error.text.contains("NSURL"), "\(error)")
        // And the first archive still decodes.
        #expect(try decoder.decode([Date].self, from: first).count == 2)
    }
}
