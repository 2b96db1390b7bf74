import Foundation
import Testing
@testable import KeyedArchive

/// Files that are not plain regular files, or change while they are read:
/// `decode(_:contentsOf:)` and ``ArchiveStore`` refuse what is not a regular file with an
/// error naming it, never block or trap, and ``InputFile`` reads at most what `fstat` gave.
@Suite("Special and changing files")
struct SpecialFileTests {
    struct Person: Codable, Equatable {
        var name: String
    }

    /// The description of a `decode(_:contentsOf:)` error.
    private func message(_ error: any Error) -> String {
        error.localizedDescription
    }

    @Test("decode(contentsOf:) names what a symlink to /dev/zero, a FIFO, a directory and a /proc file are, without blocking")
    func specialFiles() throws {
        try Scratch.withFolder("special") { folder in
            let decoder = ArchiveDecoder()
            let zero = folder.appendingPathComponent("zero.archive")
            try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
            let zeroError = #expect(throws: CocoaError.self) { try decoder.decode(Person.self, contentsOf: zero) }
            #expect(zeroError.map(message)?.contains("it is a character device") == true, "\(String(describing: zeroError))")
            #expect(zeroError.map(message)?.contains(zero.path) == true)

            let fifo = folder.appendingPathComponent("pipe.archive")
            try #require(mkfifo(fifo.path, 0o644) == 0)
            let fifoError = #expect(throws: CocoaError.self) { try decoder.decode(Person.self, contentsOf: fifo) }
            #expect(fifoError.map(message)?.contains("it is a FIFO (named pipe), not a regular file") == true, "\(String(describing: fifoError))")

            let directoryError = #expect(throws: CocoaError.self) { try decoder.decode(Person.self, contentsOf: folder) }
            #expect(directoryError.map(message)?.contains("Is a directory") == true, "\(String(describing: directoryError))")

            if FileManager.default.fileExists(atPath: "/proc/self/status") {
                let proc = URL(fileURLWithPath: "/proc/self/status")
                let procError = #expect(throws: CocoaError.self) { try decoder.decode(Person.self, contentsOf: proc) }
                #expect(procError.map(message)?.contains("a /proc or /sys file") == true, "\(String(describing: procError))")
            }
        }
    }

    @Test("InputFile reads a growing file to the size fstat gave, and a shrunk one throws")
    func growingAndShrinking() throws {
        try Scratch.withFolder("special") { folder in
            let url = folder.appendingPathComponent("file")
            try Data(repeating: 1, count: 10_000).write(to: url)
            let growing = try InputFile(path: url.path)
            let appender = try FileHandle(forWritingTo: url)
            appender.seekToEndOfFile()
            appender.write(Data(repeating: 2, count: 5_000))
            try appender.close()
            let data = try growing.readAll()
            #expect(data == Data(repeating: 1, count: 10_000), "read to fstat's size only")

            let shrinking = try InputFile(path: url.path)
            #expect(shrinking.size == 15_000)
            try #require(truncate(url.path, 100) == 0)
            let error = #expect(throws: FileReadError.self) { try shrinking.readAll() }
            #expect(error?.code == EIO)
            #expect(error?.reason.contains("shrank") == true, "\(String(describing: error))")
        }
    }

    @Test("InputFile refuses a file over its limit without reading it: a sparse 5 GB file, and a stream past the limit")
    func overTheLimit() throws {
        try Scratch.withFolder("special") { folder in
            let url = folder.appendingPathComponent("huge")
            try Data("bplist00".utf8).write(to: url)
            try #require(truncate(url.path, 5 << 30) == 0)
            let file = try InputFile(path: url.path)
            #expect(file.kind == .regular && file.size == 5 << 30)
            #expect(try file.readHead(8) == Array("bplist00".utf8), "the head is read alone")
            let error = #expect(throws: FileReadError.self) { try file.readAll(limit: 1 << 30) }
            #expect(error?.code == EFBIG)
            #expect(error?.reason == "it is 5368709120 bytes, more than the limit of 1073741824")

            // /dev/zero as a stream: stopped at the limit.
            let zero = try InputFile(path: "/dev/zero")
            #expect(zero.kind == .characterDevice)
            let streamError = #expect(throws: FileReadError.self) { try zero.readAll(limit: 1 << 20) }
            #expect(streamError?.code == EFBIG)
            #expect(streamError?.reason == "it holds more than the limit of 1048576 bytes")
        }
    }

    @Test("The store reads, never maps: truncating a stored file after it was read leaves the bytes whole, and the next load is a clean error")
    func storeTruncation() throws {
        try Scratch.withFolder("special") { folder in
            let store = try ArchiveStore(directory: folder)
            let value = (0..<20_000).map { "entry \($0)" }
            try store.save(value, as: "list")
            let url = try store.url(forName: "list")
            let (_, data) = try #require(try store.storedData(named: "list"))
            let original = try Data(contentsOf: url)
            // Rewritten in place by another program (not renamed): a mapping would now raise
            // SIGBUS on its pages past the new end.
            try #require(truncate(url.path, 0) == 0)
            #expect(data == original, "the bytes read stay whole")
            #expect(try ArchiveDecoder().decode([String].self, from: data) == value)
            let error = #expect(throws: ArchiveStoreError.self) { try store.load([String].self, named: "list") }
            #expect(error?.code == .corruptFile, "\(String(describing: error))")

            // A link to /dev/zero in a value's place: an error naming it, at once.
            try FileManager.default.removeItem(at: url)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/zero")
            let zeroError = #expect(throws: ArchiveStoreError.self) { try store.load([String].self, named: "list") }
            #expect(zeroError?.code == .unreadableFile)
            #expect(zeroError.map { $0.cause.contains("character device") } == true, "\(String(describing: zeroError))")
        }
    }
}
