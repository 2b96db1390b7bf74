import Foundation

// Printing: the human table (default) or one key=value line per measurement (--machine).

extension Int {
    /// 1234567 -> "1,234,567".
    var grouped: String {
        let digits = String(magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return self < 0 ? "-" + out : out
    }
}

func fixed(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

/// Milliseconds with precision that suits their size.
func millis(_ ms: Double) -> String { fixed(ms, ms < 10 ? 3 : ms < 1000 ? 2 : 1) }

func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
    let gap = String(repeating: " ", count: max(0, width - s.count))
    return left ? s + gap : gap + s
}

/// Time per item of `m` over that of the `role` measurement for the same op; nil if absent.
func ratio(_ m: Measurement, to role: Role, in all: [Measurement]) -> Double? {
    guard let ref = all.first(where: { $0.role == role && $0.op == m.op && $0.workload == m.workload }) else { return nil }
    return m.perItem / ref.perItem
}

enum Report {
    static func table(_ workload: Workload, _ results: [Measurement], rounds: Int) -> String {
        var lines = ["", "=== \(workload.name): \(workload.summary) ===",
                     "median of \(rounds) rounds; ratios = time per item / the reference's (same op), < 1 is faster"]
        lines.append(pad("contender", 22, left: true) + pad("op", 7, left: true) + pad("items", 10) + pad("median ms", 12)
                     + pad("spread", 8) + pad("us/item", 10) + pad("xJSON", 8) + pad("xPList", 8) + pad("xNSKeyed", 10) + pad("bytes", 13))
        for m in results {
            let r = { (role: Role) in ratio(m, to: role, in: results).map { fixed($0, 2) } ?? "-" }
            let star = m.items != workload.items ? "*" : ""
            lines.append(pad(m.contender + star, 22, left: true) + pad(m.op.rawValue, 7, left: true) + pad(m.items.grouped, 10)
                         + pad(millis(m.median), 12) + pad(fixed(m.spread * 100, 0) + "%", 8) + pad(fixed(m.perItem * 1000, 3), 10)
                         + pad(r(.json), 8) + pad(r(.plist), 8) + pad(r(.nskeyed), 10) + pad(m.bytes?.grouped ?? "-", 13))
        }
        if let scaled = results.first(where: { $0.items != workload.items }) {
            lines.append("* ran on \(scaled.items.grouped) of the \(workload.items.grouped) items (--nskeyed-records); its ratios compare time per item, its bytes are for \(scaled.items.grouped) items.")
        }
        lines += workload.notes.map { "note: " + $0 }
        return lines.joined(separator: "\n")
    }

    /// `workload=flat contender=ArchiveEncoder op=encode median_ms=12.3 ratio_json=0.52 ... bytes=123456`.
    static func machine(_ results: [Measurement]) -> String {
        results.map { m in
            let r = { (role: Role) in ratio(m, to: role, in: results).map { fixed($0, 3) } ?? "na" }
            return "workload=\(m.workload) contender=\(m.contender) op=\(m.op.rawValue) median_ms=\(fixed(m.median, 3))"
                + " ratio_json=\(r(.json)) ratio_plist=\(r(.plist)) ratio_nskeyed=\(r(.nskeyed))"
                + " bytes=\(m.bytes.map(String.init) ?? "na") items=\(m.items) us_per_item=\(fixed(m.perItem * 1000, 4))"
        }.joined(separator: "\n")
    }

    /// Time per record at each size, and the largest/smallest ratio (1.0 = linear).
    static func scaling(_ runs: [(records: Int, results: [Measurement])], rounds: Int, machine: Bool) -> String {
        guard let first = runs.first, let last = runs.last else { return "" }
        let columns = first.results.map { ($0.contender, $0.op) }
        func perRecord(_ results: [Measurement], _ column: (String, Op)) -> Double? {
            results.first { $0.contender == column.0 && $0.op == column.1 }.map { $0.perItem * 1000 }
        }
        let label = "\(last.records / 1000)k/\(first.records / 1000)k"
        if machine {
            var lines: [String] = []
            for run in runs {
                for m in run.results {
                    lines.append("workload=scaling records=\(run.records) contender=\(m.contender) op=\(m.op.rawValue) median_ms=\(fixed(m.median, 3)) us_per_record=\(fixed(m.perItem * 1000, 4))")
                }
            }
            for column in columns {
                if let a = perRecord(first.results, column), let b = perRecord(last.results, column) {
                    lines.append("workload=scaling contender=\(column.0) op=\(column.1.rawValue) ratio_\(last.records)_\(first.records)=\(fixed(b / a, 3))")
                }
            }
            return lines.joined(separator: "\n")
        }
        var lines = ["", "=== scaling: flat records, microseconds per record (median of \(rounds) rounds) ===",
                     pad("records", 10, left: true) + columns.map { pad("\($0.0) \($0.1.rawValue)", 22) }.joined()]
        for run in runs {
            lines.append(pad(run.records.grouped, 10, left: true)
                         + columns.map { pad(perRecord(run.results, $0).map { fixed($0, 3) } ?? "-", 22) }.joined())
        }
        lines.append(pad(label, 10, left: true) + columns.map { column in
            guard let a = perRecord(first.results, column), let b = perRecord(last.results, column) else { return pad("-", 22) }
            return pad(fixed(b / a, 2) + "x", 22)
        }.joined())
        lines.append("(\(label): time per record at \(last.records.grouped) / at \(first.records.grouped); 1.00 = linear)")
        return lines.joined(separator: "\n")
    }
}

/// One --memory step: resident size before, peak during.
struct MemoryRow {
    let step: String
    let inputBytes: Int
    let before: Int
    let peak: Int
}

extension Report {
    static func memory(_ rows: [MemoryRow], records: Int, peakWasReset: Bool, machine: Bool) -> String {
        let mb = { (bytes: Int) in fixed(Double(bytes) / 1_048_576, 1) }
        if machine {
            return rows.map { r in
                "workload=memory records=\(records) step=\(r.step.replacingOccurrences(of: " ", with: "_")) input_bytes=\(r.inputBytes) rss_before=\(r.before) vmhwm=\(r.peak) peak_growth=\(r.peak - r.before)"
            }.joined(separator: "\n")
        }
        var lines = ["", "=== memory: flat workload, \(records.grouped) records (VmHWM from /proc/self/status) ===",
                     pad("step", 28, left: true) + pad("archive bytes", 14) + pad("RSS before MB", 15) + pad("peak MB", 10)
                     + pad("growth MB", 11) + pad("growth/input", 14)]
        for r in rows {
            let growth = r.peak - r.before
            lines.append(pad(r.step, 28, left: true) + pad(r.inputBytes.grouped, 14) + pad(mb(r.before), 15) + pad(mb(r.peak), 10)
                         + pad(mb(growth), 11) + pad(fixed(Double(growth) / Double(max(r.inputBytes, 1)), 1) + "x", 14))
        }
        lines.append(peakWasReset
            ? "(peak reset before each step via /proc/self/clear_refs; growth = peak - resident size just before the step)"
            : "(could not reset VmHWM: peaks are cumulative since process start, only growth on the first step is exact)")
        return lines.joined(separator: "\n")
    }
}
