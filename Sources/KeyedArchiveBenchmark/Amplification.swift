import Foundation
import HostileArchives
import KeyedArchive

// keyedarchive-benchmark --hostile, second part: the amplification families of issue 32 §2
// (one value referenced from many places) at 1 KB … 1 MB, through their typed decodes (and,
// for the AppKit families of issue 53, the values written back: output = bytes written),
// KeyedArchiveView, render() and the tool's json, dump, swift, verify and convert (to binary
// and to XML): time, peak memory and output per input MB, against the rule (≤ 2 s per MB, at
// least 1 s allowed; peak ≤ 200 MB + 64 × input; output ≤ 64 × input + 1 MB; 100 KB → 1 MB
// at most 15 × the time).

/// One measured run.
private struct AmplificationRow {
    let family: AmplificationFamily
    let reader: String
    let inputBytes: Int
    let ms: Double
    /// Peak resident growth (in process) or the child's peak resident size (tool commands).
    let peakBytes: Int
    let outputBytes: Int
    let outcome: String

    var inputMB: Double { Double(inputBytes) / 1_048_576 }
    /// Whether the run is within issue 32's bounds.
    var withinRule: Bool {
        let mb = 1_048_576.0
        return ms <= max(1_000, 2_000 * inputMB) && Double(peakBytes) <= 200 * mb + 64 * Double(inputBytes)
            && Double(outputBytes) <= 64 * Double(inputBytes) + mb
    }
}

/// Runs `body` with the resident peak reset: milliseconds, peak growth in bytes, and its result.
func measured<R>(_ body: () -> R) -> (ms: Double, peak: Int, result: R) {
    ProcessMemory.trim()
    let before = ProcessMemory.status("VmRSS") ?? 0
    _ = ProcessMemory.resetPeak()
    let start = nowNanoseconds()
    let result = body()
    let ms = Double(nowNanoseconds() - start) / 1e6
    let peak = ProcessMemory.status("VmHWM") ?? 0
    return (ms, max(0, peak - before), result)
}

/// ``measured(_:)`` three times when a run takes under 200 ms (short runs are noisy on a
/// shared machine): the median time, the largest peak, the last result.
private func measuredMedian<R>(_ body: () -> R) -> (ms: Double, peak: Int, result: R) {
    var runs = [measured(body)]
    if runs[0].ms < 200 { runs += [measured(body), measured(body)] }
    let times = runs.map(\.ms).sorted()
    return (times[times.count / 2], runs.map(\.peak).max() ?? 0, runs[runs.count - 1].result)
}

/// The `keyedarchive` tool built beside this benchmark, if any.
func toolPath() -> String? {
    let own = URL(fileURLWithPath: ProcessInfo.processInfo.arguments.first ?? "").resolvingSymlinksInPath()
    let tool = own.deletingLastPathComponent().appendingPathComponent("keyedarchive").path
    return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil
}

/// Runs the tool: milliseconds, its peak resident size, bytes it wrote, exit status. Through
/// GNU time when installed: a child spawned from this process starts with this process's
/// peak (posix_spawn shares its memory until exec), one that time forks does not.
func runTool(_ tool: String, _ arguments: [String]) -> (ms: Double, peak: Int, output: Int, status: Int32) {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { return spawn(tool, arguments) }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("amplification-time-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: report) }
    var run = spawn(time, ["-f", "%M", "-o", report, tool] + arguments)
    // The report's last line is the peak in KB (a failing command adds a line before it).
    if let text = try? String(contentsOfFile: report, encoding: .utf8),
       let kilobytes = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
        run.peak = kilobytes * 1024
    }
    return run
}

/// Spawns `executable` with `arguments`: milliseconds, the child's peak resident size,
/// bytes it wrote, exit status. (posix_spawn and wait4 rather than `Process`, whose own
/// reaping of the child would take its resource usage.)
private func spawn(_ tool: String, _ arguments: [String]) -> (ms: Double, peak: Int, output: Int, status: Int32) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return (0, 0, 0, -1) }
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?  // a pointer typedef on Darwin, a structure in glibc
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    let argv = ([tool] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = nowNanoseconds()
    let spawned = posix_spawn(&pid, tool, &actions, nil, argv, environ)
    close(fds[1])
    defer { close(fds[0]) }
    guard spawned == 0 else { return (0, 0, 0, -1) }
    var output = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = read(fds[0], &buffer, buffer.count)
        if count <= 0 { break }
        output += count
    }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let ms = Double(nowNanoseconds() - start) / 1e6
    #if canImport(Darwin)
    let peak = usage.ru_maxrss  // bytes on Darwin
    #else
    let peak = usage.ru_maxrss * 1024  // kilobytes on Linux
    #endif
    return (ms, peak, output, (status >> 8) & 0xFF)
}

/// The amplification families (all, or those named) at every size, one run each.
func runAmplification(_ options: Options) {
    let families = options.amplificationFamilies.isEmpty
        ? (options.familiesNamed ? [] : AmplificationFamily.allCases)
        : options.amplificationFamilies
    guard !families.isEmpty else { return }
    let tool = toolPath()
    if tool == nil { progress("keyedarchive is not built beside the benchmark: json, dump, swift, verify and convert are left out") }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("amplification-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var rows: [AmplificationRow] = []
    for family in families {
        for size in HostileSize.allCases where size.bytes <= options.hostileMaxBytes {
            progress("amplification: \(family) at \(size)…")
            let data = family.archive(targetBytes: size.bytes)
            func add(_ reader: String, _ ms: Double, _ peak: Int, _ output: Int, _ outcome: String) {
                let row = AmplificationRow(family: family, reader: reader, inputBytes: data.count, ms: ms,
                                           peakBytes: peak, outputBytes: output, outcome: outcome)
                rows.append(row)
                if options.machine {
                    print("amplification family=\(family) reader=\(reader.replacingOccurrences(of: " ", with: "_")) size=\(data.count) "
                          + "ms=\(fixed(ms, 3)) peak_bytes=\(peak) output_bytes=\(output) outcome=\(outcome) within_rule=\(row.withinRule)")
                    fflush(nil)
                }
            }
            for probe in family.probes {
                // A probe that writes the value back is timed decode and encode together.
                let run = measuredMedian { probe.runReportingOutput(data) }
                let written = (try? run.result.get()) ?? 0
                add(probe.name, run.ms, run.peak, written, (try? run.result.get()) == nil ? "error" : "value")
            }
            let opened = measuredMedian { Result { try KeyedArchiveView(data: data) } }
            add("view", opened.ms, opened.peak, 0, (try? opened.result.get()) == nil ? "error" : "value")
            if case .success(let view) = opened.result {
                let rendered = measuredMedian { view.render() }
                add("render()", rendered.ms, rendered.peak, rendered.result.utf8.count,
                    rendered.result.contains("… stopped:") ? "limit" : "value")
            }
            guard let tool else { continue }
            let file = folder.appendingPathComponent("\(family)-\(size.bytes).plist")
            guard (try? data.write(to: file)) != nil else { continue }
            let commands = [["json"], ["dump"], ["swift"], ["verify"], ["convert", "--to", "binary"], ["convert", "--to", "xml"]]
            for command in commands {
                let run = runTool(tool, command + [file.path])
                let reader = command.count > 1 ? "\(command[0]) \(command[2])" : command[0]
                add(reader, run.ms, run.peak, run.output, run.status == 0 ? "value" : "error")
            }
        }
        if !options.machine { print(amplificationTable(rows.filter { $0.family == family })) }
        fflush(nil)
    }
    let failing = rows.filter { !$0.withinRule }
    print(options.machine ? "amplification within_rule=\(failing.isEmpty) failing=\(failing.count)"
          : failing.isEmpty ? "Every amplification run is within issue 32's bounds."
          : "Outside issue 32's bounds: " + failing.map { "\($0.family)/\($0.reader) at \($0.inputBytes) bytes" }.joined(separator: ", "))
}

/// One family's rows: per reader, at each size, s per input MB, peak MB per input MB and
/// output per input byte, then the 1 MB / 100 KB time ratio and the outcome at 1 MB.
private func amplificationTable(_ rows: [AmplificationRow]) -> String {
    guard let family = rows.first?.family else { return "" }
    var lines = ["", "=== amplification: \(family) (per input MB: s = seconds, MB = peak memory MB, out = output bytes per input byte) ===",
                 pad("reader", 20, left: true) + HostileSize.allCases.filter { size in rows.contains { abs($0.inputBytes - size.bytes) * 5 < size.bytes } }
                    .map { pad($0.description + " s|MB|out", 24) }.joined()
                 + pad("time ×", 9) + "  at 1 MB"]
    var readers: [String] = []
    for row in rows where !readers.contains(row.reader) { readers.append(row.reader) }
    for reader in readers {
        let mine = rows.filter { $0.reader == reader }
        let cells = mine.map { row -> String in
            let perMB = { (value: Double) in value / max(row.inputMB, 1e-9) }
            return pad("\(fixed(perMB(row.ms / 1000), 2))|\(fixed(perMB(Double(row.peakBytes) / 1_048_576), 0))|\(fixed(Double(row.outputBytes) / Double(max(row.inputBytes, 1)), 1))", 24)
        }
        let ratio = mine.count >= 2 ? mine[mine.count - 1].ms / max(mine[mine.count - 2].ms, 0.001) : 0
        let last = mine.last
        lines.append(pad(reader, 20, left: true) + cells.joined() + pad(fixed(ratio, 1), 9)
                     + "  " + (last.map { "\($0.outcome), \(millis($0.ms)) ms\($0.withinRule ? "" : " OUTSIDE THE RULE")" } ?? ""))
    }
    return lines.joined(separator: "\n")
}
