/// The lifecycle of a transport's I/O thread as one value: each phase carries only its own data,
/// and each event returns what `CurlLoop` must do, so the rules are tested without a thread
/// (`CurlLoopStateTests`). `CurlLoop` keeps it under its lock.
///
/// Generic over the queued command and the shutdown waiter so that tests can drive it with
/// plain values; `CurlLoop` uses `CurlLoopCommand` and `CheckedContinuation<Void, Never>`.
struct CurlLoopState<Command, Waiter> {
    /// The queue and the sleep flag of a running thread.
    struct Running {
        var commands: [Command] = []
        /// The thread sleeps in `SocketPoller.wait`: a new command must ring the wakeup.
        var isPolling = false
        /// The transport is gone: the thread stops once its last transfer has ended.
        var ownerReleased = false
    }

    enum Phase {
        /// No thread yet; the first command starts it.
        case idle
        /// The thread runs the driver, which owns the multi handle.
        case running(Running)
        /// `shutdown()` was called: the thread fails its transfers, refuses what is queued and
        /// resumes these waiters.
        case shuttingDown(Running, waiters: [Waiter])
        /// For good. `driverOwnedMulti` says whether the thread freed the multi handle (it ran)
        /// or the loop must (it never started, or could not make its poller).
        case stopped(driverOwnedMulti: Bool)
    }

    enum SubmitAction {
        /// Queued for the running thread; ring the wakeup when it sleeps.
        case queued(ring: Bool)
        /// Queued, and the thread must be started.
        case start
        /// The loop stopped (or cannot start): answer the command as refused.
        case refuse(Command)
    }

    enum ShutdownAction {
        /// Nothing runs: the waiter may go on at once.
        case resumeNow(Waiter)
        /// The thread will resume the waiter when it ends; ring the wakeup when it sleeps.
        case wait(ring: Bool)
    }

    /// What the driver does after a round.
    enum NextStep {
        /// More commands are queued: run them without sleeping.
        case work
        /// Sleep in `SocketPoller.wait` until a socket, curl's timer or a wakeup.
        case poll
        /// Stop: end the remaining transfers (`failTransfers`), refuse `leftovers`, then resume `waiters`.
        case exit(failTransfers: Bool, leftovers: [Command], waiters: [Waiter])
    }

    private(set) var phase = Phase.idle

    /// Whether later requests are refused: shut down, or shutting down.
    var hasStopped: Bool {
        switch phase {
        case .idle, .running: false
        case .shuttingDown, .stopped: true
        }
    }

    /// Whether the I/O thread runs (until it has ended its last round).
    var isRunning: Bool {
        switch phase {
        case .running, .shuttingDown: true
        case .idle, .stopped: false
        }
    }

    /// Whether the I/O thread took the multi handle, so the loop must not free it.
    var driverOwnsMulti: Bool {
        switch phase {
        case .idle: false
        case .running, .shuttingDown: true
        case .stopped(let driverOwnedMulti): driverOwnedMulti
        }
    }

    /// A command from any thread. `canStart` is false when the loop could not make its multi
    /// handle or wakeup, so there is no thread to start.
    mutating func submit(_ command: Command, canStart: Bool) -> SubmitAction {
        switch phase {
        case .idle:
            guard canStart else { return .refuse(command) }
            phase = .running(Running(commands: [command]))
            return .start
        case .running, .shuttingDown:
            // While shutting down, the thread's last round takes it and refuses it with the rest.
            return .queued(ring: modifyRunning { $0.enqueue(command) } ?? false)
        case .stopped:
            return .refuse(command)
        }
    }

    /// `shutdown()` from any thread.
    mutating func shutdown(_ waiter: Waiter) -> ShutdownAction {
        switch phase {
        case .idle:
            phase = .stopped(driverOwnedMulti: false)
            return .resumeNow(waiter)
        case .stopped:
            return .resumeNow(waiter)
        case .running(var running):
            let ring = running.stopPolling()
            phase = .shuttingDown(running, waiters: [waiter])
            return .wait(ring: ring)
        case .shuttingDown(var running, var waiters):
            phase = .idle  // parked, so neither array is copied while it changes
            let ring = running.stopPolling()
            waiters.append(waiter)
            phase = .shuttingDown(running, waiters: waiters)
            return .wait(ring: ring)
        }
    }

    /// The transport is gone; returns whether to ring the wakeup.
    mutating func ownerReleased() -> Bool {
        switch phase {
        case .idle:
            phase = .stopped(driverOwnedMulti: false)
            return false
        case .running:
            return modifyRunning { running in
                running.ownerReleased = true
                return running.stopPolling()
            } ?? false
        case .shuttingDown, .stopped:
            return false
        }
    }

    // MARK: - Events of the I/O thread

    /// Takes every queued command by swapping arrays: `batch` must come empty and leaves with the
    /// commands; its storage goes back to the queue, so neither side allocates.
    mutating func takeCommands(into batch: inout [Command]) {
        modifyRunning { swap(&$0.commands, &batch) }
    }

    /// Whether the thread works on, sleeps or stops, decided atomically with `submit`.
    mutating func nextStep(activeTransfers: Int) -> NextStep {
        switch phase {
        case .shuttingDown(let running, let waiters):
            phase = .stopped(driverOwnedMulti: true)
            return .exit(failTransfers: true, leftovers: running.commands, waiters: waiters)
        case .running(let running):
            if running.ownerReleased, activeTransfers == 0, running.commands.isEmpty {
                phase = .stopped(driverOwnedMulti: true)
                return .exit(failTransfers: false, leftovers: [], waiters: [])
            }
            if !running.commands.isEmpty { return .work }
            modifyRunning { $0.isPolling = true }
            return .poll
        case .idle, .stopped:
            preconditionFailure("nextStep is asked by a running I/O thread only")
        }
    }

    /// The thread is back from `SocketPoller.wait`.
    mutating func didWake() {
        modifyRunning { $0.isPolling = false }
    }

    /// The thread could not make its poller: stop as a shutdown would; the loop keeps the multi
    /// handle. Returns the commands to refuse and the waiters to resume.
    mutating func abandonStart() -> (leftovers: [Command], waiters: [Waiter]) {
        defer { phase = .stopped(driverOwnedMulti: false) }
        switch phase {
        case .running(let running):
            return (running.commands, [])
        case .shuttingDown(let running, let waiters):
            return (running.commands, waiters)
        case .idle, .stopped:
            return ([], [])
        }
    }
}

extension CurlLoopState {
    /// Runs `body` on the data of a running or shutting-down thread, in place: the phase is
    /// parked as `.idle` meanwhile, so the queue's storage stays uniquely referenced and is
    /// never copied by an append or a swap. `nil` in the other phases.
    @discardableResult
    private mutating func modifyRunning<Result>(_ body: (inout Running) -> Result) -> Result? {
        switch phase {
        case .running(var running):
            phase = .idle
            let result = body(&running)
            phase = .running(running)
            return result
        case .shuttingDown(var running, let waiters):
            phase = .idle
            let result = body(&running)
            phase = .shuttingDown(running, waiters: waiters)
            return result
        case .idle, .stopped:
            return nil
        }
    }
}

extension CurlLoopState.Running {
    /// Queues `command`; whether the sleeping thread must be woken for it.
    fileprivate mutating func enqueue(_ command: Command) -> Bool {
        commands.append(command)
        return stopPolling()
    }

    /// Clears the sleep flag; whether it was set (the thread must be woken).
    fileprivate mutating func stopPolling() -> Bool {
        defer { isPolling = false }
        return isPolling
    }
}
