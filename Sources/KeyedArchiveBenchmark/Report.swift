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
    /// `run`: this run's number and the number of runs, with --runs above 1.
    static func table(_ workload: Workload, _ results: [Measurement], rounds: Int, run: (Int, of: Int)? = nil) -> String {
        let heading = run.map { " (run \($0.0)/\($0.of))" } ?? ""
        var lines = ["", "=== \(workload.name)\(heading): \(workload.summary) ===",
                     "median of \(rounds) rounds; ratios = time per item / the reference's (same op), < 1 is faster"]
        lines.append(pad("contender", 22, left: true) + pad("op", 7, left: true) + pad("items", 10) + pad("median ms", 12)
                     + pad("spread", 8) + pad("us/item", 10) + pad("xJSON", 8) + pad("xPList", 8) + pad("xNSKeyed", 10) + pad("xWalk", 8) + pad("bytes", 13))
        for m in results {
            let r = { (role: Role) in ratio(m, to: role, in: results).map { fixed($0, 2) } ?? "-" }
            let star = m.items != workload.items ? "*" : ""
            lines.append(pad(m.contender + star, 22, left: true) + pad(m.op.rawValue, 7, left: true) + pad(m.items.grouped, 10)
                         + pad(millis(m.median), 12) + pad(fixed(m.spread * 100, 0) + "%", 8) + pad(fixed(m.perItem * 1000, 3), 10)
                         + pad(r(.json), 8) + pad(r(.plist), 8) + pad(r(.nskeyed), 10) + pad(m.role == .walk ? "-" : r(.walk), 8) + pad(m.bytes?.grouped ?? "-", 13))
        }
        if let scaled = results.first(where: { $0.items != workload.items }) {
            lines.append("* ran on \(scaled.items.grouped) of the \(workload.items.grouped) items (--nskeyed-records); its ratios compare time per item, its bytes are for \(scaled.items.grouped) items.")
        }
        lines += workload.notes.map { "note: " + $0 }
        return lines.joined(separator: "\n")
    }

    /// `workload=flat contender=ArchiveEncoder op=encode median_ms=12.3 ratio_json=0.52 ... bytes=123456`,
    /// ending in ` run=K` with --runs above 1.
    static func machine(_ results: [Measurement], run: Int? = nil) -> String {
        results.map { m in
            let r = { (role: Role) in ratio(m, to: role, in: results).map { fixed($0, 3) } ?? "na" }
            return "workload=\(m.workload) contender=\(m.contender) op=\(m.op.rawValue) median_ms=\(fixed(m.median, 3))"
                + " ratio_json=\(r(.json)) ratio_plist=\(r(.plist)) ratio_nskeyed=\(r(.nskeyed)) ratio_walk=\(m.role == .walk ? "na" : r(.walk))"
                + " bytes=\(m.bytes.map(String.init) ?? "na") items=\(m.items) us_per_item=\(fixed(m.perItem * 1000, 4))"
                + (run.map { " run=\($0)" } ?? "")
        }.joined(separator: "\n")
    }
}
