import Foundation
import Testing
import KeyedArchive

/// `ArchiveEncoder` and `ArchiveDecoder` are `Sendable`, like Foundation's coders: one
/// instance may be shared by concurrent tasks while its options change.
@Suite("Sharing coders across tasks")
struct ConcurrencyTests {
    struct Item: Codable, Equatable, Sendable { var id: Int; var name: String; var tags: [String: Int] }

    @Test("One encoder and one decoder used from many tasks give the same bytes and values")
    func sharedCoders() async throws {
        let encoder = ArchiveEncoder()
        let decoder = ArchiveDecoder()
        let items = (0..<64).map { Item(id: $0, name: "item \($0)", tags: ["a": $0, "b": -$0]) }
        let expected = try items.map { try encoder.encode($0) }
        let key = try #require(CodingUserInfoKey(rawValue: "k"))
        let results = try await withThrowingTaskGroup(of: (Int, Data, Item).self) { group in
            for (index, item) in items.enumerated() {
                group.addTask {
                    let data = try encoder.encode(item)
                    return (index, data, try decoder.decode(Item.self, from: data))
                }
            }
            // Options change while the tasks run; each encode reads one consistent snapshot.
            encoder.userInfo = [key: 1]
            decoder.limits = ArchiveDecoder.Limits(maxDepth: 100)
            var results: [(Int, Data, Item)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(results.count == items.count)
        for (index, data, item) in results {
            #expect(data == expected[index], "deterministic under concurrency")
            #expect(item == items[index])
        }
    }
}
