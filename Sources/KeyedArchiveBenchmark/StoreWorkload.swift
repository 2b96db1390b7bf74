import Foundation
import KeyedArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// --store: ArchiveStore.save + load of a typical value, against what apps do by hand with
// JSON: JSONEncoder + Data.write(options: .atomic), then Data(contentsOf:) + JSONDecoder.

/// A typical stored value: a signed-in user's session, settings and recent contacts.
struct StoredSession: Codable, Equatable {
    var user: Person
    var token: String
    var signedIn: Date
    var settings: [String: String]
    var recent: [Person]
}

func makeStoredSession() -> StoredSession {
    let people = makePeople(21)
    var settings: [String: String] = [:]
    for i in 0..<10 { settings["setting.\(i)"] = "value \(i * 37)" }
    return StoredSession(user: people[0], token: "c2Vzc2lvbi10b2tlbi0xMjM0NTY3ODkw", signedIn: people[1].birthDate,
                         settings: settings, recent: Array(people.dropFirst()))
}

/// One round of a contender saves the value `operations` times ("encode") and loads it as
/// many times ("decode"), in `folder`; times are per save or load.
func makeStoreWorkload(operations: Int, folder: URL) throws -> Workload {
    let value = makeStoredSession()
    let store = try ArchiveStore(directory: folder.appendingPathComponent("store"))
    let jsonFile = folder.appendingPathComponent("session.json")
    let syncedFile = folder.appendingPathComponent("session-synced.json")
    let encoder = JSONEncoder(), decoder = JSONDecoder()
    func check(_ decoded: Any) -> String? {
        (decoded as? StoredSession) == value ? nil : "loaded \(type(of: decoded)), not the saved value"
    }
    func loadJSON(_ url: URL) throws -> Any {
        var last: StoredSession?
        for _ in 0..<operations { last = try decoder.decode(StoredSession.self, from: Data(contentsOf: url)) }
        return last as Any
    }
    let ours = Contender(
        encoderName: "ArchiveStore.save", decoderName: "ArchiveStore.load", role: .ours, items: operations,
        encode: {
            for _ in 0..<operations { try store.save(value, as: "session") }
            return Data()
        },
        decode: { _ in
            var last: StoredSession?
            for _ in 0..<operations { last = try store.load(StoredSession.self, named: "session") }
            return last as Any
        },
        check: check)
    let json = Contender(
        encoderName: "JSON+write(.atomic)", decoderName: "read+JSONDecoder", role: .json, items: operations,
        encode: {
            for _ in 0..<operations { try encoder.encode(value).write(to: jsonFile, options: .atomic) }
            return Data()
        },
        decode: { _ in try loadJSON(jsonFile) },
        check: check)
    // For context: the JSON route made as durable as the store, by flushing the folder too
    // (swift-foundation's atomic write already flushes its temporary file before the rename).
    let synced = Contender(
        encoderName: "JSON+write+dir fsync", decoderName: nil, role: .other, items: operations,
        encode: {
            for _ in 0..<operations {
                try encoder.encode(value).write(to: syncedFile, options: .atomic)
                try fsyncPath(folder.path)
            }
            return Data()
        },
        decode: nil, check: { _ in nil })
    return Workload(name: "store", summary: "save + load of one session value (user, token, date, 10 settings, 20 recent people) by name; item = one save or load",
                    items: operations, contenders: [ours, json, synced],
                    notes: ["files in \(folder.path). Data.write(options: .atomic) flushes a temporary file and renames it, but does not",
                            "flush the folder, so the rename may not survive a power cut; ArchiveStore.save flushes both (two fsyncs",
                            "to JSON's one, which dominate on most disks). JSON+write+dir fsync adds the folder's fsync to the JSON route."])
}

private func fsyncPath(_ path: String) throws {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw BenchmarkFailure(description: "open \(path): errno \(errno)") }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw BenchmarkFailure(description: "fsync \(path): errno \(errno)") }
}

/// The store workload's table, with bytes on disk, and save + load together as a ratio.
func runStore(_ options: Options) throws {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("keyedarchive-benchmark-store-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    progress("store: \(options.storeOperations) saves and loads per round")
    let workload = try makeStoreWorkload(operations: options.storeOperations, folder: folder)
    let fileOf = ["ArchiveStore.save": "store/session", "ArchiveStore.load": "store/session",
                  "JSON+write(.atomic)": "session.json", "read+JSONDecoder": "session.json",
                  "JSON+write+dir fsync": "session-synced.json"]
    func size(_ contender: String) -> Int? {
        guard let file = fileOf[contender] else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path))?[.size] as? Int
    }
    let results = try run(workload, rounds: options.rounds, log: progress).map { m in
        Measurement(workload: m.workload, contender: m.contender, role: m.role, op: m.op, items: m.items,
                    samples: m.samples, bytes: size(m.contender))
    }
    print(options.machine ? Report.machine(results) : Report.table(workload, results, rounds: options.rounds))
    // Save + load together, per value, in microseconds.
    func perValue(_ role: Role, _ op: Op) -> Double? {
        results.first { $0.role == role && $0.op == op }.map { $0.perItem * 1000 }
    }
    guard let saveOurs = perValue(.ours, .encode), let loadOurs = perValue(.ours, .decode),
          let saveJSON = perValue(.json, .encode), let loadJSON = perValue(.json, .decode) else { return }
    let ours = saveOurs + loadOurs, json = saveJSON + loadJSON
    let synced = perValue(.other, .encode).map { $0 + loadJSON }
    if options.machine {
        print("workload=store contender=ArchiveStore op=save+load us_per_item=\(fixed(ours, 2)) ratio_json=\(fixed(ours / json, 3))"
              + (synced.map { " ratio_json_fsync=\(fixed(ours / $0, 3))" } ?? ""))
    } else {
        print("save+load per value: ArchiveStore \(fixed(ours, 1)) us, JSON+write(.atomic)+read \(fixed(json, 1)) us: ratio \(fixed(ours / json, 2))x"
              + (synced.map { "; vs JSON with the folder flushed too \(fixed($0, 1)) us: ratio \(fixed(ours / $0, 2))x" } ?? ""))
    }
}
