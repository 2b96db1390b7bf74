import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starting a thread with a large stack, and knowing when the system refuses it.
///
/// `Thread.start()` gives no answer: under an address-space limit (`ulimit -v`) a thread
/// whose 64 MiB stack cannot be reserved never runs, and whoever waits for it waits
/// forever. `pthread_create` says so; the caller then does with fewer threads (or does
/// the work itself).
enum WorkThread {
    /// The stack of the tool's work threads: the tree and JSON walks recurse once per level
    /// of the object graph.
    static let stackSize = 64 << 20

    /// Runs `body` on a new detached thread with `stackSize` bytes of stack; `false` when
    /// the thread could not be created (then `body` never runs).
    static func start(stackSize: Int = stackSize, _ body: @escaping @Sendable () -> Void) -> Bool {
        #if DEBUG
        if refusedForTest() { return false }
        #endif
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        guard create(stackSize: stackSize, context: context) else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        return true
    }

    /// `pthread_create` of a detached thread running the `Body` at `context`.
    private static func create(stackSize: Int, context: UnsafeMutableRawPointer) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        var status = pthread_attr_setstacksize(&attributes, stackSize)
        if status == 0 { status = pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        if status == 0 { status = pthread_create(&thread, &attributes, runWorkThread, context) }
        pthread_attr_destroy(&attributes)
        return status == 0
    }

    fileprivate final class Body: @unchecked Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    #if DEBUG
    /// Test hook (debug builds only): `KEYEDARCHIVE_TEST_THREADS=N` lets only the first N
    /// thread creations succeed, as an address-space limit would.
    private static let allowed: ThreadAllowance? = ProcessInfo.processInfo.environment["KEYEDARCHIVE_TEST_THREADS"]
        .flatMap { Int($0) }.map(ThreadAllowance.init)

    private static func refusedForTest() -> Bool {
        guard let allowed else { return false }
        return !allowed.take()
    }

    private final class ThreadAllowance: @unchecked Sendable {
        private let lock = NSLock()
        private var left: Int
        init(_ count: Int) { left = count }

        func take() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard left > 0 else { return false }
            left -= 1
            return true
        }
    }
    #endif
}

/// A work thread's start: runs and releases the `WorkThread.Body` at `context`.
#if canImport(Darwin)
private func runWorkThread(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<WorkThread.Body>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
#else
private func runWorkThread(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<WorkThread.Body>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
#endif
