import Foundation
import Testing
@testable import KeyedArchive

// ArchiveStore from many threads and processes: every save of a different name lands, saves
// of one name leave one whole value, and readers never see a partial file.

/// A value that can tell whether it is whole: every element of `check` is `writer * 1000 + sequence`.
private struct Stamp: Codable, Equatable {
    var writer: Int
    var sequence: Int
    var check: [Int]

    init(writer: Int, sequence: Int) {
        self.writer = writer
        self.sequence = sequence
        check = Array(repeating: writer * 1000 + sequence, count: 300)
    }

    var isWhole: Bool { check.count == 300 && check.allSatisfy { $0 == writer * 1000 + sequence } }
}

@Suite("ArchiveStore concurrency")
struct ArchiveStoreConcurrencyTests {
    static let threads = 8
    static let savesPerThread = 25

    @Test("Concurrent saves of different names from several threads all land")
    func differentNamesFromThreads() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            let failures = FailureLog()
            DispatchQueue.concurrentPerform(iterations: Self.threads) { writer in
                for sequence in 0..<Self.savesPerThread {
                    do {
                        try store.save(Stamp(writer: writer, sequence: sequence), as: "w\(writer)-s\(sequence)")
                    } catch {
                        failures.add("writer \(writer) save \(sequence): \(error)")
                    }
                }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
            let expected = (0..<Self.threads).flatMap { w in (0..<Self.savesPerThread).map { "w\(w)-s\($0)" } }
            #expect(try store.names() == expected.sorted())
            for writer in 0..<Self.threads {
                for sequence in 0..<Self.savesPerThread {
                    #expect(try store.load(Stamp.self, named: "w\(writer)-s\(sequence)") == Stamp(writer: writer, sequence: sequence))
                }
            }
            #expect(try temporaryFiles(in: folder).isEmpty)
        }
    }

    @Test("Concurrent saves of one name leave one whole value, and concurrent loads only ever see whole values")
    func oneNameFromThreads() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try store.save(Stamp(writer: 99, sequence: 0), as: "shared")
            let failures = FailureLog()
            let loads = FailureLog()
            // Threads 0..<threads save; one more thread loads the whole time.
            DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { writer in
                if writer == Self.threads {
                    for _ in 0..<(Self.threads * Self.savesPerThread) {
                        do {
                            guard let stamp = try store.load(Stamp.self, named: "shared") else {
                                failures.add("load during saves found no value")
                                continue
                            }
                            if !stamp.isWhole { failures.add("load during saves saw a mixed value: writer \(stamp.writer)") }
                            loads.add("ok")
                        } catch {
                            failures.add("load during saves threw: \(error)")
                        }
                    }
                    return
                }
                for sequence in 0..<Self.savesPerThread {
                    do {
                        try store.save(Stamp(writer: writer, sequence: sequence), as: "shared")
                    } catch {
                        failures.add("writer \(writer) save \(sequence): \(error)")
                    }
                }
            }
            #expect(failures.all.isEmpty, "\(failures.all.prefix(5))")
            #expect(loads.all.count == Self.threads * Self.savesPerThread)
            let final = try #require(try store.load(Stamp.self, named: "shared"))
            #expect(final.isWhole)
            #expect((0..<Self.threads).contains(final.writer) && (0..<Self.savesPerThread).contains(final.sequence))
            #expect(try store.names() == ["shared"])
            #expect(try temporaryFiles(in: folder).isEmpty)
        }
    }

    @Test("Several processes saving into one directory: every name lands, the shared name holds one whole value",
          .enabled(if: BuiltExecutable.find("archive-store-test-helper") != nil,
                   "archive-store-test-helper is not built: run `swift build --build-tests` first"))
    func severalProcesses() throws {
        try withScratchFolder { folder in
            let count = 20
            let processes = try (0..<3).map { p in
                try BuiltExecutable.start("archive-store-test-helper", ["save-many", folder.path, "p\(p)", "\(count)"])
            }
            for process in processes { process.waitUntilExit() }
            #expect(processes.map(\.terminationStatus) == [0, 0, 0])
            let store = try ArchiveStore(directory: folder)
            let expected = (0..<3).flatMap { p in (0..<count).map { "p\(p)-\($0)" } } + ["shared"]
            #expect(try store.names() == expected.sorted())
            for name in expected where name != "shared" {
                #expect(try store.load([String].self, named: name) == [name])
            }
            let shared = try #require(try store.load([String].self, named: "shared"))
            #expect(shared.count == 2 && shared[1] == "shared" && expected.contains(shared[0]), "\(shared)")
            #expect(try temporaryFiles(in: folder).isEmpty)
        }
    }
}
