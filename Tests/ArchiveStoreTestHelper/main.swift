import Foundation
import KeyedArchive

// Test support for ArchiveStoreTests: a second process that uses an ArchiveStore.
//
//   archive-store-test-helper save-forever DIR NAME
//       Saves ever newer values under NAME until killed (the crash test sends SIGKILL).
//       Value k is the [Int] k*5000 ..< k*5000 + 5000; it starts after the value stored.
//   archive-store-test-helper save-many DIR PREFIX COUNT
//       Saves COUNT values under PREFIX-0 … PREFIX-(COUNT-1), and each also under "shared".

let length = 5_000

func value(_ generation: Int) -> [Int] { Array(generation * length ..< generation * length + length) }

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "save-forever" where arguments.count == 3:
        let store = try ArchiveStore(directory: URL(fileURLWithPath: arguments[1]))
        var generation = (try store.load([Int].self, named: arguments[2])?.first ?? 0) / length
        while true {
            generation += 1
            try store.save(value(generation), as: arguments[2])
        }
    case "save-many" where arguments.count == 4:
        let store = try ArchiveStore(directory: URL(fileURLWithPath: arguments[1]))
        for i in 0..<(Int(arguments[3]) ?? 0) {
            let name = "\(arguments[2])-\(i)"
            try store.save([name], as: name)
            try store.save([name, "shared"], as: "shared")
        }
    default:
        FileHandle.standardError.write(Data("usage: archive-store-test-helper save-forever DIR NAME | save-many DIR PREFIX COUNT\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
