import Foundation

/// Writing to the standard streams, and deciding whether colour is wanted.
///
/// Output goes straight to the file descriptors with `write(2)`: `FileHandle.write` on
/// Linux traps when the other end of a pipe has gone away, and `print` buffers stdout
/// separately from anything written to stderr.
enum Terminal {
    /// Writes all of `text` to `fd`, retrying short writes and `EINTR`.
    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        writeAll(&bytes, to: fd)
    }

    /// Writes all of `bytes` to `fd`. A closed pipe (`EPIPE`) ends the process quietly,
    /// as `cat` does, since nobody is left to read the rest.
    static func writeAll(_ bytes: inout [UInt8], to fd: Int32) {
        if writeFully(bytes, to: fd) == EPIPE { exit(ExitStatus.success) }
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and `EINTR`; returns the
    /// `errno` of a failed write, or `nil` when everything was written.
    static func writeFully(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Foundation.write(fd, base + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// Writes a line to standard output.
    static func out(_ line: String) { write(line + "\n", to: 1) }

    /// Writes a line to standard error.
    static func err(_ line: String) { write(line + "\n", to: 2) }

    /// Whether output to `fd` should be coloured: only on a terminal, never when the
    /// user said `--no-color`, set `NO_COLOR` (any non-empty value, per no-color.org) or
    /// runs a `dumb` terminal.
    static func wantsColor(noColorFlag: Bool, fd: Int32 = 1) -> Bool {
        if noColorFlag { return false }
        if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return isatty(fd) != 0
    }
}

/// The exit statuses of the tool.
enum ExitStatus {
    static let success: Int32 = 0
    /// A file is unreadable, not an archive, or (for `verify`) not sound.
    static let failure: Int32 = 1
    /// The command line itself is wrong.
    static let usage: Int32 = 2
}

/// ANSI styling that becomes a no-op when colour is off.
struct Palette: Sendable {
    let enabled: Bool

    enum Style: String {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
        case magenta = "35"
        case cyan = "36"
        case boldRed = "1;31"
        case boldCyan = "1;36"
    }

    func paint(_ text: String, _ style: Style) -> String {
        enabled ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
