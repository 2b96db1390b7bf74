import Foundation
import KeyedArchive

// --memory: the resident high-water mark (VmHWM) of each encode and decode, as a multiple
// of the bytes it writes (encode) or reads (decode).

/// One --memory step: resident size before, peak during.
struct MemoryRow {
    let workload: String
    let step: String
    let op: Op
    /// Output bytes for an encode, input bytes for a decode.
    let bytes: Int
    let before: Int
    let peak: Int
    var growth: Int { peak - before }
    var multiple: Double { Double(growth) / Double(max(bytes, 1)) }
}

/// Encoders and decoders of one Codable value: ours (binary and XML), JSON, property list.
private func memoryRows<T: Codable & Equatable>(_ workload: String, _ value: T, reset: inout Bool) throws -> [MemoryRow] {
    let archive = ArchiveEncoder()
    let xml = ArchiveEncoder()
    xml.outputFormat = .xml
    let json = JSONEncoder()
    let plist = PropertyListEncoder()
    plist.outputFormat = .binary
    let encoders: [(String, () throws -> Data, (Data) throws -> T)] = [
        ("ArchiveEncoder", { try archive.encode(value) }, { try ArchiveDecoder().decode(T.self, from: $0) }),
        ("ArchiveEncoder.xml", { try xml.encode(value) }, { try ArchiveDecoder().decode(T.self, from: $0) }),
        ("JSONEncoder", { try json.encode(value) }, { try JSONDecoder().decode(T.self, from: $0) }),
        ("PropertyListEncoder", { try plist.encode(value) }, { try PropertyListDecoder().decode(T.self, from: $0) }),
    ]
    /// Runs `body` with the peak reset first; its result stays alive until the peak is read.
    func step<R>(_ body: () throws -> R) rethrows -> (result: R, before: Int, peak: Int) {
        ProcessMemory.trim()
        let before = ProcessMemory.status("VmRSS") ?? 0
        reset = ProcessMemory.resetPeak() && reset
        let result = try body()
        let peak = ProcessMemory.status("VmHWM") ?? 0
        blackHole(result)
        return (result, before, peak)
    }
    var rows: [MemoryRow] = []
    for (name, encode, decode) in encoders {
        // One unmeasured round first, so lazily built tables (class names, metadata) are not counted.
        let warm = try encode()
        guard try decode(warm) == value else { throw BenchmarkFailure(description: "memory: \(name) round trip of \(workload) is wrong") }
        let encoded = try step(encode)
        rows.append(MemoryRow(workload: workload, step: name, op: .encode, bytes: encoded.result.count,
                              before: encoded.before, peak: encoded.peak))
        let decoderName = name.replacingOccurrences(of: "Encoder", with: "Decoder")
        let decoded = try step { try decode(encoded.result) }
        rows.append(MemoryRow(workload: workload, step: decoderName, op: .decode, bytes: encoded.result.count,
                              before: decoded.before, peak: decoded.peak))
    }
    return rows
}

func runMemory(_ options: Options) throws {
    let people = makePeople(options.sizes.records), orders = makeOrders(options.sizes.records)
    var runs: [[MemoryRow]] = []
    for index in 1...options.runs {
        var reset = true
        var rows = try memoryRows("flat", people, reset: &reset)
        rows += try memoryRows("order", orders, reset: &reset)
        if options.mappedMegabytes > 0 { rows += try mappedMemoryRows(targetBytes: options.mappedMegabytes << 20, reset: &reset) }
        print(Report.memory(rows, records: options.sizes.records, peakWasReset: reset, machine: options.machine,
                            run: options.runs > 1 ? index : nil))
        runs.append(rows)
    }
    print(Report.goals(Goals.check(memory: runs), title: "peak memory", machine: options.machine))
}

extension Report {
    /// `run`: this run's number, with --runs above 1.
    static func memory(_ rows: [MemoryRow], records: Int, peakWasReset: Bool, machine: Bool, run: Int? = nil) -> String {
        let mb = { (bytes: Int) in fixed(Double(bytes) / 1_048_576, 1) }
        if machine {
            return rows.map { r in
                "workload=memory-\(r.workload) records=\(records) contender=\(r.step) op=\(r.op.rawValue) bytes=\(r.bytes) rss_before=\(r.before) vmhwm=\(r.peak) peak_growth=\(r.growth) growth_per_byte=\(fixed(r.multiple, 2))"
                    + (run.map { " run=\($0)" } ?? "")
            }.joined(separator: "\n")
        }
        var lines = ["", "=== memory\(run.map { " (run \($0))" } ?? ""): \(records.grouped) records per workload (VmHWM from /proc/self/status) ===",
                     pad("workload", 14, left: true) + pad("contender", 22, left: true) + pad("op", 7, left: true)
                     + pad("bytes", 13) + pad("RSS before MB", 15) + pad("peak MB", 10) + pad("growth MB", 11) + pad("growth/bytes", 14)]
        for r in rows {
            lines.append(pad(r.workload, 14, left: true) + pad(r.step, 22, left: true) + pad(r.op.rawValue, 7, left: true)
                         + pad(r.bytes.grouped, 13) + pad(mb(r.before), 15) + pad(mb(r.peak), 10)
                         + pad(mb(r.growth), 11) + pad(fixed(r.multiple, 2) + "x", 14))
        }
        lines.append("(bytes: the output of an encode, the input of a decode; growth = peak - resident size just before the step;")
        lines.append(" a decode's growth includes the decoded values, whose size the JSON and property-list rows show)")
        lines.append(peakWasReset
            ? "(peak reset before each step via /proc/self/clear_refs)"
            : "(could not reset VmHWM: peaks are cumulative since process start, only growth on the first step is exact)")
        return lines.joined(separator: "\n")
    }
}
