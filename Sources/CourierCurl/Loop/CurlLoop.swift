import CCurl
import Courier
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread-safe face of a transport's I/O thread: a command queue, the wakeup, and the lifecycle.
///
/// Any thread may `submit`; the command is queued under a lock and, when the I/O thread is asleep
/// in `SocketPoller.wait`, `LoopWakeup.ring` interrupts it. The thread starts with the first
/// command and runs `CurlLoopDriver`; it stops on `shutdown()`, or once the transport is released
/// and its last transfer has ended.
final class CurlLoop: Sendable {
    typealias State = CurlLoopState<CurlLoopCommand, CheckedContinuation<Void, Never>>
    typealias NextStep = State.NextStep

    let configuration: CurlTransport.Configuration
    /// The multi handle; used on the I/O thread only (and freed here if that thread never ran).
    nonisolated(unsafe) let multi: UnsafeMutableRawPointer?
    /// Rung by `submit` and friends while the I/O thread sleeps.
    let wakeup: LoopWakeup?
    private let state = Protected(State())
    /// The I/O thread's identity once it runs (0 before): its members check they are called there.
    private let ioThread = Atomic<UInt>(0)
    private let lastID = Atomic<UInt64>(0)
    /// Whether commands are queued, readable without the lock while the I/O thread spins.
    private let hasCommands = Atomic<Bool>(false)
    /// Connections opened so far (curl's `CURLINFO_NUM_CONNECTS` summed over transfers).
    let connectionsOpened = Atomic<Int>(0)

    init(configuration: CurlTransport.Configuration) {
        CurlGlobal.ensureInitialized()
        self.configuration = configuration
        multi = curl_multi_init()
        wakeup = LoopWakeup()
        if let multi {
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maxConnections)
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxIdleConnections)
        }
    }

    deinit {
        let driverOwnsMulti = state.withLock { $0.driverOwnsMulti }
        if !driverOwnsMulti, let multi { curl_multi_cleanup(multi) }
    }

    /// A fresh transfer id.
    func makeID() -> UInt64 { lastID.add(1, ordering: .relaxed).newValue }

    /// Whether the loop has stopped for good (shut down): later requests are refused.
    var hasStopped: Bool { state.withLock { $0.hasStopped } }

    /// Whether the I/O thread is running (for tests: it must stop once the transport is gone).
    var isRunning: Bool { state.withLock { $0.isRunning } }

    /// Queues `command` for the I/O thread, starting the thread on first use; never blocks.
    func submit(_ command: CurlLoopCommand) {
        let canStart = multi != nil && wakeup != nil
        let action = state.withLock { state in
            let action = state.submit(command, canStart: canStart)
            if case .queued = action { hasCommands.store(true, ordering: .releasing) }
            return action
        }
        switch action {
        case .queued(let ring): if ring { wakeup?.ring() }
        case .start: startThread()
        case .refuse(let command): Self.refuse(command)
        }
    }

    /// Stops the I/O thread: transfers still running fail with `cancelled`. Returns once the thread is done.
    func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            switch state.withLock({ $0.shutdown(continuation) }) {
            case .resumeNow(let waiter): waiter.resume()
            case .wait(let ring): if ring { wakeup?.ring() }
            }
        }
    }

    /// The transport is gone: the thread stops once its last transfer has ended.
    func ownerReleased() {
        if state.withLock({ $0.ownerReleased() }) { wakeup?.ring() }
    }

    // MARK: - Called by the driver on the I/O thread

    /// Stops a debug build unless called on the I/O thread.
    func assertOnIOThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(
            ThreadIdentity(raw: ioThread.load(ordering: .acquiring)) == .current,
            "a curl I/O thread member called off that thread", file: file, line: line)
    }

    /// Takes every queued command by swapping arrays: `batch` must come empty, and leaves
    /// with the commands; its storage goes back to the queue, so neither side allocates.
    func takeCommands(into batch: inout [CurlLoopCommand]) {
        assertOnIOThread()
        state.withLock { state in
            hasCommands.store(false, ordering: .relaxed)
            state.takeCommands(into: &batch)
        }
    }

    /// Whether commands are queued; a cheap check for the I/O thread while it spins.
    var hasPendingCommands: Bool { hasCommands.load(ordering: .acquiring) }

    /// Decides, atomically with respect to `submit`, whether the thread works on, sleeps or stops.
    func nextStep(activeTransfers: Int) -> NextStep {
        assertOnIOThread()
        return state.withLock { $0.nextStep(activeTransfers: activeTransfers) }
    }

    /// The thread is back from `SocketPoller.wait`.
    func didWake() {
        assertOnIOThread()
        state.withLock { $0.didWake() }
    }

    /// The I/O thread could not make its poller (no descriptor left): stop as a shutdown would,
    /// refusing what is queued; the multi handle goes with this object.
    private func abandonStart() {
        let (leftovers, waiters) = state.withLock { $0.abandonStart() }
        leftovers.forEach(Self.refuse)
        for waiter in waiters { waiter.resume() }
    }

    /// Answers a command that can no longer run: a transfer that was never added fails with `cancelled`.
    static func refuse(_ command: CurlLoopCommand) {
        guard case .start(let transfer, let continuation) = command else { return }
        transfer.upload?.close()
        transfer.releaseToSend()
        continuation.resume(throwing: transfer.error(.cancelled, "the transport was shut down"))
    }

    private func startThread() {
        let started = PthreadThread.start(named: "courier-curl-io") { [self] in
            ioThread.store(ThreadIdentity.current.raw, ordering: .releasing)
            guard let multi, let wakeup else { return }
            guard let driver = CurlLoopDriver(loop: self, multi: multi, wakeup: wakeup) else {
                abandonStart()
                return
            }
            let member = ForkGate.shared.join()
            defer { ForkGate.shared.leave(member) }
            ForkGate.shared.beginWork(member)
            driver.run(forkGate: member)
        }
        // No thread left to start (the process's limit): what was queued fails, as after a shutdown.
        if !started { abandonStart() }
    }
}

/// `curl_global_init`, run once per process before the first handle is made.
enum CurlGlobal {
    private static let result: CURLcode = curl_global_init(ccurl_global_all)

    static func ensureInitialized() { _ = result }
}
