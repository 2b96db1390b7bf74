import Foundation
import Testing
import KeyedArchive

// The binary writer frees the object table behind its second pass (every 2,048 entries:
// kinds, payloads, strings, records and data no later entry reads) and writes a large file
// into pages of its own. These tests take a value large enough for every one of those paths
// (more than 8,192 strings and entries, records and data in many chunks, a file over
// 256 KB) and check the file against the XML writer, which frees nothing.

private struct Row: Codable, Equatable {
    var name: String
    var id: UUID
    var blob: Data
    var count: Int
    var ratio: Double
    var tags: [String]
}

private func rows(_ count: Int) -> [Row] {
    (0..<count).map { (i: Int) -> Row in
        let low = UInt8(truncatingIfNeeded: i)
        let high = UInt8(truncatingIfNeeded: i >> 8)
        let id = UUID(uuid: (low, high, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14))
        let blob = Data((0..<(i % 40)).map { (j: Int) -> UInt8 in UInt8(truncatingIfNeeded: j &* i) })
        let tags: [String] = ["t\(i % 11)", "u\(i % 5)"]
        return Row(name: "row \(i) of a table long enough to be stored out of line", id: id, blob: blob,
                   count: i * 3, ratio: Double(i) / 8, tags: tags)
    }
}

@Suite("Encoder memory release")
struct EncoderMemoryReleaseTests {
    @Test("A large archive written while its table is freed reads back, and matches the XML writer's")
    func largeArchive() throws {
        let value = rows(12_000)
        let encoder = ArchiveEncoder()
        let binary = try encoder.encode(value)
        #expect(binary.count > 1 << 18)
        #expect(try ArchiveDecoder().decode([Row].self, from: binary) == value)
        // Deterministic, table freed or not.
        #expect(try encoder.encode(value) == binary)

        // The independent reader sees the same objects in the binary file as in the XML one.
        encoder.outputFormat = .xml
        let xml = try encoder.encode(value)
        let fromBinary = try PropertyListSerialization.propertyList(from: binary, format: nil) as? [String: Any]
        let fromXML = try PropertyListSerialization.propertyList(from: xml, format: nil) as? [String: Any]
        let binaryObjects = try #require(fromBinary?["$objects"] as? [Any])
        let xmlObjects = try #require(fromXML?["$objects"] as? [Any])
        #expect(binaryObjects.count == xmlObjects.count)
        #expect(binaryObjects.count > 8_192 * 4)
        let binaryStrings = binaryObjects.compactMap { $0 as? String }
        let xmlStrings = xmlObjects.compactMap { $0 as? String }
        #expect(binaryStrings == xmlStrings)
        #expect(binaryStrings.count > 8_192)
        let binaryData = binaryObjects.compactMap { $0 as? Data }
        #expect(binaryData == xmlObjects.compactMap { $0 as? Data })
        #expect(try ArchiveDecoder().decode([Row].self, from: xml) == value)
    }

    @Test("A small archive (no release, no mapped pages) round-trips")
    func smallArchive() throws {
        let value = rows(3)
        let binary = try ArchiveEncoder().encode(value)
        #expect(binary.count < 1 << 18)
        #expect(try ArchiveDecoder().decode([Row].self, from: binary) == value)
    }
}
