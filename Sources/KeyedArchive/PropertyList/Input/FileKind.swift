#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What an opened path is, as `fstat` tells it, named for errors ("it is a FIFO, not a
/// regular file").
package enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case regular
    /// A regular file whose `fstat` size is 0 while it has contents: a `/proc` or `/sys`
    /// file, whose bytes are made as they are read.
    case sizeless
    case directory
    case fifo
    case characterDevice
    case blockDevice
    case socket
    case symbolicLink
    case other

    /// The kind of a file with mode `mode` (`st_mode`); `.regular` for every regular file.
    package init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// "a FIFO (named pipe)", "a character device (such as /dev/zero)".
    package var description: String {
        switch self {
        case .regular: return "a regular file"
        case .sizeless: return "a file whose size is not known in advance (a /proc or /sys file)"
        case .directory: return "a directory"
        case .fifo: return "a FIFO (named pipe)"
        case .characterDevice: return "a character device (such as /dev/zero or a terminal)"
        case .blockDevice: return "a block device (a disk)"
        case .socket: return "a socket"
        case .symbolicLink: return "a symbolic link"
        case .other: return "not a regular file"
        }
    }
}
