import Foundation
import KeyedArchive

// keyedarchive-benchmark --folder: the `keyedarchive` tool on a whole folder (json, JSON
// Lines) with one thread and with every core, against running the tool once per file.
// Needs `keyedarchive` built beside the benchmark:
//   swift build -c release --product keyedarchive && swift build -c release --product keyedarchive-benchmark

/// A small record, as apps archive their settings and notes.
private struct FolderNote: Codable {
    var title: String
    var author: String
    var tags: [String]
    var count: Int
    var created: Date
    var id: UUID
}

private func note(_ index: Int) -> FolderNote {
    FolderNote(title: "Note \(index)", author: "Author \(index % 97)", tags: ["tag\(index % 7)", "tag\(index % 11)"],
               count: index, created: Date(timeIntervalSinceReferenceDate: Double(index) * 60),
               id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(index >> 24 & 0xFF), UInt8(index >> 16 & 0xFF),
                               UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF))))
}

/// One set of files: where they are, how many, how many bytes.
private struct FolderSet {
    let name: String
    let root: URL
    let files: [String]
    let bytes: Int
}

/// Writes `count` archives of `records` notes each under `root`, 100 to a subfolder.
private func makeSet(_ name: String, count: Int, records: Int, in root: URL) throws -> FolderSet {
    let encoder = ArchiveEncoder()
    var files: [String] = []
    var bytes = 0
    for index in 0..<count {
        let folder = root.appendingPathComponent(String(format: "%03d", index / 100))
        if index % 100 == 0 { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let data = records == 1 ? try encoder.encode(note(index))
            : try encoder.encode((0..<records).map { note(index * records + $0) })
        let path = folder.appendingPathComponent("\(index).archive").path
        try data.write(to: URL(fileURLWithPath: path))
        files.append(path)
        bytes += data.count
    }
    return FolderSet(name: name, root: root, files: files, bytes: bytes)
}

/// A way of running the tool over a set: milliseconds for the files it covers, peak memory.
private struct FolderContender {
    let name: String
    /// How many of the set's files one run covers.
    let files: (FolderSet) -> Int
    let run: (String, FolderSet) -> (ms: Double, peak: Int, ok: Bool)
}

private func contenders(cores: Int, perFileSample: Int) -> [FolderContender] {
    var list = [FolderContender(
        name: "one process per file (\(perFileSample) files)",
        files: { min($0.files.count, perFileSample) },
        run: { tool, set in
            var ms = 0.0, peak = 0, ok = true
            for file in set.files.prefix(perFileSample) {
                let run = runTool(tool, ["json", "--compact", file])
                ms += run.ms
                peak = max(peak, run.peak)
                ok = ok && run.status == 0
            }
            return (ms, peak, ok)
        })]
    for jobs in Array(Set([1, cores])).sorted() {
        list.append(FolderContender(name: "one run, --jobs \(jobs)", files: { $0.files.count }, run: { tool, set in
            let run = runTool(tool, ["json", "--quiet", "--jobs", "\(jobs)", set.root.path])
            return (run.ms, run.peak, run.status == 0)
        }))
    }
    return list
}

func runFolder(_ options: Options) throws {
    guard let tool = toolPath() else {
        throw BenchmarkFailure(description: "--folder needs keyedarchive built beside the benchmark (swift build -c release --product keyedarchive)")
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("keyedarchive-folder-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    progress("writing the folders…")
    let sets = [
        try makeSet("10,000 small archives", count: 10_000, records: 1, in: scratch.appendingPathComponent("small")),
        try makeSet("8 large archives", count: 8, records: 20_000, in: scratch.appendingPathComponent("large")),
    ]
    let rounds = max(1, min(options.rounds, 3))
    print("keyedarchive json on a folder (JSON Lines to a pipe), \(cores) cores; median of \(rounds) alternating rounds")
    for set in sets {
        let list = contenders(cores: cores, perFileSample: set.files.count > 1_000 ? 200 : set.files.count)
        var times = Array(repeating: [Double](), count: list.count)
        var peaks = Array(repeating: 0, count: list.count)
        for round in 0..<rounds {
            progress("\(set.name): round \(round + 1) of \(rounds)…")
            for (index, contender) in list.enumerated() {
                let run = contender.run(tool, set)
                guard run.ok else { throw BenchmarkFailure(description: "\(contender.name) failed on \(set.name)") }
                times[index].append(run.ms)
                peaks[index] = max(peaks[index], run.peak)
            }
        }
        let average = Double(set.bytes) / Double(set.files.count)
        print("\n\(set.name), \(String(format: "%.1f", average / (average < 100_000 ? 1 : 1_048_576)))\(average < 100_000 ? " bytes" : " MB") each")
        print("  contender                           files/s      MB/s   ms/file   peak MB  spread")
        var perSecond: [Double] = []
        for (index, contender) in list.enumerated() {
            let sorted = times[index].sorted()
            let ms = sorted[sorted.count / 2]
            let files = Double(contender.files(set))
            let rate = files / (ms / 1000)
            perSecond.append(rate)
            let megabytes = rate * average / 1_048_576
            let spread = sorted.count > 1 && ms > 0 ? (sorted[sorted.count - 1] - sorted[0]) / ms * 100 : 0
            let name = contender.name.padding(toLength: 32, withPad: " ", startingAt: 0)
            print("  " + name + String(format: " %9.1f %9.1f %9.3f %9.1f %6.0f%%", rate, megabytes, ms / files,
                                       Double(peaks[index]) / 1_048_576, spread))
        }
        if perSecond.count >= 2 {
            var line = String(format: "  --jobs 1 ÷ one process per file: %.1f×", perSecond[1] / perSecond[0])
            if perSecond.count >= 3 { line += String(format: "; --jobs %d ÷ --jobs 1: %.2f×", cores, perSecond[2] / perSecond[1]) }
            print(line)
        }
        fflush(nil)
    }
}
