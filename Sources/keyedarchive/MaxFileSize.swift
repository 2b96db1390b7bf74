import Foundation

/// `--max-file-size`: the most bytes one input may hold, for every command that reads
/// archives (one file or many).
extension OptionSpec {
    static let maxFileSize = OptionSpec.option(
        "max-file-size", value: "size",
        help: "Refuse an input larger than this without reading it: bytes, or a number with K, M or G (1024-based), as in 512M (default: 1G).")
}

enum MaxFileSize {
    /// 1 GiB: larger than any keyed archive a program writes in practice, small enough that
    /// a disk image or a growing log found in a folder is refused at once.
    static let `default` = 1 << 30

    /// The bytes `text` asks for: `1048576`, `1_048_576`, `512K`, `64M`, `2G`; `nil` when
    /// it is not such a number (or not positive, or too large for an `Int`).
    static func parse(_ text: String) -> Int? {
        var digits = text.replacingOccurrences(of: "_", with: "")
        var scale = 1
        if let last = digits.last, let power = ["K": 10, "M": 20, "G": 30, "T": 40][last.uppercased()] {
            scale = 1 << power
            digits.removeLast()
        }
        guard let count = Int(digits), count > 0 else { return nil }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: scale)
        return overflow ? nil : bytes
    }

    /// Why `text` is no `--max-file-size` (one message for one file and for folder runs).
    static func refusal(_ text: String) -> String {
        "--max-file-size needs a size in bytes (or with K, M or G: 512M), not '\(text)'"
    }
}

extension ParsedArguments {
    /// The limit `--max-file-size` asks for, or ``MaxFileSize/default``.
    func maxFileSize() throws(ToolError) -> Int {
        guard let text = value("max-file-size") else { return MaxFileSize.default }
        guard let bytes = MaxFileSize.parse(text) else { throw ToolError(MaxFileSize.refusal(text)) }
        return bytes
    }
}
