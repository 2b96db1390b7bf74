import Foundation
import Testing

/// Runs the built `keyedarchive-benchmark` on a small workload and checks its goals summary
/// (the lines issue 14's goals are read from): every goal is listed once, with a limit, the
/// worst ratio of the run and a verdict that agrees with them. The ratios of a debug build on
/// 200 records say nothing about speed, so no value is checked against its limit here.
@Suite("keyedarchive-benchmark goals summary")
struct BenchmarkGoalsTests {
    /// `goal=encode_vs_json limit=0.5000 worst=0.352 worst_workload=flat met=yes` as fields.
    private func goalLines(_ output: String) -> [[String: String]] {
        output.split(separator: "\n").filter { $0.hasPrefix("goal=") }.map { line in
            var fields: [String: String] = [:]
            for pair in line.split(separator: " ") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            return fields
        }
    }

    @Test("Every time goal is checked against the run, and its verdict follows from its numbers",
          .enabled(if: BuiltExecutable.find("keyedarchive-benchmark") != nil,
                   "keyedarchive-benchmark is not built: run `swift build --build-tests` first"))
    func timeGoals() throws {
        let result = try BuiltExecutable.run("keyedarchive-benchmark",
                                             ["--workload", "flat", "--records", "200", "--nskeyed-records", "20",
                                              "--rounds", "1", "--machine"], timeout: 300)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let goals = goalLines(result.stdout)
        #expect(goals.compactMap { $0["goal"] } == [
            "encode_vs_json", "decode_vs_json", "xml_encode_vs_json", "xml_decode_vs_json",
            "encode_vs_plist", "decode_vs_plist", "encode_vs_nskeyed", "decode_vs_nskeyed", "encode_vs_walk",
        ])
        for goal in goals {
            // The flat workload has every reference (JSON, property list, NSKeyedArchiver, the walk).
            let limit = try #require(goal["limit"].flatMap(Double.init), "\(goal)")
            let worst = try #require(goal["worst"].flatMap(Double.init), "\(goal)")
            #expect(worst > 0, "\(goal)")
            #expect(goal["worst_workload"] == "flat", "\(goal)")
            #expect(goal["met"] == (worst <= limit ? "yes" : "no"), "\(goal)")
        }
        // The summary reads the same ratios the measurement lines print.
        let encodeLine = try #require(result.stdout.split(separator: "\n")
            .first { $0.hasPrefix("workload=flat contender=ArchiveEncoder op=encode") })
        let ratioJSON = try #require(encodeLine.split(separator: " ").first { $0.hasPrefix("ratio_json=") })
        let printed = try #require(Double(ratioJSON.dropFirst("ratio_json=".count)))
        let summarized = try #require(goals.first { $0["goal"] == "encode_vs_json" }?["worst"].flatMap(Double.init))
        #expect(abs(printed - summarized) < 0.0011)
    }

    @Test("The memory goals are checked for the encoder and the decoder",
          .enabled(if: BuiltExecutable.find("keyedarchive-benchmark") != nil,
                   "keyedarchive-benchmark is not built: run `swift build --build-tests` first"))
    func memoryGoals() throws {
        let result = try BuiltExecutable.run("keyedarchive-benchmark", ["--memory", "--records", "200", "--mapped-mb", "1", "--machine"], timeout: 300)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let goals = goalLines(result.stdout)
        #expect(goals.compactMap { $0["goal"] } == ["memory_encode", "memory_decode"])
        for goal in goals {
            let limit = try #require(goal["limit"].flatMap(Double.init), "\(goal)")
            let worst = try #require(goal["worst"].flatMap(Double.init), "\(goal)")
            #expect(limit == 2)
            #expect(["flat", "order"].contains(goal["worst_workload"] ?? "") || goal["worst_workload"]?.hasPrefix("mapped-") == true,
                    "\(goal)")
            #expect(goal["met"] == (worst <= limit ? "yes" : "no"), "\(goal)")
        }
        // The decoder's goal covers the archive decoded from a mapped file too.
        #expect(result.stdout.contains("workload=memory-mapped-1MB"), "\(result.stdout)")
    }
}
