import Foundation
import Testing
@testable import KeyedArchive

// Large arrays: their storage is reserved once from the element count when the elements
// fit in the archive's size (ArrayDecoding.swift). That may change no result and no error,
// whatever order the elements are listed in.

private struct Named: Codable, Equatable { var name: String }

/// An NSArray of `count` Named objects (object i named "n<i>"), its elements listed in
/// `order` (positions into the objects, any order, repeats allowed), with `extra` UIDs
/// appended to the list as they are.
private func namedList(count: Int, order: [Int], extra: [UInt64] = []) -> Data {
    let firstNamed: UInt64 = 4, firstName = firstNamed + UInt64(count)
    var objects: [PropertyListValue] = [
        dict(["$class": uid(2), "NS.objects": .array(order.map { uid(firstNamed + UInt64($0)) } + extra.map(uid))]),
        classEntry("NSArray"), classEntry("Named"),
    ]
    for i in 0..<count { objects.append(dict(["$class": uid(3), "name": uid(firstName + UInt64(i))])) }
    for i in 0..<count { objects.append(.string("n\(i)")) }
    return archive(objects)
}

@Suite("Large arrays: storage reserved from the element count")
struct LargeArrayDecodingTests {
    @Test("The reservation is the element count when the elements fit in the archive's size, else at most 4,096")
    func reservation() {
        typealias Container = ArchiveUnkeyedDecodingContainer
        #expect(Container.reservation(count: 10, stride: 160, inputBytes: 100) == 10)
        #expect(Container.reservation(count: 256_000, stride: 160, inputBytes: 150_000_000) == 256_000)
        #expect(Container.reservation(count: 1_000_000, stride: 4_096, inputBytes: 4_000_000) == 4_096)
        #expect(Container.reservation(count: 100_000, stride: 64, inputBytes: 1_280_000) == 20_000)
        #expect(Container.reservation(count: 0, stride: 8, inputBytes: 1_000) == 0)
        #expect(Container.reservation(count: 5_000, stride: 0, inputBytes: 10) == 4_096)
    }

    @Test("Arrays of 5,000 structs, integers and strings round-trip, binary and XML")
    func roundTrip() throws {
        let named = (0..<5_000).map { Named(name: "name \($0)") }
        let numbers = Array(0..<5_000)
        let strings = (0..<5_000).map { "s\($0 % 700)" }
        for format in [PropertyListFormat.binary, .xml] {
            let encoder = ArchiveEncoder()
            encoder.outputFormat = format
            #expect(try ArchiveDecoder().decode([Named].self, from: encoder.encode(named)) == named)
            #expect(try ArchiveDecoder().decode([Int].self, from: encoder.encode(numbers)) == numbers)
            #expect(try ArchiveDecoder().decode([String].self, from: encoder.encode(strings)) == strings)
        }
    }

    @Test("Elements listed out of layout order, and shared, decode as listed")
    func outOfOrder() throws {
        let count = 3_000
        let shuffled = (0..<count).map { ($0 * 7_919) % count }
        let decoded = try ArchiveDecoder().decode([Named].self, from: namedList(count: count, order: shuffled))
        #expect(decoded == shuffled.map { Named(name: "n\($0)") })
        let repeated = (0..<count).map { $0 % 5 == 0 ? 0 : count - 1 - $0 }
        let shared = try ArchiveDecoder().decode([Named].self, from: namedList(count: count, order: repeated))
        #expect(shared == repeated.map { Named(name: "n\($0)") })
    }

    @Test("A bad element at the end of a large list is an out-of-range error at its index")
    func badElement() throws {
        let count = 3_000
        let data = namedList(count: count, order: Array(0..<count), extra: [99_999])
        do {
            _ = try ArchiveDecoder().decode([Named].self, from: data)
            Issue.record("a UID out of range decoded")
        } catch let error as DecodingError {
            #expect("\(error)".contains("out of range"))
            if case .dataCorrupted(let context) = error {
                #expect(context.codingPath.last?.intValue == count)
            }
        }
    }
}
