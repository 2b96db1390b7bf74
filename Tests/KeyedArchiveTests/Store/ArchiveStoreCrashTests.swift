import Foundation
import Testing
@testable import KeyedArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The crash test: a child process saves ever newer values under one name, and is killed
// with SIGKILL while a save is under way, again and again. Every time, the name must load
// as one whole value, never older than the last one seen; the stale temporary file the
// killed save left is never listed, and the next init removes it.

@Suite("ArchiveStore crash safety")
struct ArchiveStoreCrashTests {
    /// Elements per value (the helper's `length`): value k is k*length ..< k*length + length.
    static let length = 5_000
    static let kills = 36

    @Test("SIGKILL in the middle of a save leaves the old value or the new one, whole",
          .enabled(if: BuiltExecutable.find("archive-store-test-helper") != nil,
                   "archive-store-test-helper is not built: run `swift build --build-tests` first"))
    func killedMidSave() throws {
        try withScratchFolder { folder in
            let observer = try ArchiveStore(directory: folder)   // opened once: it must never list a temporary file
            try observer.save(Array(0..<Self.length), as: "state")   // generation 0: the old value
            var lastGeneration = 0
            var killsWithTemporaryFile = 0
            var rng = SystemRandomNumberGenerator()
            for round in 0..<Self.kills {
                let child = try BuiltExecutable.start("archive-store-test-helper", ["save-forever", folder.path, "state"])
                // Every third round, first wait until a save has landed (the file was replaced),
                // so the kill hits a later save and new values keep arriving.
                let deadline = Date().addingTimeInterval(30)
                if round % 3 == 2 {
                    let before = try fileNumber(folder.appendingPathComponent("state"))
                    while try fileNumber(folder.appendingPathComponent("state")) == before && child.isRunning && Date() < deadline {
                        usleep(200)
                    }
                }
                // Wait until a save is under way (its temporary file exists), then let it run
                // on for a random 0–4 ms, so kills land in write, fsync, rename and the next encode.
                while try temporaryFiles(in: folder).isEmpty && child.isRunning && Date() < deadline {
                    usleep(200)
                }
                usleep(UInt32.random(in: 0...4_000, using: &rng))
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()
                try #require(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL,
                             "round \(round): the helper was not killed mid-save (status \(child.terminationStatus))")

                if try !temporaryFiles(in: folder).isEmpty { killsWithTemporaryFile += 1 }
                #expect(try observer.names() == ["state"], "round \(round)")
                let value = try #require(try observer.load([Int].self, named: "state"), "round \(round): no value after the kill")
                let generation = (value.first ?? 0) / Self.length
                #expect(value == Array(generation * Self.length ..< (generation + 1) * Self.length),
                        "round \(round): the value is not whole (\(value.count) elements, first \(value.first ?? -1))")
                #expect(generation >= lastGeneration, "round \(round): went back from \(lastGeneration) to \(generation)")
                lastGeneration = generation

                _ = try ArchiveStore(directory: folder)   // the next launch
                #expect(try temporaryFiles(in: folder).isEmpty, "round \(round): init left a stale temporary file")
            }
            #expect(lastGeneration >= Self.kills / 3, "only \(lastGeneration) saves landed in \(Self.kills) runs")
            // Not an assertion on timing: records how often a kill left a temporary file behind.
            print("ArchiveStore crash test: \(Self.kills) kills, \(killsWithTemporaryFile) left a temporary file, last generation \(lastGeneration)")
        }
    }
}

/// The file's inode number: it changes when a save renames a new file into place.
private func fileNumber(_ url: URL) throws -> Int {
    try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int ?? -1
}
