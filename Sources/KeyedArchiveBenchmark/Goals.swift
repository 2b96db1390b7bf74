import Foundation

// The performance goals (issue 14) in one place, and the summary that checks them against
// what a run measured: after the workload tables, after --memory and after --scaling.

/// One time-ratio goal: `contender`'s `op`, time per item over `reference`'s, at most `limit`
/// on every workload that has both rows.
struct TimeGoal {
    /// Short name, also the `goal=` key of --machine output.
    let name: String
    let contender: String
    let op: Op
    let reference: Role
    let limit: Double
    /// The goal as the issue states it.
    let wording: String
}

enum Goals {
    static let time: [TimeGoal] = [
        TimeGoal(name: "encode_vs_json", contender: "ArchiveEncoder", op: .encode, reference: .json, limit: 0.5,
                 wording: "binary encode <= 0.5x JSONEncoder"),
        TimeGoal(name: "decode_vs_json", contender: "ArchiveDecoder", op: .decode, reference: .json, limit: 0.4,
                 wording: "binary decode <= 0.4x JSONDecoder"),
        TimeGoal(name: "xml_encode_vs_json", contender: "ArchiveEncoder.xml", op: .encode, reference: .json, limit: 1,
                 wording: "XML encode <= 1.0x JSONEncoder"),
        TimeGoal(name: "xml_decode_vs_json", contender: "ArchiveDecoder.xml", op: .decode, reference: .json, limit: 1,
                 wording: "XML decode <= 1.0x JSONDecoder"),
        TimeGoal(name: "encode_vs_plist", contender: "ArchiveEncoder", op: .encode, reference: .plist, limit: 1.0 / 3,
                 wording: "binary encode >= 3x faster than PropertyListEncoder"),
        TimeGoal(name: "decode_vs_plist", contender: "ArchiveDecoder", op: .decode, reference: .plist, limit: 1.0 / 4,
                 wording: "binary decode >= 4x faster than PropertyListDecoder"),
        TimeGoal(name: "encode_vs_nskeyed", contender: "ArchiveEncoder", op: .encode, reference: .nskeyed, limit: 1.0 / 200,
                 wording: "binary encode >= 200x faster than NSKeyedArchiver"),
        TimeGoal(name: "decode_vs_nskeyed", contender: "ArchiveDecoder", op: .decode, reference: .nskeyed, limit: 1.0 / 15,
                 wording: "binary decode >= 15x faster than NSKeyedUnarchiver"),
        TimeGoal(name: "encode_vs_walk", contender: "ArchiveEncoder", op: .encode, reference: .walk, limit: 4,
                 wording: "binary encode <= 4x a Codable walk that writes nothing"),
    ]

    /// Our binary encoder and decoder: the memory and scaling goals hold for each.
    static let ours = ["ArchiveEncoder", "ArchiveDecoder"]
    /// Peak memory growth over the bytes written (encode) or read (decode).
    static let memoryLimit = 2.0
    /// Time ratio of one 4x step in record count (4.00 = linear).
    static let scalingStepLimit = 4.2

    /// One checked goal: its worst value over the run, where, and whether it holds.
    struct Outcome {
        let name: String
        let wording: String
        let limit: Double
        /// Nil when the run had no row for it (a workload without the reference, say).
        let worst: (value: Double, workload: String)?
        var met: Bool? { worst.map { $0.value <= limit } }

        init(name: String, wording: String, limit: Double, values: [(workload: String, value: Double)]) {
            self.name = name
            self.wording = wording
            self.limit = limit
            worst = values.max { $0.value < $1.value }.map { ($0.value, $0.workload) }
        }
    }

    /// The time goals against `results` (every workload of one run).
    static func check(time results: [Measurement]) -> [Outcome] {
        time.map { goal in
            let values: [(workload: String, value: Double)] = results.compactMap { m in
                guard m.contender == goal.contender, m.op == goal.op,
                      let value = ratio(m, to: goal.reference, in: results) else { return nil }
                return (m.workload, value)
            }
            return Outcome(name: goal.name, wording: goal.wording, limit: goal.limit, values: values)
        }
    }

    /// The memory goal of each of ours against `rows`.
    static func check(memory rows: [MemoryRow]) -> [Outcome] {
        ours.map { contender in
            let op = contender.hasSuffix("Encoder") ? "encode" : "decode"
            return Outcome(name: "memory_\(op)",
                           wording: "\(contender) peak growth <= \(fixed(memoryLimit, 1))x the \(op == "encode" ? "output" : "input")",
                           limit: memoryLimit,
                           values: rows.filter { $0.step == contender }.map { ($0.workload, $0.multiple) })
        }
    }

    /// The scaling goal of each of ours: `steps` holds, per workload, each contender's time
    /// ratios of its 4x steps.
    static func check(scaling steps: [(workload: String, contender: String, ratios: [Double])]) -> [Outcome] {
        ours.map { contender in
            let op = contender.hasSuffix("Encoder") ? "encode" : "decode"
            return Outcome(name: "scaling_\(op)",
                           wording: "\(contender): 4x the records <= \(fixed(scalingStepLimit, 1))x the time",
                           limit: scalingStepLimit,
                           values: steps.filter { $0.contender == contender }.flatMap { step in step.ratios.map { (step.workload, $0) } })
        }
    }
}

extension Report {
    /// The goals table, or one `goal=` line per goal with --machine. Goals without a
    /// measurement in this run are listed as not measured.
    static func goals(_ outcomes: [Goals.Outcome], title: String, machine: Bool) -> String {
        if machine {
            return outcomes.map { o in
                let worst = o.worst.map { "worst=\(fixed($0.value, 3)) worst_workload=\($0.workload)" } ?? "worst=na worst_workload=na"
                let met = o.met.map { $0 ? "yes" : "no" } ?? "na"
                return "goal=\(o.name) limit=\(fixed(o.limit, 4)) \(worst) met=\(met)"
            }.joined(separator: "\n")
        }
        var lines = ["", "=== goals: \(title) ===",
                     pad("goal", 56, left: true) + pad("limit", 8) + pad("worst", 8) + "  " + pad("on", 9, left: true) + pad("met", 5, left: true)]
        for o in outcomes {
            let worst = o.worst.map { fixed($0.value, 3) } ?? "-"
            let on = o.worst?.workload ?? "-"
            let met = o.met.map { $0 ? "yes" : "NO" } ?? "not measured"
            lines.append(pad(o.wording, 56, left: true) + pad(fixed(o.limit, 3), 8) + pad(worst, 8) + "  " + pad(on, 9, left: true) + met)
        }
        lines.append("(worst: the largest ratio over the workloads of this run that have both rows; a single run on a shared")
        lines.append(" machine moves a ratio by several percent, so read a value near its limit over several runs)")
        return lines.joined(separator: "\n")
    }
}
