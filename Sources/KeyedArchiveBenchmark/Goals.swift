import Foundation

// The performance goals (issue 14) in one place, and the summary that checks them against
// what a run measured: after the workload tables, after --memory and after --scaling.

/// One time-ratio goal: `contender`'s `op`, time per item over `reference`'s, at most `limit`
/// on every workload that has both rows (or on `workloads` only).
struct TimeGoal {
    /// Short name, also the `goal=` key of --machine output.
    let name: String
    let contender: String
    let op: Op
    let reference: Role
    let limit: Double
    /// The goal as the issue states it.
    let wording: String
    /// The workloads the goal gates on; nil: every workload that has both rows.
    var workloads: Set<String>? = nil
    /// Gate only on workloads where the do-nothing Codable walk allows the limit (the issue:
    /// "per workload where the walk allows it"): an encoder that meets the walk goal
    /// (``Goals/walkLimit``× the walk) meets this limit there only if the walk itself is
    /// `walkLimit` times better than the limit against `reference`. Elsewhere the goal would ask
    /// the encoder to be as fast as the walk, contradicting the walk goal itself.
    var onlyWhereWalkAllowsIt = false
}

enum Goals {
    /// The workloads the NSKeyedArchiver goals gate on: the graph workload's walk alone is only
    /// about 50x faster than Foundation's archiver, so its ratio is reported, not gated.
    static let nskeyedWorkloads: Set<String> = ["flat", "order"]
    /// Binary encode over the Codable walk's time, at most.
    static let walkLimit = 2.5

    static let time: [TimeGoal] = [
        TimeGoal(name: "encode_vs_json", contender: "ArchiveEncoder", op: .encode, reference: .json, limit: 0.35,
                 wording: "binary encode <= 0.35x JSONEncoder"),
        TimeGoal(name: "decode_vs_json", contender: "ArchiveDecoder", op: .decode, reference: .json, limit: 0.3,
                 wording: "binary decode <= 0.3x JSONDecoder"),
        TimeGoal(name: "xml_encode_vs_json", contender: "ArchiveEncoder.xml", op: .encode, reference: .json, limit: 0.5,
                 wording: "XML encode <= 0.5x JSONEncoder"),
        TimeGoal(name: "xml_decode_vs_json", contender: "ArchiveDecoder.xml", op: .decode, reference: .json, limit: 0.6,
                 wording: "XML decode <= 0.6x JSONDecoder"),
        TimeGoal(name: "encode_vs_plist", contender: "ArchiveEncoder", op: .encode, reference: .plist, limit: 1.0 / 4,
                 wording: "binary encode >= 4x faster than PropertyListEncoder"),
        TimeGoal(name: "decode_vs_plist", contender: "ArchiveDecoder", op: .decode, reference: .plist, limit: 1.0 / 8,
                 wording: "binary decode >= 8x faster than PropertyListDecoder"),
        TimeGoal(name: "encode_vs_nskeyed", contender: "ArchiveEncoder", op: .encode, reference: .nskeyed, limit: 1.0 / 400,
                 wording: "binary encode >= 400x faster than NSKeyedArchiver", workloads: nskeyedWorkloads,
                 onlyWhereWalkAllowsIt: true),
        TimeGoal(name: "decode_vs_nskeyed", contender: "ArchiveDecoder", op: .decode, reference: .nskeyed, limit: 1.0 / 20,
                 wording: "binary decode >= 20x faster than NSKeyedUnarchiver", workloads: nskeyedWorkloads),
        TimeGoal(name: "encode_vs_walk", contender: "ArchiveEncoder", op: .encode, reference: .walk, limit: walkLimit,
                 wording: "binary encode <= 2.5x a Codable walk that writes nothing"),
    ]

    /// Our binary encoder and decoder: the memory and scaling goals hold for each.
    static let ours = ["ArchiveEncoder", "ArchiveDecoder"]
    /// Peak memory growth over the bytes written (encode) or read (decode).
    static let memoryLimit = 1.5
    /// Time ratio of one 4x step in record count (4.00 = linear).
    static let scalingStepLimit = 4.2

    /// One goal's value and where it was measured.
    typealias Value = (value: Double, workload: String)

    /// One checked goal over one or more runs: each run's worst value, and the median of
    /// those, which the verdict is judged on.
    struct Outcome {
        let name: String
        let wording: String
        let limit: Double
        /// The worst (largest) value of each run that had a row for the goal, in run order.
        let worstPerRun: [Value]
        /// The median of `worstPerRun` (the mean of the middle two for an even count), and
        /// the workload of the upper middle run; nil when no run had a row for the goal.
        let median: Value?
        var runs: Int { worstPerRun.count }
        var min: Double? { worstPerRun.map(\.value).min() }
        var max: Double? { worstPerRun.map(\.value).max() }
        var met: Bool? { median.map { $0.value <= limit } }

        /// `runs` holds, per run, every (workload, value) the goal applies to.
        init(name: String, wording: String, limit: Double, runs: [[Value]]) {
            self.name = name
            self.wording = wording
            self.limit = limit
            worstPerRun = runs.compactMap { values in values.max { $0.value < $1.value } }
            let sorted = worstPerRun.sorted { $0.value < $1.value }
            if sorted.isEmpty {
                median = nil
            } else {
                let upper = sorted[sorted.count / 2]
                let value = sorted.count % 2 == 1 ? upper.value : (sorted[sorted.count / 2 - 1].value + upper.value) / 2
                median = (value, upper.workload)
            }
        }
    }

    /// The time goals against `runs` (per run, every measurement of every workload).
    static func check(time runs: [[Measurement]]) -> [Outcome] {
        time.map { goal in
            let values: [[Value]] = runs.map { results in
                results.compactMap { m in
                    guard m.contender == goal.contender, m.op == goal.op,
                          goal.workloads?.contains(m.workload) ?? true,
                          let value = ratio(m, to: goal.reference, in: results) else { return nil }
                    if goal.onlyWhereWalkAllowsIt {
                        let walk = results.first { $0.role == .walk && $0.op == goal.op && $0.workload == m.workload }
                        guard let walk, let floor = ratio(walk, to: goal.reference, in: results),
                              floor * walkLimit <= goal.limit else { return nil }
                    }
                    return (value, m.workload)
                }
            }
            return Outcome(name: goal.name, wording: goal.wording, limit: goal.limit, runs: values)
        }
    }

    /// The memory goal of each of ours against `runs` (per run, every --memory row).
    static func check(memory runs: [[MemoryRow]]) -> [Outcome] {
        ours.map { contender in
            let op = contender.hasSuffix("Encoder") ? "encode" : "decode"
            return Outcome(name: "memory_\(op)",
                           wording: "\(contender) peak growth <= \(fixed(memoryLimit, 1))x the \(op == "encode" ? "output" : "input")",
                           limit: memoryLimit,
                           runs: runs.map { rows in rows.filter { $0.step == contender }.map { ($0.multiple, $0.workload) } })
        }
    }

    /// The scaling goal of each of ours: `runs` holds, per run and workload, each
    /// contender's time ratios of its 4x steps.
    static func check(scaling runs: [[(workload: String, contender: String, ratios: [Double])]]) -> [Outcome] {
        ours.map { contender in
            let op = contender.hasSuffix("Encoder") ? "encode" : "decode"
            return Outcome(name: "scaling_\(op)",
                           wording: "\(contender): 4x the records <= \(fixed(scalingStepLimit, 1))x the time",
                           limit: scalingStepLimit,
                           runs: runs.map { steps in
                               steps.filter { $0.contender == contender }.flatMap { step in step.ratios.map { ($0, step.workload) } }
                           })
        }
    }
}

extension Report {
    /// The goals table, or one `goal=` line per goal with --machine. Goals without a
    /// measurement are listed as not measured. Each goal shows the median of the runs' worst
    /// values (the verdict is judged on it), their spread (min-max) and the number of runs.
    static func goals(_ outcomes: [Goals.Outcome], title: String, machine: Bool) -> String {
        if machine {
            return outcomes.map { o in
                let value = { (v: Double?) in v.map { fixed($0, 3) } ?? "na" }
                let met = o.met.map { $0 ? "yes" : "no" } ?? "na"
                return "goal=\(o.name) limit=\(fixed(o.limit, 4)) worst=\(value(o.median?.value)) worst_workload=\(o.median?.workload ?? "na")"
                    + " median=\(value(o.median?.value)) min=\(value(o.min)) max=\(value(o.max)) runs=\(o.runs) met=\(met)"
            }.joined(separator: "\n")
        }
        let runs = outcomes.map(\.runs).max() ?? 0
        var lines = ["", "=== goals: \(title)\(runs > 1 ? ", median of \(runs) runs" : "") ===",
                     pad("goal", 56, left: true) + pad("limit", 8) + pad("median", 8) + pad("min-max", 14) + pad("runs", 5)
                     + "  " + pad("on", 14, left: true) + pad("met", 5, left: true)]
        for o in outcomes {
            let median = o.median.map { fixed($0.value, 3) } ?? "-"
            let spread = o.min.flatMap { low in o.max.map { fixed(low, 3) + "-" + fixed($0, 3) } } ?? "-"
            let met = o.met.map { $0 ? "yes" : "NO" } ?? "not measured"
            lines.append(pad(o.wording, 56, left: true) + pad(fixed(o.limit, o.limit < 0.01 ? 4 : 3), 8) + pad(median, 8) + pad(spread, 14)
                         + pad(String(o.runs), 5) + "  " + pad(o.median?.workload ?? "-", 14, left: true) + met)
        }
        lines.append("(each run's worst: the largest ratio over the workloads of that run that have both rows; median: the median")
        lines.append(" of those over the runs (--runs), which `met` is judged on; on: where the median run's worst was. A single")
        lines.append(" run on a shared machine moves a ratio by several percent: gate on several runs. The NSKeyedArchiver")
        let gated = Goals.time.first { $0.onlyWhereWalkAllowsIt }.map { Int((Goals.walkLimit / $0.limit).rounded()).grouped } ?? "-"
        lines.append(" goals count flat and order only, and the encode goal only where the Codable walk itself is \(gated)x")
        lines.append(" faster (\(fixed(Goals.walkLimit, 1))x the goal, so that an encoder within the walk goal can meet it))")
        return lines.joined(separator: "\n")
    }
}
