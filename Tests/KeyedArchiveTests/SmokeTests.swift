import Foundation
import Testing
@testable import KeyedArchive

struct Dog: Codable, Equatable { var name: String }
struct Person: Codable, Equatable {
    var name: String; var age: Int; var weight: Double; var birth: Date; var tags: [String]; var dog: Dog?; var flag: Bool
    var url: URL; var id: UUID; var dec: Decimal; var dict: [String: Int]; var set: Set<Int>; var big: UInt64; var f: Float; var data: Data
}

@Test func smoke() throws {
    let p = Person(name: "Ada", age: 36, weight: 61.5, birth: Date(timeIntervalSinceReferenceDate: 12.5), tags: ["a", "b", "a"], dog: Dog(name: "Rex"), flag: true,
                   url: URL(string: "https://x.org/a")!, id: UUID(), dec: Decimal(string: "12.345")!, dict: ["x": 1, "y": 2], set: [3, 1, 2], big: UInt64.max, f: 1.5, data: Data([1, 2, 3]))
    let data = try ArchiveEncoder().encode(p)
    try data.write(to: URL(fileURLWithPath: "/tmp/smoke.bplist"))
    let back = try ArchiveDecoder().decode(Person.self, from: data)
    #expect(back == p)
}
