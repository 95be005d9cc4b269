import CCourier
import CourierCInterceptors

#if os(Linux)
import CCurl  // sys/eventfd.h, which Glibc's module leaves out
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The completions of a client's asynchronous sends, held for the program's own thread
/// (`queue_completions`), with a file descriptor its event loop watches: readable while any wait.
///
/// The descriptor is an eventfd on Linux (a pipe elsewhere). Every touch of it happens under the
/// lock, with the phase checked first, so closing it can never race a read or write that would
/// then hit a descriptor number the program has reused.
final class CompletionQueue: Sendable {
    /// A completion to run: the C callback, then the send's bookkeeping.
    typealias Completion = @Sendable () -> Void

    private enum Phase {
        /// Taking completions; `waiting` in the order their sends ended.
        case open(waiting: [Completion])
        /// The client was freed: completions run where their sends end.
        case closed
    }

    /// The descriptor the program polls; `wakeWriter` is the same on Linux, the pipe's write end elsewhere.
    let fileDescriptor: Int32
    private let wakeWriter: Int32
    private let phase = Locked<Phase>(.open(waiting: []))

    init() throws {
        #if os(Linux)
        let descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard descriptor >= 0 else { throw Self.failure("eventfd") }
        fileDescriptor = descriptor
        wakeWriter = descriptor
        #else
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Self.failure("pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        fileDescriptor = ends[0]
        wakeWriter = ends[1]
        #endif
    }

    /// Queues `completion` and makes the descriptor readable; returns false, queuing nothing,
    /// once the queue is closed (the caller then runs it itself).
    ///
    /// Only the first completion since the last `runWaiting` writes to the descriptor: it stays
    /// readable until then, and a write for each completion was one system call per response
    /// (1.03 writes per request for `courier.AsyncClient` at 32 in flight).
    func deliver(_ completion: @escaping Completion) -> Bool {
        phase.withLock { phase in
            guard case .open(var waiting) = phase else { return false }
            // The phase lets go of the array first, so that appending does not copy it.
            phase = .open(waiting: [])
            let wasEmpty = waiting.isEmpty
            waiting.append(completion)
            phase = .open(waiting: waiting)
            if wasEmpty {
                var one: UInt64 = 1
                _ = write(wakeWriter, &one, MemoryLayout<UInt64>.size)
            }
            return true
        }
    }

    /// Runs the completions waiting now, on the calling thread, and returns how many ran.
    func runWaiting() -> Int {
        let taken = phase.withLock { phase -> [Completion] in
            guard case .open(let waiting) = phase else { return [] }
            // Drained before the completions are taken: one delivered after this keeps the
            // descriptor readable, so no wakeup is ever lost.
            drainWakeups()
            phase = .open(waiting: [])
            return waiting
        }
        for completion in taken { completion() }
        return taken.count
    }

    /// Closes the queue and its descriptor, then runs what was still waiting on the calling thread.
    func close() {
        let left = phase.withLock { phase -> [Completion] in
            guard case .open(let waiting) = phase else { return [] }
            phase = .closed
            closeDescriptor(fileDescriptor)
            if wakeWriter != fileDescriptor { closeDescriptor(wakeWriter) }
            return waiting
        }
        for completion in left { completion() }
    }

    /// Empties the descriptor: one read resets an eventfd's counter; a pipe may hold several bytes.
    private func drainWakeups() {
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &buffer, { read(fileDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    private static func failure(_ call: String) -> CAPIFailure {
        CAPIFailure(
            COURIER_E_INTERNAL,
            "courier_client_new: \(call) failed for the completion queue: \(String(cString: strerror(errno)))")
    }
}

/// `close(2)`, named apart from `CompletionQueue.close()`.
private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
