import Foundation

/// A file that could not be read: its path, the step that failed (`open`, `read`),
/// `errno`, and for the failures `errno` does not name well (a FIFO, a file larger than
/// the limit, one that shrank while it was read) a sentence saying what happened.
package struct FileReadError: Error, CustomStringConvertible {
    package let path: String
    package let step: String
    package let code: Int32
    /// What happened, when `errno`'s text alone would mislead ("it is a FIFO (named pipe),
    /// not a regular file"); `nil` for a plain system failure.
    package let detail: String?

    package init(path: String, step: String, code: Int32, detail: String? = nil) {
        self.path = path
        self.step = step
        self.code = code
        self.detail = detail
    }

    /// ``detail``, or `errno`'s text: "No such file or directory".
    package var reason: String { detail ?? String(cString: strerror(code)) }

    /// "cannot open '/tmp/x.archive': No such file or directory".
    package var description: String { "cannot \(step) '\(path)': \(reason)" }

    /// The error `Data(contentsOf:)` would throw: a `CocoaError` with the file's path and
    /// URL, the `POSIXError` beneath, and ``description`` as its localized description.
    package var cocoaError: CocoaError {
        let kind: CocoaError.Code
        switch code {
        case ENOENT: kind = .fileReadNoSuchFile
        case EACCES, EPERM: kind = .fileReadNoPermission
        case EFBIG: kind = .fileReadTooLarge
        default: kind = .fileReadUnknown
        }
        var info: [String: AnyHashable] = [NSFilePathErrorKey: path, NSURLErrorKey: URL(fileURLWithPath: path),
                                           NSLocalizedDescriptionKey: description]
        if let posix = POSIXErrorCode(rawValue: code) { info[NSUnderlyingErrorKey] = POSIXError(posix) as NSError }
        return CocoaError(kind, userInfo: info)
    }
}
