import Foundation
import KeyedArchive

// --memory's mapped-file row: the peak resident growth of `ArchiveDecoder.decode(_:contentsOf:)`
// on a ~200 MB archive, as a multiple of the file's size. The file is memory-mapped and decoded
// in place, so the growth is the file's pages the decode touches (resident while mapped) plus
// the values decoded: nothing is copied.

/// The flat workload written to a temporary file of about `targetBytes`, decoded from the file.
func mappedMemoryRows(targetBytes: Int, reset: inout Bool) throws -> [MemoryRow] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyedarchive-mapped-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("flat.archive")
    let encoder = ArchiveEncoder()
    let sample = try encoder.encode(makePeople(10_000))
    let records = max(1, targetBytes / max(1, sample.count / 10_000))
    progress("memory: writing a \(targetBytes >> 20) MB archive of \(records.grouped) records to \(url.path)")
    let (first, last): (Person?, Person?) = try {
        let people = makePeople(records)
        try encoder.encode(people).write(to: url)
        return (people.first, people.last)
    }()
    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
    ProcessMemory.trim()
    let before = ProcessMemory.status("VmRSS") ?? 0
    reset = ProcessMemory.resetPeak() && reset
    let decoded = try ArchiveDecoder().decode([Person].self, contentsOf: url)
    let peak = ProcessMemory.status("VmHWM") ?? 0
    guard decoded.count == records, decoded.first == first, decoded.last == last else {
        throw BenchmarkFailure(description: "memory: the mapped archive decoded wrong")
    }
    blackHole(decoded)
    return [MemoryRow(workload: "mapped-\(targetBytes >> 20)MB", step: "ArchiveDecoder", op: .decode, bytes: size,
                      before: before, peak: peak)]
}
