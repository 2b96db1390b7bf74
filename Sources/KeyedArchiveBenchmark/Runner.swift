import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Timing: rounds of every contender, interleaved, and the medians. Also the /proc readers
// behind --memory.

/// Keeps a value observable so the optimiser cannot drop the work that produced it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

@inline(__always)
func nowNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

enum Op: String { case encode, decode }

/// The timings of one contender's encode or decode over all rounds.
struct Measurement {
    let workload: String
    let contender: String
    let role: Role
    let op: Op
    let items: Int
    /// Milliseconds, one per measured round.
    let samples: [Double]
    /// Archive size (input size for decode); nil for the walk.
    let bytes: Int?

    var median: Double {
        let s = samples.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    /// (max - min) / median.
    var spread: Double { (samples.max()! - samples.min()!) / median }
    var perItem: Double { median / Double(items) }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs one warm-up round, then `rounds` measured rounds. Each round runs every contender
/// once (encode, then decode of that output, then the equality check, untimed), starting
/// one contender later each round so no contender always goes first.
func run(_ workload: Workload, rounds: Int, log: (String) -> Void) throws -> [Measurement] {
    let contenders = workload.contenders
    var encodeTimes = [[Double]](repeating: [], count: contenders.count)
    var decodeTimes = [[Double]](repeating: [], count: contenders.count)
    var sizes = [Int](repeating: 0, count: contenders.count)
    for round in 0...rounds {
        log("  \(workload.name): \(round == 0 ? "warm-up" : "round \(round)/\(rounds)")")
        for k in contenders.indices {
            let index = (k + round) % contenders.count
            let c = contenders[index]
            let data: Data, encodeTime: Double
            do {
                let start = nowNanoseconds()
                data = try c.encode()
                encodeTime = Double(nowNanoseconds() - start) / 1e6
            } catch {
                throw BenchmarkFailure(description: "\(workload.name): \(c.encoderName) threw: \(error)")
            }
            blackHole(data)
            sizes[index] = data.count
            if round > 0 { encodeTimes[index].append(encodeTime) }
            guard let decode = c.decode, let decoderName = c.decoderName else { continue }
            let decoded: Any, decodeTime: Double
            do {
                let start = nowNanoseconds()
                decoded = try decode(data)
                decodeTime = Double(nowNanoseconds() - start) / 1e6
            } catch {
                throw BenchmarkFailure(description: "\(workload.name): \(decoderName) threw on \(c.encoderName)'s \(data.count)-byte output: \(error)")
            }
            if let problem = c.check(decoded) {
                throw BenchmarkFailure(description: "\(workload.name): round trip through \(c.encoderName)/\(decoderName) is wrong: \(problem)")
            }
            blackHole(decoded)
            if round > 0 { decodeTimes[index].append(decodeTime) }
        }
    }
    var results: [Measurement] = []
    for (i, c) in contenders.enumerated() {
        let bytes = c.role == .walk ? nil : sizes[i]
        results.append(Measurement(workload: workload.name, contender: c.encoderName, role: c.role, op: .encode,
                                   items: c.items, samples: encodeTimes[i], bytes: bytes))
    }
    for (i, c) in contenders.enumerated() where c.decode != nil {
        results.append(Measurement(workload: workload.name, contender: c.decoderName!, role: c.role, op: .decode,
                                   items: c.items, samples: decodeTimes[i], bytes: sizes[i]))
    }
    return results
}

// MARK: - Memory (Linux /proc)

enum ProcessMemory {
    /// A `Vm…:` field of /proc/self/status, in bytes.
    static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }

    /// Returns freed heap to the system, so the resident size before a step is not inflated.
    static func trim() {
        #if canImport(Glibc)
        // malloc_trim is not in the Glibc module map; look it up (RTLD_DEFAULT is nil on glibc).
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: MallocTrim.self)(0) }
        #endif
    }

    /// Resets VmHWM to the current resident size (Linux 4.0+); false when not permitted.
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
    }
}
