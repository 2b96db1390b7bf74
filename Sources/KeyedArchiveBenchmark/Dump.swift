import Foundation
import KeyedArchive

// --dump DIR: writes ArchiveEncoder's output (binary and XML) for every selected workload,
// so two builds can be compared byte for byte (`cmp -s`): a speed change must not change
// a single byte.

func runDump(_ options: Options, to directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for name in options.workloads {
        let workload = makeWorkload(name, sizes: options.sizes)
        for contender in workload.contenders where contender.role == .ours {
            let data = try contender.encode()
            let suffix = contender.encoderName.hasSuffix(".xml") ? "xml" : "bplist"
            let path = "\(directory)/\(name.rawValue).\(suffix)"
            try data.write(to: URL(fileURLWithPath: path))
            progress("wrote \(path) (\(data.count.grouped) bytes)")
        }
    }
}
