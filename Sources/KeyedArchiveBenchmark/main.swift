import Foundation
import HostileArchives
import KeyedArchive

// keyedarchive-benchmark: options and orchestration.
// Run with `swift run -c release keyedarchive-benchmark [options]`; see `--help`.

struct Options {
    var rounds = 5
    /// Whole measured sets (`--runs`): the goals are judged on the median of the runs' worst values.
    var runs = 1
    var workloads = WorkloadName.allCases
    var sizes = WorkloadSizes()
    var machine = false
    var scaling = false
    var memory = false
    var scalingMax = 1_024_000
    /// The size of the archive --memory decodes from a mapped file (`--mapped-mb`; 0 leaves it out).
    var mappedMegabytes = 200
    /// Write our encoders' outputs here instead of timing (`--dump`).
    var dumpDirectory: String?
    var store = false
    var storeOperations = 200
    var hostile = false
    /// The tool on a whole folder (`--folder`, FolderThroughput.swift).
    var folder = false
    /// Hostile families to run (`--family`); empty: all of them.
    var hostileFamilies: [HostileFamily] = []
    /// Amplification families to run (`--family`); empty: all of them (unless hostile families were named).
    var amplificationFamilies: [AmplificationFamily] = []
    /// Whether `--family cycleLeaks` was given (see CycleLeaks.swift).
    var cycleLeakFamily = false
    /// Whether `--family` named some family (else every family runs).
    var familiesNamed: Bool { !hostileFamilies.isEmpty || !amplificationFamilies.isEmpty || cycleLeakFamily }
    /// The largest size the hostile families are built at (`--hostile-max-bytes`).
    var hostileMaxBytes = HostileSize.mb1.bytes
    /// Keep only contenders with this encoder or decoder name (for profiling one of them).
    var contender: String?
    /// With --contender: time only encoding (for profiling the encoder alone).
    var encodeOnly = false

    static let usage = """
    usage: keyedarchive-benchmark [options]

    Times ArchiveEncoder/ArchiveDecoder against JSONEncoder/Decoder, PropertyListEncoder/Decoder
    (binary), Foundation's NSKeyedArchiver/NSKeyedUnarchiver and a do-nothing Codable walk, all
    in one process, interleaved round by round, and prints medians. Every round checks that each
    decoder returns a value equal to the original, and stops with a message if not.

      --workload NAME        run only this workload (repeatable): \(WorkloadName.allCases.map(\.rawValue).joined(separator: ", "))
      --rounds N             measured rounds per workload, after one warm-up round (default 5)
      --runs N               repeat the whole measured set (the workload tables, --memory, --scaling) N times,
                             one run after the other, and judge each goal on the median of the runs' worst
                             values (default 1); tables and lines are printed per run (--machine adds run=K)
      --records N            records in the flat and order workloads (default 10,000)
      --nskeyed-records N    records given to NSKeyedArchiver in the flat and order workloads (default 10,000;
                             0 leaves it out); ratios against it then compare time per record
      --machine              one line per measurement instead of tables:
                             workload=flat contender=ArchiveEncoder op=encode median_ms=12.300 ratio_json=0.520
                             ratio_plist=0.800 ratio_nskeyed=0.030 ratio_walk=2.5 bytes=123456 items=10000 us_per_item=1.2300
      --scaling              flat and order workloads at 1,000 to 1,024,000 records in steps of 4x (ours,
                             binary, and JSON): time per record, the time ratio of each 4x step (4.00 =
                             linear) and the largest/smallest time per record
      --scaling-max N        largest record count for --scaling (default 1,024,000)
      --memory               peak resident memory (VmHWM) of each encode and decode of the flat and order
                             workloads, as a multiple of the output (encode) or input (decode) size; then
                             decoding a ~200 MB archive from a memory-mapped file, over the file's size
      --mapped-mb N          size of that archive in MB (default 200; 0 leaves it out)
      --store                ArchiveStore.save + load of a typical value (in a temporary folder) against
                             JSONEncoder + Data.write(options: .atomic) + Data(contentsOf:) + JSONDecoder,
                             and their sum as one ratio (goal <= 1.0)
      --store-operations N   saves and loads per round for --store (default 200)
      --dump DIR             write ArchiveEncoder's binary and XML output of each workload to DIR instead of
                             timing (compare two builds with cmp: speed work must not change a byte)
      --contender NAME       keep only that contender (e.g. ArchiveEncoder, JSONDecoder), for profiling
      --encode-only          skip decoding (for profiling an encoder alone)
      --hostile              valid archives with malicious object graphs (every family of HostileArchives)
                             at 1 KB, 10 KB, 100 KB and 1 MB: ms/KB through the probing enum, the struct
                             and KeyedArchiveView, and the 1 MB / 100 KB ratio of ms/KB; then the amplification
                             families (one value referenced from many places): time, peak memory and output per
                             input MB through their typed decodes, KeyedArchiveView, render() and, when keyedarchive
                             is built beside the benchmark, its json, dump, swift and verify
      --family NAME          with --hostile, only this family (repeatable): \(HostileFamily.allCases.map(\.rawValue).joined(separator: ", ")),
                             \(AmplificationFamily.allCases.map(\.rawValue).joined(separator: ", ")), \(cycleLeakFamilyName)
      --hostile-max-bytes N  with --hostile, only the sizes up to N bytes (default 1,048,576)
      --folder               keyedarchive json on a folder of 10,000 small archives and one of 8 large ones: files/s,
                             MB/s and peak memory with --jobs 1 and every core, against one run of the tool per file
                             (needs keyedarchive built beside the benchmark)
      --help                 this text

    --scaling, --memory, --store, --hostile and --folder replace the workload tables unless --workload is also given.
    The workload tables, --memory and --scaling each end with their goals (Goals.swift): the limit, the worst
    value of each run, their median (what `met` is judged on), their spread (min-max), the number of runs and
    where the median run's worst was (with --machine: goal=NAME limit= worst= worst_workload= median= min= max=
    runs= met=, where worst= is the median). The NSKeyedArchiver goals gate on the flat and order workloads only.
    Progress goes to standard error; results to standard output.
    """

    init(_ arguments: [String]) throws {
        var it = arguments.makeIterator()
        var explicitWorkload = false
        func number(_ flag: String) throws -> Int {
            guard let text = it.next(), let n = Int(text.replacingOccurrences(of: "_", with: "")), n >= 0 else {
                throw BenchmarkFailure(description: "\(flag) needs a non-negative number")
            }
            return n
        }
        while let arg = it.next() {
            switch arg {
            case "--rounds": rounds = max(1, try number(arg))
            case "--runs": runs = max(1, try number(arg))
            case "--records": sizes.records = max(1, try number(arg))
            case "--nskeyed-records": sizes.nskeyedRecords = try number(arg)
            case "--machine": machine = true
            case "--contender":
                guard let name = it.next() else { throw BenchmarkFailure(description: "--contender needs a name") }
                contender = name
            case "--encode-only": encodeOnly = true
            case "--scaling": scaling = true
            case "--dump":
                guard let path = it.next() else { throw BenchmarkFailure(description: "--dump needs a directory") }
                dumpDirectory = path
            case "--scaling-max": scalingMax = max(1_000, try number(arg))
            case "--mapped-mb": mappedMegabytes = max(0, try number(arg))
            case "--memory": memory = true
            case "--store": store = true
            case "--store-operations": storeOperations = max(1, try number(arg))
            case "--hostile": hostile = true
            case "--folder": folder = true
            case "--hostile-max-bytes": hostileMaxBytes = try number(arg)
            case "--family":
                let name = it.next() ?? ""
                if let family = AmplificationFamily(rawValue: name) {
                    amplificationFamilies.append(family)
                    continue
                }
                if name == cycleLeakFamilyName {
                    cycleLeakFamily = true
                    continue
                }
                guard let family = HostileFamily(rawValue: name) else {
                    throw BenchmarkFailure(description: "--family needs one of: \((HostileFamily.allCases.map(\.rawValue) + AmplificationFamily.allCases.map(\.rawValue) + [cycleLeakFamilyName]).joined(separator: ", "))")
                }
                hostileFamilies.append(family)
            case "--workload":
                guard let name = it.next(), let workload = WorkloadName(rawValue: name) else {
                    throw BenchmarkFailure(description: "--workload needs one of: \(WorkloadName.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                workloads = explicitWorkload ? workloads + [workload] : [workload]
                explicitWorkload = true
            case "--help", "-h": throw BenchmarkFailure(description: Options.usage)
            default: throw BenchmarkFailure(description: "unknown option \(arg)\n\n\(Options.usage)")
            }
        }
        if (scaling || memory || store || hostile || folder) && !explicitWorkload { workloads = [] }
    }
}

func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// The workload tables, `options.runs` times over the same inputs (each run measures every
/// workload before the next run starts), then the time goals over the runs.
func runWorkloads(_ options: Options) throws {
    var workloads: [Workload] = []
    for name in options.workloads {
        progress("building \(name.rawValue)…")
        var workload = makeWorkload(name, sizes: options.sizes)
        if let only = options.contender {
            workload = Workload(name: workload.name, summary: workload.summary, items: workload.items,
                                contenders: workload.contenders.filter { $0.encoderName == only || $0.decoderName == only },
                                notes: workload.notes)
            if options.encodeOnly {
                workload = Workload(name: workload.name, summary: workload.summary, items: workload.items,
                                    contenders: workload.contenders.map { $0.encodingOnly }, notes: workload.notes)
            }
            guard !workload.contenders.isEmpty else { throw BenchmarkFailure(description: "no contender named \(only) in \(name.rawValue)") }
        }
        workloads.append(workload)
    }
    var runs: [[Measurement]] = []
    for index in 1...options.runs where !workloads.isEmpty {
        if options.runs > 1 { progress("run \(index)/\(options.runs)") }
        var all: [Measurement] = []
        for workload in workloads {
            let results = try run(workload, rounds: options.rounds, log: progress)
            all += results
            print(options.machine ? Report.machine(results, run: options.runs > 1 ? index : nil)
                                  : Report.table(workload, results, rounds: options.rounds, run: options.runs > 1 ? (index, options.runs) : nil))
            fflush(nil)
        }
        runs.append(all)
    }
    // The goals need the reference rows, which --contender leaves out.
    if !runs.isEmpty && options.contender == nil {
        print(Report.goals(Goals.check(time: runs), title: "time, over the workloads above", machine: options.machine))
    }
}

do {
    let options = try Options(Array(ProcessInfo.processInfo.arguments.dropFirst()))
    if let directory = options.dumpDirectory {
        try runDump(options, to: directory)
        exit(0)
    }
    try runWorkloads(options)
    if options.scaling { try runScaling(options) }
    if options.memory { try runMemory(options) }
    if options.store { try runStore(options) }
    if options.hostile {
        runHostile(options)
        runAmplification(options)
        runCycleLeaks(options)
    }
    if options.folder { try runFolder(options) }
} catch let failure as BenchmarkFailure {
    if failure.description == Options.usage {
        print(failure.description)
        exit(0)
    }
    progress("error: \(failure.description)")
    exit(1)
} catch {
    progress("error: \(error)")
    exit(1)
}
