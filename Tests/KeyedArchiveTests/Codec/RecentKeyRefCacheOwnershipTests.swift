import Foundation
import Testing
@testable import KeyedArchive

/// The table of recent Key types (`RecentKeyRefCaches`) holds its caches unretained: the
/// decode's table of every Key type met owns them. More Key types than the recent table has
/// slots, opened in turn and again, must each find their own cache, whichever table answers.
@Suite("Key types' caches owned by the decode, recent ones held unretained")
struct RecentKeyRefCacheOwnershipTests {
    /// One field of its own around the next level: each `Level<Inner>` is a Key type of its own.
    struct Level<Inner: Codable & Equatable>: Codable, Equatable {
        var depth: Int
        var inner: Inner
    }

    /// Whether `levels` more `Level`s around `value` (each a new type) read back whole, two
    /// values in one decode, in two decodes.
    static func roundTrip<T: Codable & Equatable>(_ value: T, levels: Int) throws -> Bool {
        guard levels > 0 else {
            let data = try ArchiveEncoder().encode([value, value])
            return try ArchiveDecoder().decode([T].self, from: data) == [value, value]
                && ArchiveDecoder().decode([T].self, from: data) == [value, value]
        }
        return try roundTrip(Level(depth: levels, inner: value), levels: levels - 1)
    }

    @Test("Eighty nested Key types, more than the recent slots hold, decoded twice in one decode and in two")
    func manyKeyTypes() throws {
        #expect(80 > RecentKeyRefCaches.mask + 1)
        #expect(try Self.roundTrip(7, levels: 80))
    }

    @Test("The recent table keeps no cache alive: the decode's table does")
    func recentTableDoesNotOwn() {
        let recent = RecentKeyRefCaches()
        var owner = [KeyRefCache()]
        weak let weakCache = owner[0]
        recent.remember(owner[0], for: 0x1230)
        #expect(recent.cache(for: 0x1230) === owner[0])
        owner.removeAll()
        #expect(weakCache == nil)
    }
}
