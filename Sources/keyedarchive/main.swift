// keyedarchive: inspect, convert and check Apple keyed archives.
//
// `keyedarchive --help` lists the commands; `Tool.run` dispatches to them.

import Foundation

/// The exit status, handed from the worker thread to the main thread. Written once
/// before `finished.signal()` and read after `finished.wait()`, so never concurrently.
final class ExitStatusBox: @unchecked Sendable {
    var value = ExitStatus.success
    let finished = DispatchSemaphore(value: 0)
}

// The work runs on a thread with a 64 MiB stack: the tree and JSON walks recurse once
// per level of the object graph (bounded: 10 000 levels for `json`), and the default
// 8 MiB main stack, or a smaller `ulimit -s`, would not hold that in a debug build.
// When the system refuses that thread, the main thread works on its own stack.

/// Runs the tool on a work thread, or on this thread when the system refuses one (an
/// address-space limit), and gives its exit status.
func runOnWorkThread(_ arguments: [String]) -> Int32 {
    let status = ExitStatusBox()
    let started = WorkThread.start {
        status.value = Tool.run(arguments)
        status.finished.signal()
    }
    guard started else { return Tool.run(arguments) }
    status.finished.wait()
    return status.value
}

exit(runOnWorkThread(Array(ProcessInfo.processInfo.arguments.dropFirst())))
