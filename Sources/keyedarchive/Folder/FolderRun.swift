import Foundation

/// What one input gave: the text for standard output and standard error, and how it counts
/// in the summary.
struct FileReport: Sendable {
    enum Verdict: Sendable {
        case done
        /// Not a keyed archive, a symbolic link, a special file: counted, not a failure.
        case skipped
        case failed
    }

    var verdict: Verdict
    var output = ""
    var messages = ""
    /// Nested property lists left unopened (`--expand-nested`), for one note at the end.
    var unexpandedNested = 0
}

/// Totals of a run, for the summary line and the exit status.
struct FolderTotals: Sendable {
    var done = 0
    var skipped = 0
    var failed = 0
    var unexpandedNested = 0

    var files: Int { done + skipped + failed }
}

/// Runs a command's work on every input of a walk, on `jobs` threads, and writes each
/// input's report in walk order as soon as it and every report before it are complete.
///
/// Memory is bounded: at most `2 × jobs` inputs are in flight (read, being processed, or
/// done and waiting for an earlier one), and the walk holds only the folders on its current
/// path. The order of the output depends on the walk alone, never on `jobs` or on timing.
///
/// Worker threads have the 64 MiB stack that the tool's main work thread has (the tree and
/// JSON walks recurse once per level of the object graph). When the system cannot create
/// them all (an address-space limit), the run uses those it got; with none, the calling
/// thread works on the files itself, one at a time.
enum FolderRun {
    static func run(_ roots: [String], jobs: Int, maxFileSize: Int, progress: Bool,
                    work: @escaping @Sendable (FoundInput) -> FileReport) -> FolderTotals {
        let queue = WorkQueue()
        // Threads the system refuses (their stacks cannot be reserved under `ulimit -v`)
        // are done without; with none, this thread does the work between writes.
        var workers = 0
        for _ in 0..<jobs {
            let started = WorkThread.start {
                while let (sequence, input) = queue.take() {
                    queue.complete(sequence, work(input))
                }
                queue.workerEnded()
            }
            guard started else { break }
            workers += 1
        }
        var meter = progress ? ProgressLine(roots: roots) : nil
        var totals = FolderTotals()
        var out = OutputBuffer(fd: 1)
        // On a terminal, each file's verdict appears with its messages; in a pipe, output
        // goes in large writes.
        let flushEachFile = isatty(1) != 0
        var walk = FolderWalk(roots)
        var submitted = 0, written = 0
        var exhausted = false
        let window = 2 * max(workers, 1)
        while true {
            while !exhausted, submitted - written < window {
                guard var input = walk.next() else {
                    exhausted = true
                    break
                }
                input.maxFileSize = maxFileSize
                queue.submit(submitted, input)
                submitted += 1
            }
            guard written < submitted else { break }
            if workers == 0, let (sequence, input) = queue.take() {
                queue.complete(sequence, work(input))
            }
            let report = queue.result(written) { out.flush() }
            written += 1
            if !report.messages.isEmpty || flushEachFile {
                out.flush()
                meter?.clear()
                Terminal.write(report.messages, to: 2)
            }
            out.append(report.output)
            if flushEachFile { out.flush() }
            switch report.verdict {
            case .done: totals.done += 1
            case .skipped: totals.skipped += 1
            case .failed: totals.failed += 1
            }
            totals.unexpandedNested += report.unexpandedNested
            meter?.update(done: written)
        }
        out.flush()
        meter?.clear()
        queue.close(waitingFor: workers)
        return totals
    }
}

/// The inputs waiting for a worker and the reports waiting to be written, under one lock.
private final class WorkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [(Int, FoundInput)] = []
    private var head = 0
    private var results: [Int: FileReport] = [:]
    private var closed = false
    /// Workers that have ended.
    private var ended = 0

    func submit(_ sequence: Int, _ input: FoundInput) {
        condition.lock()
        if head > 64, head * 2 > pending.count {
            pending.removeFirst(head)
            head = 0
        }
        pending.append((sequence, input))
        condition.broadcast()
        condition.unlock()
    }

    /// The next input to process, or `nil` once the queue is closed and empty.
    func take() -> (Int, FoundInput)? {
        condition.lock()
        defer { condition.unlock() }
        while head == pending.count, !closed { condition.wait() }
        guard head < pending.count else { return nil }
        head += 1
        return pending[head - 1]
    }

    func complete(_ sequence: Int, _ report: FileReport) {
        condition.lock()
        results[sequence] = report
        condition.broadcast()
        condition.unlock()
    }

    /// The report of input `sequence`, waiting for it; `beforeWaiting` runs (unlocked)
    /// when it is not ready yet, to flush what is written so far.
    func result(_ sequence: Int, beforeWaiting: () -> Void) -> FileReport {
        condition.lock()
        if results[sequence] == nil {
            condition.unlock()
            beforeWaiting()
            condition.lock()
        }
        while results[sequence] == nil { condition.wait() }
        let report = results.removeValue(forKey: sequence) ?? FileReport(verdict: .failed)
        condition.unlock()
        return report
    }

    /// Closes the queue and waits until `workers` workers have ended.
    func close(waitingFor workers: Int) {
        condition.lock()
        closed = true
        condition.broadcast()
        while ended < workers { condition.wait() }
        condition.unlock()
    }

    /// A worker's last call, once ``take()`` gave it `nil`.
    func workerEnded() {
        condition.lock()
        ended += 1
        condition.broadcast()
        condition.unlock()
    }
}
