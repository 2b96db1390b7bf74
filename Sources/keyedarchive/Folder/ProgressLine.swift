import Foundation

/// The progress line on standard error while a folder run works: files done (of how many,
/// once a second walk has counted them), files per second, and the time left.
///
/// Shown only when standard error is a terminal and `--quiet` is not given; redrawn at
/// most ten times a second, in place (`\r` and erase-line), and erased before any other
/// text reaches standard error and at the end.
struct ProgressLine {
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var visible = false
    private let total = TotalCount()

    init(roots: [String]) {
        let total = self.total
        let counter = Thread {
            var walk = FolderWalk(roots)
            var count = 0
            while walk.next() != nil { count += 1 }
            total.set(count)
        }
        counter.start()
    }

    /// Whether the run shows a progress line: standard error is a terminal, and the user
    /// did not ask for quiet.
    static func wanted(quiet: Bool) -> Bool { !quiet && isatty(2) != 0 }

    mutating func update(done: Int) {
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        Terminal.write("\r\u{1B}[K" + Self.text(done: done, total: total.value, seconds: now.timeIntervalSince(started)), to: 2)
        visible = true
    }

    mutating func clear() {
        guard visible else { return }
        Terminal.write("\r\u{1B}[K", to: 2)
        visible = false
    }

    /// `1200 of 5000 files, 340 files/s, 11 s left` (or `1200 files, 340 files/s` while
    /// the total is not known yet).
    static func text(done: Int, total: Int?, seconds: Double) -> String {
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var text = total.map { "\(done) of \(max($0, done)) files" } ?? "\(done) file\(done == 1 ? "" : "s")"
        text += ", \(Int(rate.rounded())) files/s"
        if let total, rate > 0 {
            let left = Int((Double(max(total - done, 0)) / rate).rounded(.up))
            text += left >= 60 ? ", \(left / 60) min \(left % 60) s left" : ", \(left) s left"
        }
        return text
    }
}

/// The count of the second walk, set once by its thread.
private final class TotalCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int?

    var value: Int? {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func set(_ value: Int) {
        lock.lock()
        count = value
        lock.unlock()
    }
}
