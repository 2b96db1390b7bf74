import Foundation
import HostileArchives
import KeyedArchive

// keyedarchive-benchmark --hostile: time per KB of every hostile family (HostileArchives) at
// 1 KB … 1 MB, through the probing enum, the struct and KeyedArchiveView, and how time per KB
// at 1 MB compares with 100 KB (issue 10: within 1.5×, and ≤ 0.5 s at 1 MB).

/// One reader the hostile files are timed through.
private struct HostileReader {
    var name: String
    var read: (Data) -> Bool  // whether it gave a value (false: it threw)
}

private func hostileReaders() -> [HostileReader] {
    var readers = ["probing enum", "struct"].compactMap { name in
        HostileDecoding.probe(named: name).map { probe in HostileReader(name: name) { probe.run($0) == nil } }
    }
    readers.append(HostileReader(name: "view") { data in
        if case .success(let text) = HostileDecoding.view(data) { blackHole(text); return true }
        return false
    })
    return readers
}

/// Median milliseconds of `rounds` runs (one run when the first takes over a second).
private func medianMilliseconds(rounds: Int, _ body: () -> Bool) -> (ms: Double, value: Bool) {
    var times: [Double] = []
    var value = false
    for _ in 0..<max(1, rounds) {
        let start = nowNanoseconds()
        value = body()
        times.append(Double(nowNanoseconds() - start) / 1e6)
        if times[0] > 1_000 { break }
    }
    times.sort()
    return (times[times.count / 2], value)
}

/// Runs the hostile families (all, or those named) and prints the table or machine lines.
func runHostile(_ options: Options) {
    guard !options.hostileFamilies.isEmpty || !options.familiesNamed else { return }  // only other families named
    let families = options.hostileFamilies.isEmpty ? HostileFamily.allCases : options.hostileFamilies
    let readers = hostileReaders()
    if !options.machine {
        print("Hostile object graphs: median of \(options.rounds) rounds (1 when a run takes over 1 s); ms/KB per family, size and reader.")
        print("ratio = (ms/KB at 1 MB) / (ms/KB at 100 KB); issue 10's targets: ratio ≤ 1.5, 1 MB in ≤ 500 ms.")
        print(pad("family", 26, left: true) + pad("reader", 14, left: true)
              + HostileSize.allCases.map { pad($0.description, 16) }.joined() + pad("ratio", 8) + pad("1 MB ms", 10) + "  outcome at 1 MB")
    }
    for family in families {
        var rows: [String: [(kb: Double, ms: Double, value: Bool)]] = [:]
        for size in HostileSize.allCases {
            progress("hostile: \(family) at \(size)…")
            let data = family.archive(targetBytes: size.bytes)
            for reader in readers {
                let (ms, value) = medianMilliseconds(rounds: options.rounds) { reader.read(data) }
                let kb = Double(data.count) / 1024
                rows[reader.name, default: []].append((kb, ms, value))
                if options.machine {
                    print("hostile family=\(family) size=\(data.count) reader=\(reader.name.replacingOccurrences(of: " ", with: "_")) "
                          + "ms=\(fixed(ms, 3)) ms_per_kb=\(fixed(ms / kb, 4)) outcome=\(value ? "value" : "error")")
                    fflush(nil)  // each line as it is measured: a later size may hang
                }
            }
        }
        for reader in readers where !options.machine {
            guard let row = rows[reader.name], row.count == HostileSize.allCases.count else { continue }
            let perKB = row.map { $0.ms / $0.kb }
            let ratio = perKB[perKB.count - 1] / max(perKB[perKB.count - 2], 1e-9)
            print(pad(family.rawValue, 26, left: true) + pad(reader.name, 14, left: true)
                  + perKB.map { pad(fixed($0, 4), 16) }.joined()
                  + pad(fixed(ratio, 2), 8) + pad(millis(row[row.count - 1].ms), 10) + "  " + (row[row.count - 1].value ? "value" : "error"))
        }
        fflush(nil)
    }
}
