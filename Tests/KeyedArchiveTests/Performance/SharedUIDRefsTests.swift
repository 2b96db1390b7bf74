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

private func tickets(_ count: Int) -> [Ticket] {
    let customers = (0..<7).map { Customer(name: "customer \($0)", tier: $0 % 3) }
    let cities = ["Lyon", "Porto", "Oslo"]
    return (0..<count).map { i in
        Ticket(
            customer: customers[i % customers.count],
            city: cities[i % cities.count],
            code: "code \(i % 11 == 0 ? i : i % 13)",
            lines: (0..<(i % 4)).map { Line(sku: "SKU-\(i % 5)", note: i % 2 == 0 ? nil : "note \(i)", price: Double(i % 9) / 4) },
            // Long arrays of UIDs are numbered and written in one loop (`uidRun`): shared
            // strings, new ones, and the same string twice in one array.
            tags: (0..<(i % 3 == 0 ? 12 : 3)).map { "tag \(($0 * 7 + i) % (i % 2 == 0 ? 5 : 40))" },
            counts: ["a": i % 3, "b \(i % 4)": 1],
            backup: i % 5 == 0 ? customers[(i + 1) % customers.count] : nil)
    }
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

    @Test("Same bytes as the word per entry", arguments: [0, 1, 2, 40, 500])
    func sameBytes(count: Int) throws {
        let value = tickets(count)
        let kept = try binary(value, sharedUIDsFrom: 0)
        #expect(kept == (try binary(value, sharedUIDsFrom: .max)))
        #expect(kept == (try ArchiveEncoder().encode(value)))
        let back = try ArchiveDecoder().decode([Ticket].self, from: kept)
        #expect(back.map(\.code) == value.map(\.code))
        #expect(back.map(\.tags) == value.map(\.tags))
        // The shared customer instances stay shared.
        if count > 7 { #expect(back[0].customer === back[7].customer) }
    }

    @Test("Strings repeated in one long array, and nothing else")
    func repeatedStrings() throws {
        let value = (0..<300).map { "s\($0 % 17)" } + (0..<300).map { "t\($0)" }
        let kept = try binary(value, sharedUIDsFrom: 0)
        #expect(kept == (try binary(value, sharedUIDsFrom: .max)))
        #expect(try ArchiveDecoder().decode([String].self, from: kept) == value)
    }

    @Test("Marked UIDs give their kept references, the others the next one")
    func refs() {
        var shared = SharedUIDRefs(count: 100)
        #expect(shared.isKept)
        #expect(shared.count == 128)
        for uid in [3, 31, 32, 64, 99] { shared.markShared(uid) }
        shared.markShared(31)  // twice
        shared.markShared(500)  // past the table: nothing
        let uidRefs = (0..<100).map { UInt32($0 * 10) }
        shared.keepRefs(from: uidRefs)
        for uid in [3, 31, 32, 64, 99] { #expect(shared.ref(uid, orNext: 7) == uid * 10) }
        for uid in [0, 2, 4, 30, 33, 63, 65, 98] { #expect(shared.ref(uid, orNext: 7) == 7) }
        #expect(!SharedUIDRefs().isKept)
    }
}
