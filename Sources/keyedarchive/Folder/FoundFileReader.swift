import Foundation
import KeyedArchive

/// Reading the bytes of one input the walk found.
///
/// A file found in a folder is opened with `O_NOFOLLOW | O_NONBLOCK` and checked with
/// `fstat` to still be a regular file: if it was replaced by a symbolic link or a FIFO
/// between the walk and the read, it is refused rather than followed or waited on. A file
/// the command line names is read whatever it is (a FIFO from `<(…)` included), as
/// single-file commands read it.
enum FoundFileReader {
    /// The bytes of `input` (`.file` or `.standardInput`), or why they cannot be read.
    static func read(_ input: FoundInput) -> Result<Data, ToolError> {
        if input.kind == .standardInput { return readAll(fd: 0, name: "<stdin>") }
        #if DEBUG
        removeForTest(input)
        #endif
        let flags = input.isNamed ? O_RDONLY | O_CLOEXEC : O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        let fd = open(input.systemPath, flags)
        guard fd >= 0 else { return .failure(ToolError("cannot open: \(FolderWalk.systemMessage())")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(ToolError("cannot read: \(FolderWalk.systemMessage())")) }
        if !input.isNamed, (info.st_mode & S_IFMT) != S_IFREG {
            return .failure(ToolError("not read: it stopped being a regular file while the folder was read"))
        }
        return readAll(fd: fd, name: input.path, sizeHint: (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0)
    }

    /// Everything `fd` holds (read, not mapped: a file in a folder another program
    /// truncates meanwhile must fail alone, not stop the whole run with SIGBUS).
    private static func readAll(fd: Int32, name: String, sizeHint: Int = 0) -> Result<Data, ToolError> {
        do {
            return .success(try MappedFile.readToEnd(fd, path: name, sizeHint: sizeHint))
        } catch {
            return .failure(ToolError("cannot \(error.step): \(error.reason)"))
        }
    }

    #if DEBUG
    /// Test hook (debug builds only): removes a file whose name is the value of
    /// `KEYEDARCHIVE_TEST_REMOVE_BEFORE_READ` just before it is opened, so that a test
    /// can make a file vanish between the walk and the read.
    private static func removeForTest(_ input: FoundInput) {
        guard let name = ProcessInfo.processInfo.environment["KEYEDARCHIVE_TEST_REMOVE_BEFORE_READ"],
              input.lastComponent == name else { return }
        unlink(input.systemPath)
    }
    #endif
}
