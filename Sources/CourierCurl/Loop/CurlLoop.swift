import CCurl
import Courier
import Foundation
import Synchronization

/// The thread-safe face of a transport's I/O thread: a command queue, the wakeup, and the lifecycle.
///
/// Any thread may `submit`; the command is queued under a lock and, when the I/O thread is asleep
/// in `SocketPoller.wait`, `LoopWakeup.ring` interrupts it. The thread starts with the first
/// command and runs `CurlLoopDriver`; it stops on `shutdown()`, or once the transport is released
/// and its last transfer has ended.
final class CurlLoop: Sendable {
    /// How the driver should go on after a round of work.
    enum NextStep {
        /// More commands are queued: run them without sleeping.
        case work
        /// Sleep in `SocketPoller.wait` until a socket, curl's timer or a wakeup.
        case poll
        /// Stop: end the remaining transfers (`failTransfers`), refuse `leftovers`, then resume `waiters`.
        case exit(failTransfers: Bool, leftovers: [CurlCommand], waiters: [CheckedContinuation<Void, Never>])
    }

    private enum Phase { case idle, running, stopped }

    private struct State {
        var phase = Phase.idle
        var commands: [CurlCommand] = []
        var isPolling = false
        var ownerReleased = false
        var shutdownRequested = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var driverOwnsMulti = false
    }

    let configuration: CurlTransport.Configuration
    /// The multi handle; used on the I/O thread only (and freed here if that thread never ran).
    nonisolated(unsafe) let multi: UnsafeMutableRawPointer?
    /// Rung by `submit` and friends while the I/O thread sleeps.
    let wakeup: LoopWakeup?
    private let state = Mutex(State())
    private let lastID = Atomic<UInt64>(0)
    /// Whether `commands` is non-empty, readable without the lock while the I/O thread spins.
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
        let driverOwnsMulti = state.withCheckedLock { $0.driverOwnsMulti }
        if !driverOwnsMulti, let multi { curl_multi_cleanup(multi) }
    }

    /// A fresh transfer id.
    func makeID() -> UInt64 { lastID.add(1, ordering: .relaxed).newValue }

    /// Whether the loop has stopped for good (shut down): later requests are refused.
    var hasStopped: Bool { state.withCheckedLock { $0.phase == .stopped || $0.shutdownRequested } }

    /// Whether the I/O thread is running (for tests: it must stop once the transport is gone).
    var isRunning: Bool { state.withCheckedLock { $0.phase == .running } }

    /// Queues `command` for the I/O thread, starting the thread on first use; never blocks.
    func submit(_ command: CurlCommand) {
        enum Action { case queued, start, reject }
        let action = state.withCheckedLock { state -> Action in
            switch state.phase {
            case .stopped:
                return .reject
            case .idle:
                guard multi != nil, wakeup != nil else { return .reject }
                state.phase = .running
                state.driverOwnsMulti = true
                state.commands.append(command)
                return .start
            case .running:
                state.commands.append(command)
                hasCommands.store(true, ordering: .releasing)
                wakeIfPolling(&state)
                return .queued
            }
        }
        switch action {
        case .queued: break
        case .start: startThread()
        case .reject: Self.refuse(command)
        }
    }

    /// Stops the I/O thread: transfers still running fail with `cancelled`. Returns once the thread is done.
    func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withCheckedLock { state -> Bool in
                switch state.phase {
                case .idle, .stopped:
                    state.phase = .stopped
                    return true
                case .running:
                    state.shutdownRequested = true
                    state.waiters.append(continuation)
                    wakeIfPolling(&state)
                    return false
                }
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// The transport is gone: the thread stops once its last transfer has ended.
    func ownerReleased() {
        state.withCheckedLock { state in
            switch state.phase {
            case .idle:
                state.phase = .stopped
            case .running:
                state.ownerReleased = true
                wakeIfPolling(&state)
            case .stopped:
                break
            }
        }
    }

    // MARK: - Called by the driver on the I/O thread

    /// Takes every queued command by swapping arrays: `batch` must come empty, and leaves
    /// with the commands; its storage goes back to the queue, so neither side allocates.
    func takeCommands(into batch: inout [CurlCommand]) {
        state.withCheckedLock { state in
            hasCommands.store(false, ordering: .relaxed)
            swap(&state.commands, &batch)
        }
    }

    /// Whether commands are queued; a cheap check for the I/O thread while it spins.
    var hasPendingCommands: Bool { hasCommands.load(ordering: .acquiring) }

    /// Decides, atomically with respect to `submit`, whether the thread works on, sleeps or stops.
    func nextStep(activeTransfers: Int) -> NextStep {
        state.withCheckedLock { state in
            if state.shutdownRequested || (state.ownerReleased && activeTransfers == 0 && state.commands.isEmpty) {
                state.phase = .stopped
                defer {
                    state.commands = []
                    state.waiters = []
                }
                return .exit(failTransfers: state.shutdownRequested, leftovers: state.commands, waiters: state.waiters)
            }
            if !state.commands.isEmpty { return .work }
            state.isPolling = true
            return .poll
        }
    }

    /// The thread is back from `SocketPoller.wait`.
    func didWake() {
        state.withCheckedLock { $0.isPolling = false }
    }

    /// The I/O thread could not make its poller (no descriptor left): stop as a shutdown would,
    /// refusing what is queued; the multi handle goes with this object.
    private func abandonStart() {
        let (leftovers, waiters) = state.withCheckedLock { state in
            state.phase = .stopped
            state.driverOwnsMulti = false
            defer {
                state.commands = []
                state.waiters = []
            }
            return (state.commands, state.waiters)
        }
        leftovers.forEach(Self.refuse)
        for waiter in waiters { waiter.resume() }
    }

    /// Answers a command that can no longer run: a transfer that was never added fails with `cancelled`.
    static func refuse(_ command: CurlCommand) {
        guard case .start(let transfer, let continuation) = command else { return }
        transfer.upload?.close()
        continuation.resume(throwing: transfer.error(.cancelled, "the transport was shut down"))
    }

    private func wakeIfPolling(_ state: inout State) {
        guard state.isPolling else { return }
        state.isPolling = false
        wakeup?.ring()
    }

    private func startThread() {
        let thread = Thread { [self] in
            guard let multi, let wakeup else { return }
            guard let driver = CurlLoopDriver(loop: self, multi: multi, wakeup: wakeup) else {
                abandonStart()
                return
            }
            driver.run()
        }
        thread.name = "Courier curl I/O"
        thread.start()
    }
}

/// `curl_global_init`, run once per process before the first handle is made.
enum CurlGlobal {
    private static let result: CURLcode = curl_global_init(ccurl_global_all)

    static func ensureInitialized() { _ = result }
}
