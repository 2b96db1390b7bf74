import Foundation
import Testing
@testable import KeyedArchive

// On a large table the binary writer's second pass finds UIDs in `SharedUIDRefs` (the UIDs
// the first pass met more than once, and their references) instead of its word per entry
// (scaleenc2). The threshold is lowered here so that small values take that path, and the
// file must be the one the word per entry gives, byte for byte.

private final class Customer: Codable {
    let name: String
    let tier: Int
    init(name: String, tier: Int) { self.name = name; self.tier = tier }
}

private struct Line: Codable {
    var sku: String
    var note: String?
    var price: Double
}

private struct Ticket: Codable {
    var customer: Customer
    var city: String
    var code: String
    var lines: [Line]
    var tags: [String]
    var counts: [String: Int]
    var backup: Customer?
}

private func ticket(_ i: Int, customers: [Customer]) -> Ticket {
    let cities = ["Lyon", "Porto", "Oslo"]
    var lines: [Line] = []
    for _ in 0..<(i % 4) {
        let note: String? = i % 2 == 0 ? nil : "note \(i)"
        lines.append(Line(sku: "SKU-\(i % 5)", note: note, price: Double(i % 9) / 4))
    }
    // Long arrays of UIDs are numbered and written in one loop (`uidRun`): shared strings,
    // new ones, and the same string twice in one array.
    let tagCount = i % 3 == 0 ? 12 : 3
    let distinctTags = i % 2 == 0 ? 5 : 40
    var tags: [String] = []
    for t in 0..<tagCount { tags.append("tag \((t * 7 + i) % distinctTags)") }
    let code = i % 11 == 0 ? "code \(i)" : "code \(i % 13)"
    let backup: Customer? = i % 5 == 0 ? customers[(i + 1) % customers.count] : nil
    return Ticket(customer: customers[i % customers.count], city: cities[i % cities.count], code: code,
                  lines: lines, tags: tags, counts: ["a": i % 3, "b \(i % 4)": 1], backup: backup)
}

private func tickets(_ count: Int) -> [Ticket] {
    var customers: [Customer] = []
    for c in 0..<7 { customers.append(Customer(name: "customer \(c)", tier: c % 3)) }
    var result: [Ticket] = []
    for i in 0..<count { result.append(ticket(i, customers: customers)) }
    return result
}

@Suite("Binary writer: shared UIDs kept for the second pass")
struct SharedUIDRefsTests {
    /// The binary file of `value`, the shared UIDs kept from tables of `sharedUIDsFrom` entries.
    private func binary<T: Encodable>(_ value: T, sharedUIDsFrom: Int) throws -> Data {
        let table = ArchiveObjectTable()
        let encoder = _ArchiveEncoder(table: table, userInfo: [:])
        table.top = [("root", try encoder.box(value, at: .root))]
        return table.binary(sharedUIDsFrom: sharedUIDsFrom)
    }

    /// `from`: 0, every UID is found in `SharedUIDRefs`; 40, the first 40 in `uidRefs`.
    @Test("Same bytes as the word per entry", arguments: [0, 1, 2, 40, 500], [0, 40])
    func sameBytes(count: Int, from: Int) throws {
        let value = tickets(count)
        let kept = try binary(value, sharedUIDsFrom: from)
        let perEntry = try binary(value, sharedUIDsFrom: .max)
        let encoded = try ArchiveEncoder().encode(value)
        #expect(kept == perEntry)
        #expect(kept == encoded)
        let back = try ArchiveDecoder().decode([Ticket].self, from: kept)
        #expect(back.map(\.code) == value.map(\.code))
        #expect(back.map(\.tags) == value.map(\.tags))
        // The shared customer instances stay shared.
        if count > 7 { #expect(back[0].customer === back[7].customer) }
    }

    @Test("Strings repeated in one long array, and nothing else")
    func repeatedStrings() throws {
        var value: [String] = []
        for i in 0..<300 { value.append("s\(i % 17)") }
        for i in 0..<300 { value.append("t\(i)") }
        for i in 0..<300 { value.append("s\(i % 23)") }
        let kept = try binary(value, sharedUIDsFrom: 0)
        #expect(kept == (try binary(value, sharedUIDsFrom: 100)))
        let perEntry = try binary(value, sharedUIDsFrom: .max)
        #expect(kept == perEntry)
        let back = try ArchiveDecoder().decode([String].self, from: kept)
        #expect(back == value)
    }

    @Test("Marked UIDs give their kept references, the others the next one")
    func refs() {
        var shared = SharedUIDRefs(low: 3, count: 100)
        #expect(shared.isKept)
        #expect(shared.end == 3 + 128)
        for uid in [1, 3, 31, 34, 35, 67, 99] { shared.markShared(uid) }
        shared.markShared(31)  // twice
        shared.markShared(500)  // past the table: nothing
        var uidRefs: [UInt32] = []
        for uid in 0..<100 { uidRefs.append(UInt32(uid * 10)) }
        shared.keepRefs(from: uidRefs)
        for uid in [3, 31, 34, 35, 67, 99] { #expect(shared.ref(uid, orNext: 7) == uid * 10) }
        // Below `low` (1), or met once.
        for uid in [4, 30, 32, 33, 36, 66, 68, 98] { #expect(shared.ref(uid, orNext: 7) == 7) }
        #expect(!SharedUIDRefs().isKept)
    }
}
