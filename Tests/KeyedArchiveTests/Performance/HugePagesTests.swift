import Foundation
import Testing
@testable import KeyedArchive

/// Large tables and files are marked for transparent huge pages (`HugePages`): the marking
/// must not change what they hold, and on Linux the mark must land on the table's own
/// whole 2 MB blocks and nowhere for small ones.
@Suite("Huge pages for large tables and files")
struct HugePagesTests {
    @Test("A table made through HugePages holds what Array(repeating:count:) holds, small or large")
    func sameContents() {
        for count in [0, 1, 7, 1_000, (HugePages.minimumBytes / 4) + 12_345] {
            let made = HugePages.array(repeating: UInt32(0xA5A5_5A5A), count: count)
            #expect(made.count == count)
            #expect(made.allSatisfy { $0 == 0xA5A5_5A5A })
        }
        struct Slot: Equatable { var hash: UInt32; var position: Int32 }
        let slots = HugePages.array(repeating: Slot(hash: 1, position: -1), count: 1 << 20)
        #expect(slots.count == 1 << 20 && slots.first == Slot(hash: 1, position: -1) && slots.last == slots.first)
    }

    #if os(Linux)
    /// Whether this kernel has transparent huge pages at all (their setting's file exists).
    static var kernelHasHugePages: Bool {
        FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")
    }

    /// An address in the middle of the first whole 2 MB block at or after `address`.
    static func insideFirstBlock(from address: Int) -> Int {
        let block = HugePages.blockBytes
        return ((address + block - 1) & ~(block - 1)) + block / 2
    }

    /// The `VmFlags` line of the mapping holding `address` in /proc/self/smaps, if any.
    static func flags(at address: Int) throws -> [Substring]? {
        // Read to the end (the file reports a size of 0, and is read as it is generated).
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return nil }
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 1)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { Int($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, line.hasPrefix("VmFlags:") {
                return line.dropFirst("VmFlags:".count).split(separator: " ")
            }
        }
        return nil
    }

    @Test("On Linux with transparent huge pages, a range's whole 2 MB blocks are marked, and a range under 4 MB is not")
    func marksOnlyLargeRanges() throws {
        guard Self.kernelHasHugePages else {
            print("skipped: this kernel has no transparent huge pages")
            return
        }
        // A mapping of our own, so that no other test's memory shares it.
        let size = 16 << 20
        let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let region = mapped, region != MAP_FAILED else {
            Issue.record("mmap failed")
            return
        }
        defer { munmap(region, size) }
        let inFirstBlock = Self.insideFirstBlock(from: Int(bitPattern: region))

        HugePages.advise(region, bytes: HugePages.minimumBytes - 1)
        let unmarked = try Self.flags(at: inFirstBlock)
        #expect(unmarked != nil && unmarked?.contains("hg") == false, "VmFlags after a 4 MB - 1 range: \(unmarked ?? [])")

        HugePages.advise(region, bytes: 8 << 20)
        let marked = try Self.flags(at: inFirstBlock)
        #expect(marked?.contains("hg") == true, "VmFlags after an 8 MB range: \(marked ?? [])")
        // The bytes past the range's last whole block are not marked.
        let past = try Self.flags(at: Int(bitPattern: region) + (8 << 20) + HugePages.blockBytes)
        #expect(past?.contains("hg") == false, "VmFlags past the range: \(past ?? [])")

        // A large table made through HugePages has its first whole block marked.
        var large = HugePages.array(repeating: UInt64(0), count: (8 << 20) / 8)
        let inside = large.withUnsafeMutableBufferPointer { Self.insideFirstBlock(from: Int(bitPattern: $0.baseAddress)) }
        let table = try Self.flags(at: inside)
        #expect(table?.contains("hg") == true, "VmFlags of a large table's first whole block: \(table ?? [])")
        #expect(large.count == 1 << 20)
    }
    #endif

    @Test("An archive of more than 16 MB (its file on huge pages) reads back, and encodes to the same bytes twice")
    func largeArchiveRoundTrip() throws {
        let values = (0..<700_000).map { Double($0) * 1.000_001 }
        let encoder = ArchiveEncoder()
        let data = try encoder.encode(values)
        #expect(data.count >= OutputBuffer.hugePageThreshold)
        let again = try encoder.encode(values)
        #expect(again == data)
        let back = try ArchiveDecoder().decode([Double].self, from: data)
        #expect(back == values)
        #if os(Linux)
        if Self.kernelHasHugePages {
            // The file's own pages (mapped by OutputBuffer) are marked.
            let inside = data.withUnsafeBytes { Self.insideFirstBlock(from: Int(bitPattern: $0.baseAddress)) }
            let flags = try Self.flags(at: inside)
            #expect(flags?.contains("hg") == true, "VmFlags of the file's first whole block: \(flags ?? [])")
        }
        #endif
    }
}
