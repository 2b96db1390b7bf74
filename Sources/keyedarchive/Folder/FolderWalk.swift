import Foundation

/// One thing the walk over the command line's inputs found: a file to read, or something
/// reported without being read.
struct FoundInput: Sendable {
    enum Kind: Sendable, Equatable {
        /// A file to read: a regular file found in a folder, or anything named on the
        /// command line that is not a folder.
        case file
        /// `-`: standard input.
        case standardInput
        /// Found in a folder and never opened: a symbolic link, a FIFO, a device, a socket.
        case skipped(String)
        /// Could not be examined or listed (the reason, as `strerror` gives it).
        case failed(String)
    }

    /// The path as shown: the bytes of the path decoded as UTF-8, invalid sequences shown
    /// as U+FFFD.
    let path: String
    /// The path for system calls, NUL-terminated, byte for byte as the file system has it.
    let systemPath: [CChar]
    /// Whether the command line names it (rather than a folder holding it).
    let isNamed: Bool
    let kind: Kind
    /// The most bytes it may hold (`--max-file-size`), set by the run that reads it.
    var maxFileSize = MaxFileSize.default

    init(bytes: [UInt8], isNamed: Bool, kind: Kind) {
        path = String(decoding: bytes, as: UTF8.self)
        systemPath = bytes.map { CChar(bitPattern: $0) } + [0]
        self.isNamed = isNamed
        self.kind = kind
    }

    /// The last path component, for the test hook.
    var lastComponent: Substring { path.split(separator: "/").last ?? Substring(path) }
}

/// The walk over the inputs named on the command line, depth-first, lazily.
///
/// The rules, documented in the tool's help and the Command line tool article:
/// - Inputs are visited in the order given; a folder's entries in byte-wise order of their
///   names, each subfolder entered where its name falls, so the order never depends on the
///   file system or on `--jobs`.
/// - What the command line names is followed when it is a symbolic link. Inside folders,
///   symbolic links are never followed (to files or folders: an extraction's links point
///   into the machine that reads it), and FIFOs, devices and sockets are never opened; both
///   are skipped. A folder that is its own ancestor (a bind mount), by device and inode, is
///   not entered again. So the walk ends, and never blocks on a FIFO.
/// - A folder that cannot be listed, or an entry that vanished, is reported in its place.
///
/// Memory: the sorted names of the folders on the current path, not of the whole tree.
struct FolderWalk: IteratorProtocol {
    private struct Identity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// A folder being listed: its path, its sorted entry names, and the next one to visit.
    private struct Frame {
        let path: [UInt8]
        let identity: Identity
        let names: [[UInt8]]
        var next = 0
    }

    private var roots: IndexingIterator<[String]>
    private var stack: [Frame] = []

    init(_ roots: [String]) {
        self.roots = roots.makeIterator()
    }

    /// Whether `path` names a folder (following symbolic links), for choosing between the
    /// single-file and the folder modes.
    static func isFolder(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    mutating func next() -> FoundInput? {
        while true {
            if !stack.isEmpty {
                let top = stack.count - 1
                guard stack[top].next < stack[top].names.count else {
                    stack.removeLast()
                    continue
                }
                let name = stack[top].names[stack[top].next]
                stack[top].next += 1
                let child = stack[top].path + [UInt8(ascii: "/")] + name
                if let found = visit(child) { return found }
                continue
            }
            guard let root = roots.next() else { return nil }
            if root == "-" { return FoundInput(bytes: Array(root.utf8), isNamed: true, kind: .standardInput) }
            var bytes = Array(root.utf8)
            // "dir/" lists as "dir/a", not "dir//a"; "/" stays itself.
            while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
            var info = stat()
            guard Self.withSystemPath(bytes, { stat($0, &info) }) == 0 else {
                return FoundInput(bytes: bytes, isNamed: true, kind: .failed("cannot open: \(Self.systemMessage())"))
            }
            guard (info.st_mode & S_IFMT) == S_IFDIR else { return FoundInput(bytes: bytes, isNamed: true, kind: .file) }
            if let failure = enter(bytes, info) { return failure }
        }
    }

    /// An entry found in a folder: a file to read, something to skip, or a folder entered
    /// (`nil`: nothing to report in its place).
    private mutating func visit(_ path: [UInt8]) -> FoundInput? {
        var info = stat()
        guard Self.withSystemPath(path, { lstat($0, &info) }) == 0 else {
            return FoundInput(bytes: path, isNamed: false, kind: .failed("cannot open: \(Self.systemMessage())"))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return FoundInput(bytes: path, isNamed: false, kind: .file)
        case S_IFDIR: return enter(path, info)
        case S_IFLNK: return FoundInput(bytes: path, isNamed: false, kind: .skipped("a symbolic link, not followed inside folders"))
        case S_IFIFO: return FoundInput(bytes: path, isNamed: false, kind: .skipped("a FIFO, not opened"))
        case S_IFSOCK: return FoundInput(bytes: path, isNamed: false, kind: .skipped("a socket, not opened"))
        default: return FoundInput(bytes: path, isNamed: false, kind: .skipped("a device, not opened"))
        }
    }

    /// Lists the folder at `path` and pushes it; returns what to report when it cannot be
    /// listed or is its own ancestor.
    private mutating func enter(_ path: [UInt8], _ info: stat) -> FoundInput? {
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let isNamed = stack.isEmpty
        if stack.contains(where: { $0.identity == identity }) {
            return FoundInput(bytes: path, isNamed: isNamed, kind: .skipped("a folder inside itself (a loop), not entered again"))
        }
        guard let directory = Self.withSystemPath(path, { opendir($0) }) else {
            return FoundInput(bytes: path, isNamed: isNamed, kind: .failed("cannot list: \(Self.systemMessage())"))
        }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            names.append(name)
        }
        names.sort { $0.lexicographicallyPrecedes($1) }
        stack.append(Frame(path: path == [UInt8(ascii: "/")] ? [] : path, identity: identity, names: names))
        return nil
    }

    /// Calls `body` with `bytes` as a NUL-terminated path.
    private static func withSystemPath<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        let path = bytes.map { CChar(bitPattern: $0) } + [0]
        return body(path)
    }

    static func systemMessage() -> String { String(cString: strerror(errno)) }
}
