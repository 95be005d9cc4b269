import Courier
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for SIGINT or SIGTERM without blocking a thread, so `courier serve` can shut down cleanly.
enum SignalWaiter {
    /// Suspends until one of `signals` arrives and returns it; the signals' default action
    /// (ending the process) is off from the first call.
    static func wait(for signals: [Int32] = [SIGINT, SIGTERM]) async -> Int32 {
        let queue = DispatchQueue(label: "courier.signals")
        let waiter = Waiter()
        var sources: [any DispatchSourceSignal] = []
        let received = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            waiter.continuation.withLock { $0 = continuation }
            for number in signals {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    waiter.continuation.withLock { $0.take() }?.resume(returning: number)
                }
                source.resume()
                sources.append(source)
            }
        }
        for source in sources { source.cancel() }
        return received
    }

    /// The continuation to resume once, by whichever signal comes first.
    private final class Waiter: Sendable {
        let continuation = Protected<CheckedContinuation<Int32, Never>?>(nil)
    }
}
