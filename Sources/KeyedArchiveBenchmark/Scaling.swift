import Foundation

// --scaling: the flat and order workloads from 1,000 to 1,024,000 records in steps of 4x,
// ours (binary) and JSON, time per record at each size.

/// The record counts of a scaling run: 1,000 × 4^k up to `max`.
func scalingSizes(max: Int) -> [Int] {
    var sizes = [1_000]
    while let last = sizes.last, last <= max / 4 { sizes.append(last * 4) }
    return sizes
}

func runScaling(_ options: Options) throws {
    var allRuns: [[(workload: String, contender: String, ratios: [Double])]] = []
    for index in 1...options.runs {
        if options.runs > 1 { progress("scaling: run \(index)/\(options.runs)") }
        allRuns.append(try scalingRun(options))
    }
    print(Report.goals(Goals.check(scaling: allRuns), title: "scaling", machine: options.machine))
}

/// One scaling run: prints its tables and returns, per workload and contender, the time
/// ratios of its 4x steps.
private func scalingRun(_ options: Options) throws -> [(workload: String, contender: String, ratios: [Double])] {
    var steps: [(workload: String, contender: String, ratios: [Double])] = []
    for name in ["flat", "order"] {
        var runs: [(records: Int, results: [Measurement])] = []
        for records in scalingSizes(max: options.scalingMax) {
            progress("scaling: \(name), \(records.grouped) records")
            let workload: Workload
            if name == "flat" {
                let flat = makeFlatWorkload(records: records, nskeyedRecords: 0, withXML: false, walk: false)
                workload = Workload(name: "flat-\(records)", summary: flat.summary, items: records,
                                    contenders: flat.contenders.filter { $0.role == .ours || $0.role == .json })
            } else {
                let orders = makeOrders(records)
                workload = Workload(name: "order-\(records)", summary: "orders", items: records,
                                    contenders: [.archive(orders, items: records), .json(orders, items: records)])
            }
            runs.append((records, try run(workload, rounds: options.rounds, log: progress)))
        }
        print(Report.scaling(name, runs, rounds: options.rounds, machine: options.machine))
        fflush(nil)
        for m in runs.first?.results ?? [] {
            steps.append((name, m.contender, scalingStepRatios(runs, (m.contender, m.op))))
        }
    }
    return steps
}

/// Microseconds per record of `column` (contender, op) in `results`, if it ran.
private func perRecord(_ results: [Measurement], _ column: (String, Op)) -> Double? {
    results.first { $0.contender == column.0 && $0.op == column.1 }.map { $0.perItem * 1000 }
}

/// Time at each size over time at the previous size (4.00 = linear for a 4x step).
func scalingStepRatios(_ runs: [(records: Int, results: [Measurement])], _ column: (String, Op)) -> [Double] {
    zip(runs, runs.dropFirst()).compactMap { small, large in
        guard let a = perRecord(small.results, column), let b = perRecord(large.results, column) else { return nil }
        return b * Double(large.records) / (a * Double(small.records))
    }
}

extension Report {
    /// Time per record at each size, the time ratio of each 4x step, and largest/smallest.
    static func scaling(_ name: String, _ runs: [(records: Int, results: [Measurement])], rounds: Int, machine: Bool) -> String {
        guard let first = runs.first, let last = runs.last else { return "" }
        let columns = first.results.map { ($0.contender, $0.op) }
        if machine {
            var lines: [String] = []
            for run in runs {
                for m in run.results {
                    lines.append("workload=scaling-\(name) records=\(run.records) contender=\(m.contender) op=\(m.op.rawValue) median_ms=\(fixed(m.median, 3)) us_per_record=\(fixed(m.perItem * 1000, 4))")
                }
            }
            for column in columns {
                let steps = scalingStepRatios(runs, column)
                if let a = perRecord(first.results, column), let b = perRecord(last.results, column) {
                    lines.append("workload=scaling-\(name) contender=\(column.0) op=\(column.1.rawValue) per_record_\(last.records)_\(first.records)=\(fixed(b / a, 3)) max_time_ratio_per_4x=\(fixed(steps.max() ?? 0, 3))")
                }
            }
            return lines.joined(separator: "\n")
        }
        let width = 24
        var lines = ["", "=== scaling: \(name) records, microseconds per record (median of \(rounds) rounds) ===",
                     pad("records", 11, left: true) + columns.map { pad("\($0.0) \($0.1.rawValue)", width) }.joined()]
        for (index, run) in runs.enumerated() {
            lines.append(pad(run.records.grouped, 11, left: true) + columns.map { column in
                guard let value = perRecord(run.results, column) else { return pad("-", width) }
                let step = index > 0 ? scalingStepRatios(runs, column)[index - 1] : nil
                return pad(fixed(value, 3) + (step.map { " (" + fixed($0, 2) + "x)" } ?? ""), width)
            }.joined())
        }
        lines.append(pad("worst 4x", 11, left: true) + columns.map { pad(fixed(scalingStepRatios(runs, $0).max() ?? 0, 2) + "x", width) }.joined())
        lines.append(pad("last/first", 11, left: true) + columns.map { column in
            guard let a = perRecord(first.results, column), let b = perRecord(last.results, column) else { return pad("-", width) }
            return pad(fixed(b / a, 2) + "x", width)
        }.joined())
        lines.append("((N x): time at this size / time at a quarter of it, 4.00 = linear; worst 4x: the largest of those;")
        lines.append(" last/first: time per record at \(last.records.grouped) / at \(first.records.grouped), 1.00 = linear)")
        return lines.joined(separator: "\n")
    }
}
