import Foundation
import KeyedArchive

/// Reading the bytes of one input: a file found in a folder, a file the command line
/// names, or standard input. Every command reads its inputs here, one file or many.
///
/// - The bytes are read, never mapped: a file another program truncates meanwhile fails
///   alone instead of stopping the run with SIGBUS.
/// - The first kilobyte is read first, and a file found in a folder that does not start
///   like a property list is skipped without reading the rest (a 5 GB disk image costs one
///   read). A file the command line names that plainly is not a property list (an image, a
///   device of zeros) gives its first kilobyte only: the library says what it looks like.
/// - A regular file is read to the size `fstat` gave (a file that keeps growing is read as
///   it was when opened); one larger than `--max-file-size`, or a stream that passes it,
///   fails without being read further; a buffer that cannot be allocated fails this file
///   alone.
/// - A file found in a folder is opened with `O_NOFOLLOW | O_NONBLOCK` and checked with
///   `fstat` to still be a regular file: if it was replaced by a symbolic link or a FIFO
///   between the walk and the read, it is refused rather than followed or waited on. A
///   file the command line names is read whatever it is (a FIFO from `<(…)` included).
enum FoundFileReader {
    /// What reading an input gave.
    enum Outcome {
        case bytes(Data)
        /// Found in a folder, and its first bytes are not a property list's: why.
        case skipped(String)
        /// Could not be read: the message ("cannot read: …"), and `errno` (`EISDIR` for a
        /// folder).
        case failed(String, code: Int32)
    }

    /// How many bytes are read first, to judge a file (``ArchiveCandidate`` looks for
    /// `<plist` in an XML file's first kilobyte).
    static let headSize = 1024

    /// The bytes of `input` (`.file` or `.standardInput`), at most `maxFileSize` of them.
    static func read(_ input: FoundInput, maxFileSize: Int) -> Outcome {
        #if DEBUG
        removeForTest(input)
        #endif
        do throws(FileReadError) {
            let file: InputFile
            if input.kind == .standardInput {
                file = try InputFile(descriptor: 0, path: "<stdin>", owned: false)
            } else {
                // A named FIFO waits for its writer, as `cat` would; inside folders nothing blocks.
                file = try InputFile(systemPath: input.systemPath, path: input.path, followingLinks: input.isNamed,
                                     blocking: input.isNamed)
            }
            if !input.isNamed, file.kind != .regular {
                return .failed("not read: it stopped being a regular file while the folder was read", code: EINVAL)
            }
            if file.kind == .directory { throw FileReadError(path: file.path, step: "read", code: EISDIR) }
            let head = try file.readHead(headSize)
            if !input.isNamed, let reason = ArchiveCandidate.reasonToSkip(Data(head)) { return .skipped(reason) }
            if input.isNamed, ArchiveCandidate.isPlainlyNotAPropertyList(head) { return .bytes(Data(head)) }
            return .bytes(try file.readAll(limit: maxFileSize))
        } catch {
            var message = "cannot \(error.step): \(error.reason)"
            if error.code == EFBIG { message += " (--max-file-size)" }
            return .failed(message, code: error.code)
        }
    }

    #if DEBUG
    /// Test hook (debug builds only): removes a file whose name is the value of
    /// `KEYEDARCHIVE_TEST_REMOVE_BEFORE_READ` just before it is opened, so that a test
    /// can make a file vanish between the walk and the read.
    private static func removeForTest(_ input: FoundInput) {
        guard input.kind == .file,
              let name = ProcessInfo.processInfo.environment["KEYEDARCHIVE_TEST_REMOVE_BEFORE_READ"],
              input.lastComponent == name else { return }
        unlink(input.systemPath)
    }
    #endif
}
