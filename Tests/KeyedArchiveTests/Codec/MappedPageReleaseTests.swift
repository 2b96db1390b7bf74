import Foundation
import Testing
@testable import KeyedArchive

/// `decode(_:contentsOf:)` releases the mapped file's pages as it goes, through the work
/// budget's tranches: the budget must add up to the same limit, and the values read must be
/// the same whatever the interval.
@Suite("Releasing a mapped file's pages while decoding it")
struct MappedPageReleaseTests {
    struct Person: Codable, Equatable {
        var name: String
        var age: Int
        var tags: [String]
        var note: String?
    }

    static let people = (0..<400).map {
        Person(name: "person \($0) " + String(repeating: "x", count: $0 % 90), age: $0,
               tags: ["t\($0 % 3)", "x"], note: $0 % 2 == 0 ? nil : "note \($0)")
    }

    /// Counts the hook's runs (the budget's hook is `@Sendable`).
    final class Counter: @unchecked Sendable {
        var runs = 0
    }

    @Test("Tranches add up to the limit, and the hook runs once per tranche spent")
    func tranchesKeepTheLimit() {
        let counter = Counter()
        var budget = ArchiveWorkBudget(limits: .init(maxObjectVisits: 1_000), inputSize: 0)
        budget.handOutInTranches(of: 64) { counter.runs += 1 }
        var granted = 0
        while budget.charge(1) { granted += 1 }
        #expect(granted == 1_000)
        #expect(counter.runs == 15)  // 16 tranches of at most 64: the first is handed out at once
        let after = budget.charge(1)
        #expect(!after)

        // One charge larger than a tranche takes as many as it needs, running the hook once.
        let big = Counter()
        var other = ArchiveWorkBudget(limits: .init(maxObjectVisits: 1_000), inputSize: 0)
        other.handOutInTranches(of: 64) { big.runs += 1 }
        let took = other.charge(200)
        #expect(took && big.runs == 1 && other.remaining == 56)
        let over = other.charge(801)
        #expect(!over)

        // A budget no larger than one tranche is handed out whole, without a hook.
        let none = Counter()
        var small = ArchiveWorkBudget(limits: .init(maxObjectVisits: 50), inputSize: 0)
        small.handOutInTranches(of: 64) { none.runs += 1 }
        let whole = small.charge(50), past = small.charge(1)
        #expect(whole && !past && none.runs == 0)
    }

    @Test("A file decoded with its pages released every few units reads the same values, binary and XML")
    func sameValues() throws {
        let folder = try Scratch.folder("pages")
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in [PropertyListFormat.binary, .xml] {
            let url = folder.appendingPathComponent("people-\(format).archive")
            try archive(Self.people, format: format).write(to: url)
            for interval in [1, 7, 64] {
                let decoded = try ArchiveDecoder().decode([Person].self, contentsOf: url, releasingPagesEvery: interval)
                #expect(decoded == Self.people, "format \(format), interval \(interval)")
            }
        }
    }

    @Test("The work limit is the same with pages released: the same archive fails the same way")
    func sameLimit() throws {
        let folder = try Scratch.folder("pages")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("people.archive")
        let data = try archive(Self.people, format: .binary)
        try data.write(to: url)
        let decoder = ArchiveDecoder()
        // Find the smallest budget that decodes, then check one unit less fails from the file too.
        var low = 1, high = 1 << 20
        while low < high {
            let mid = (low + high) / 2
            decoder.limits.maxObjectVisits = mid
            if (try? decoder.decode([Person].self, from: data)) != nil { high = mid } else { low = mid + 1 }
        }
        decoder.limits.maxObjectVisits = low
        #expect(try decoder.decode([Person].self, contentsOf: url, releasingPagesEvery: 5) == Self.people)
        decoder.limits.maxObjectVisits = low - 1
        #expect(throws: DecodingError.self) { try decoder.decode([Person].self, contentsOf: url, releasingPagesEvery: 5) }
    }
}
