import Foundation
import HostileArchives
import KeyedArchive

// keyedarchive-benchmark --hostile, third part (issue 53 §3): archives whose `children`
// list an ancestor (HostileArchives' CycleLeakShape), decoded into the documented Node
// (`children` strong, `parent` weak and declared): time and peak memory per input MB, and
// the instances left once the result is released (0: nothing leaks).

/// `--family` name of this part.
let cycleLeakFamilyName = "cycleLeaks"

/// Each shape at 100 KB and 1 MB (up to `--hostile-max-bytes`): one decode, released.
func runCycleLeaks(_ options: Options) {
    guard options.cycleLeakFamily || !options.familiesNamed else { return }
    if !options.machine {
        print("\n=== cycleLeaks: Node archives whose children list an ancestor (per input MB: s = seconds, MB = peak memory MB) ===")
        print(pad("shape", 18, left: true) + pad("size", 10) + pad("s/MB", 10) + pad("MB/MB", 10) + pad("left", 8) + "  outcome")
    }
    var leaks = 0
    for shape in CycleLeakShape.all {
        for size in [HostileSize.kb100, .mb1] where size.bytes <= options.hostileMaxBytes {
            progress("cycleLeaks: \(shape) at \(size)…")
            let data = shape.archive(targetBytes: size.bytes)
            let before = CycleProbeNode.live
            let run = measured { () -> String in
                do {
                    let root = try ArchiveDecoder().decode(CycleProbeNode.self, from: data)
                    return "value (\(root.children.count) children)"
                } catch {
                    return "error: " + String(KeyedArchiveError.message(of: error).prefix(60))
                }
            }
            let left = CycleProbeNode.live - before
            leaks += left
            let mb = Double(data.count) / 1_048_576
            if options.machine {
                print("cycleleak shape=\(shape) size=\(data.count) ms=\(fixed(run.ms, 3)) peak_bytes=\(run.peak) instances_left=\(left) outcome=\(run.result.hasPrefix("error") ? "error" : "value")")
            } else {
                print(pad(shape.description, 18, left: true) + pad("\(data.count)", 10) + pad(fixed(run.ms / 1000 / mb, 3), 10)
                      + pad(fixed(Double(run.peak) / 1_048_576 / mb, 1), 10) + pad("\(left)", 8) + "  " + run.result)
            }
            fflush(nil)
        }
    }
    print(options.machine ? "cycleleak instances_left=\(leaks)"
          : leaks == 0 ? "No instance left after any cycleLeaks decode." : "\(leaks) instances left: a leak")
}
