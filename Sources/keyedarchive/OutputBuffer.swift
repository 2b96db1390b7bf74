/// Collects output and hands it to a file descriptor in large chunks, so that a big
/// `dump` or `json` neither builds one giant string nor makes a system call per line.
struct OutputBuffer: TextOutputStream {
    private var bytes: [UInt8] = []
    private let fd: Int32
    private let chunk = 1 << 16
    /// Bytes appended so far (flushed or not), for output limits.
    private(set) var written = 0

    /// - Parameter fd: where the output goes (1 for standard output).
    init(fd: Int32 = 1) {
        self.fd = fd
        if fd >= 0 { bytes.reserveCapacity(chunk) }
    }

    /// A buffer that keeps everything, for ``captured``.
    static func capturing() -> OutputBuffer { OutputBuffer(fd: -1) }

    /// What a capturing buffer holds, as text.
    var captured: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: String) {
        written += text.utf8.count
        bytes.append(contentsOf: text.utf8)
        if fd >= 0, bytes.count >= chunk { flush() }
    }

    /// `TextOutputStream`: the same as ``append(_:)``.
    mutating func write(_ string: String) { append(string) }

    mutating func append(byte: UInt8) {
        written += 1
        bytes.append(byte)
        if fd >= 0, bytes.count >= chunk { flush() }
    }

    mutating func flush() {
        guard fd >= 0 else { return }
        Terminal.writeAll(&bytes, to: fd)
        bytes.removeAll(keepingCapacity: true)
    }
}
