import CCurl
import Courier
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of the I/O thread: one curl multi handle driven with `curl_multi_socket_action`, the
/// transfers on it, and a loop of commands → ready sockets and curl's timer → finished transfers →
/// `SocketPoller.wait`.
///
/// A round costs what its ready sockets cost, not what every transfer costs: curl tells which
/// sockets to watch (socket callback) and when to come back (timer callback), and each ready
/// socket is handed to curl alone. Commands arrive in one swapped array per round.
///
/// Everything here runs on that one thread; curl's callbacks run inside `curl_multi_socket_action`
/// and `curl_easy_pause`, so the transfers' state needs no locks. Connections live in the multi
/// handle's pool and are reused by later transfers; easy handles are recycled through a short free list.
/// For the same reason its stored state, the poller's and the transfers' skip the runtime's
/// exclusivity checks (`@exclusivity(unchecked)`), which cost about 1,900 instructions per request.
final class CurlLoopDriver {
    private static let spareHandleLimit = 32
    private static let pollMilliseconds: Int32 = 1000
    /// How long the thread busy-waits for a command or a ready socket before sleeping, while one
    /// or two transfers run or one just ended. Sleeping and being woken costs tens of microseconds
    /// on a virtual machine; a loopback round trip or the caller's next request often comes sooner.
    private static let spinLimit: Duration = .microseconds(100)
    /// Above this many running transfers the thread never spins: some socket is nearly always ready.
    private static let spinMaxActive = 2
    /// Whether to busy-wait at all: not when the process may use only one CPU (`taskset -c 1`, a
    /// one-core container), where spinning would hold the very core the awaited thread needs.
    private static let spinningPays = ccurl_usable_cpu_count() != 1

    private let loop: CurlLoop
    private let multi: UnsafeMutableRawPointer
    private let poller: SocketPoller
    /// The running transfers by id, which commands name; this table keeps each alive while its
    /// handle is in the multi handle, whose messages find it by the handle's `CURLOPT_PRIVATE`.
    @exclusivity(unchecked) private var active: [UInt64: ActiveTransfer] = [:]
    @exclusivity(unchecked) private var spareHandles: [EasyHandle] = []
    /// The header lines every request ends with, shared by all of them.
    private let headerTails: HeaderTails?
    /// Transfers whose head completed during this round; `send` gets them once the round is over.
    @exclusivity(unchecked) private var readyHeads: [ActiveTransfer] = []
    private lazy var headReady: (ActiveTransfer) -> Void = { [unowned self] state in readyHeads.append(state) }
    /// The `send`s this round's heads answer, resumed together once they are all handed over.
    @exclusivity(unchecked) private var resumes = ResumeBatch()
    /// This round's commands and ready sockets; kept between rounds so they never reallocate.
    @exclusivity(unchecked) private var commands: [CurlLoopCommand] = []
    @exclusivity(unchecked) private var readySockets: [SocketPoller.Readiness] = []
    /// When curl wants `CURL_SOCKET_TIMEOUT` handled (its timer callback); `nil` for never.
    @exclusivity(unchecked) private var timerDeadline: ContinuousClock.Instant?
    private let clock = ContinuousClock()

    /// `nil` when the poller cannot get its descriptor.
    init?(loop: CurlLoop, multi: UnsafeMutableRawPointer, wakeup: LoopWakeup) {
        guard let poller = SocketPoller(wakeup: wakeup) else { return nil }
        self.loop = loop
        self.multi = multi
        self.poller = poller
        headerTails = HeaderTails(userAgent: loop.configuration.userAgent)
        commands.reserveCapacity(64)
        readySockets.reserveCapacity(64)
    }

    /// Runs the loop until the transport stops; between rounds, while it sleeps in the poller, it
    /// is off `forkGate`'s work, so a fork need not wait for it.
    func run(forkGate member: ForkGate.Member) {
        loop.assertOnIOThread()
        installMultiCallbacks()
        while true {
            ForkGate.shared.checkpoint(member)
            loop.takeCommands(into: &commands)
            for command in commands { run(command) }
            commands.removeAll(keepingCapacity: true)
            for ready in readySockets { act(on: ready.socket, mask: ready.mask) }
            readySockets.removeAll(keepingCapacity: true)
            if let deadline = timerDeadline, clock.now >= deadline {
                timerDeadline = nil
                act(on: ccurl_socket_timeout, mask: 0)
            }
            let finished = collectFinished()
            handOverHeads()
            if Self.spinningPays, active.count <= Self.spinMaxActive, finished || !active.isEmpty, spinBeforeSleeping()
            {
                continue
            }
            switch loop.nextStep(activeTransfers: active.count) {
            case .work:
                continue
            case .poll:
                ForkGate.shared.endWork(member)
                poller.wait(milliseconds: pollTimeout(), into: &readySockets)
                ForkGate.shared.beginWork(member)
                loop.didWake()
            case .exit(let failTransfers, let leftovers, let waiters):
                if failTransfers {
                    for state in Array(active.values) {
                        end(state, with: state.transfer.error(.cancelled, "the transport was shut down"))
                    }
                }
                leftovers.forEach(CurlLoop.refuse)
                spareHandles.removeAll()
                curl_multi_cleanup(multi)
                for waiter in waiters { waiter.resume() }
                return
            }
        }
    }

    /// Points curl's socket and timer callbacks at this driver, which outlives the multi handle's use.
    private func installMultiCallbacks() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, me)
        _ = ccurl_multi_setopt_socket_callback(multi) { _, socket, what, me, socketData in
            guard let me else { return -1 }
            Unmanaged<CurlLoopDriver>.fromOpaque(me).takeUnretainedValue()
                .curlWantsSocket(socket, what: what, known: socketData != nil)
            return 0
        }
        _ = ccurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, me)
        _ = ccurl_multi_setopt_timer_callback(multi) { _, milliseconds, me in
            guard let me else { return -1 }
            Unmanaged<CurlLoopDriver>.fromOpaque(me).takeUnretainedValue().curlWantsTimer(milliseconds: milliseconds)
            return 0
        }
    }

    /// curl's socket callback: watch `socket` as `what` says, or stop watching it.
    private func curlWantsSocket(_ socket: curl_socket_t, what: Int32, known: Bool) {
        loop.assertOnIOThread()
        if what == CURL_POLL_REMOVE {
            poller.unwatch(socket)
            return
        }
        poller.watch(socket, read: what & CURL_POLL_IN != 0, write: what & CURL_POLL_OUT != 0, isNew: !known)
        if !known {
            // Any non-null marker: curl hands it back with the next call for this socket.
            _ = curl_multi_assign(multi, socket, UnsafeMutableRawPointer(bitPattern: 1))
        }
    }

    /// curl's timer callback: come back with `CURL_SOCKET_TIMEOUT` after `milliseconds` (-1: never).
    private func curlWantsTimer(milliseconds: Int) {
        loop.assertOnIOThread()
        timerDeadline = milliseconds < 0 ? nil : clock.now + .milliseconds(milliseconds)
    }

    /// Lets curl work on one ready socket (or on its timeouts).
    private func act(on socket: curl_socket_t, mask: Int32) {
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, socket, mask, &running)
    }

    /// How long the next wait may sleep: until curl's timer, at most `pollMilliseconds`.
    private func pollTimeout() -> Int32 {
        guard let deadline = timerDeadline else { return Self.pollMilliseconds }
        let remaining = deadline - clock.now
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(milliseconds, Int64(Self.pollMilliseconds)))
    }

    private func run(_ command: CurlLoopCommand) {
        switch command {
        case .start(let transfer, let continuation):
            start(transfer, continuation)
        case .cancel(let id):
            guard let state = active[id], !state.headDelivered else { return }
            end(state, with: state.transfer.error(.cancelled, "the request was cancelled"))
        case .abort(let id):
            guard let state = active[id] else { return }
            end(state, with: state.transfer.error(.cancelled, "the response body was abandoned"))
        case .resumeDownload(let id):
            guard let state = active[id] else { return }
            check(state, state.resumeReceiving())
        case .resumeUpload(let id):
            guard let state = active[id] else { return }
            check(state, state.resumeSending())
        }
    }

    private func start(_ transfer: CurlTransfer, _ continuation: SendContinuation) {
        if transfer.isCancelled {
            transfer.upload?.close()
            transfer.releaseToSend()
            continuation.resume(throwing: transfer.error(.cancelled, "the request was cancelled"))
            return
        }
        let easy: EasyHandle
        if let spare = spareHandles.popLast() {
            easy = spare
        } else {
            do {
                easy = try makeHandle()
            } catch {
                transfer.upload?.close()
                transfer.releaseToSend()
                continuation.resume(
                    throwing: transfer.error(
                        .cannotConnect, "curl could not set up a transfer handle: \(error.message)"))
                return
            }
        }
        let state = ActiveTransfer(transfer: transfer, easy: easy, loop: loop, waiter: .task(continuation))
        state.onHeadReady = headReady
        do throws(CurlOptionError) {
            guard let headerTails else { throw CurlOptionError(code: CURLE_OUT_OF_MEMORY, option: CURLOPT_HTTPHEADER) }
            try state.configure(decompression: loop.configuration.decompression, tails: headerTails)
        } catch {
            state.fail(transfer.error(.invalidRequest, error.message))
            return
        }
        let added = curl_multi_add_handle(multi, easy.raw)
        guard added == CURLM_OK else {
            state.fail(
                transfer.error(
                    .cannotConnect, "curl could not add the transfer: \(String(cString: curl_multi_strerror(added)))"))
            recycle(easy)
            return
        }
        state.isInLoop = true
        active[transfer.id] = state
    }

    /// Fails the transfer when un-pausing it made curl (or a callback it ran) report an error.
    private func check(_ state: ActiveTransfer, _ code: CURLcode) {
        guard code != CURLE_OK else { return }
        end(
            state,
            with: state.failure
                ?? CurlErrorMapping.error(for: code, on: state.easy, transfer: state.transfer))
    }

    /// Ends the transfers curl reports done; returns whether there were any.
    private func collectFinished() -> Bool {
        var finished = false
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            guard let state = ActiveTransfer.running(on: handle), remove(state) else { continue }
            state.complete(code)
            recycle(state.easy)
            finished = true
        }
        return finished
    }

    /// Busy-waits up to `spinLimit` on this thread (never on Swift's pool) for a command or a ready
    /// socket before the round ends in a sleeping wait; `true` when it found something to do.
    private func spinBeforeSleeping() -> Bool {
        let deadline = clock.now + Self.spinLimit
        repeat {
            if loop.hasPendingCommands { return true }
            poller.wait(milliseconds: 0, into: &readySockets)
            if !readySockets.isEmpty { return true }
        } while clock.now < deadline
        return false
    }

    /// Resumes the `send`s whose heads completed this round, after their bodies got what the round brought.
    private func handOverHeads() {
        guard !readyHeads.isEmpty else { return }
        for state in readyHeads { state.handOverHead(resumingIn: &resumes) }
        readyHeads.removeAll(keepingCapacity: true)
        resumes.flush()
    }

    /// Aborts a running transfer: removing an unfinished transfer makes curl close its connection.
    private func end(_ state: ActiveTransfer, with error: CourierError) {
        guard remove(state) else { return }
        state.fail(error)
        recycle(state.easy)
    }

    /// Takes a running transfer out of the multi handle; `false` when it was no longer running,
    /// so that an abort racing a completion cannot recycle the same easy handle twice.
    @discardableResult
    private func remove(_ state: ActiveTransfer) -> Bool {
        guard state.isInLoop else { return false }
        state.isInLoop = false
        loop.connectionsOpened.add(state.easy.info(CURLINFO_NUM_CONNECTS), ordering: .relaxed)
        _ = curl_multi_remove_handle(multi, state.easy.raw)
        active[state.transfer.id] = nil
        return true
    }

    /// A new handle with the transport's constant options and the callbacks set.
    private func makeHandle() throws(CurlOptionError) -> EasyHandle {
        let easy = try EasyHandle(configuration: loop.configuration)
        try ActiveTransfer.installCallbacks(on: easy)
        try installConnectionCallbacks(on: easy)
        return easy
    }

    /// Has curl tell this driver of each connection it opens with `easy` and of its closing, so
    /// the poller may keep an idle connection registered (see `SocketPoller`). A connection keeps
    /// the callbacks of the handle that opened it, and every handle of this multi has them.
    private func installConnectionCallbacks(on easy: EasyHandle) throws(CurlOptionError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_SOCKOPTDATA, pointer: me)
        try easy.set(
            sockopt: { me, socket, purpose in
                if let me, purpose == CURLSOCKTYPE_IPCXN {
                    Unmanaged<CurlLoopDriver>.fromOpaque(me).takeUnretainedValue().curlOpenedConnection(socket)
                }
                return ccurl_sockopt_ok
            })
        try easy.set(CURLOPT_CLOSESOCKETDATA, pointer: me)
        try easy.set(
            closeSocket: { me, socket in
                if let me {
                    Unmanaged<CurlLoopDriver>.fromOpaque(me).takeUnretainedValue().curlClosesConnection(socket)
                }
                return close(socket)
            })
    }

    private func curlOpenedConnection(_ socket: curl_socket_t) {
        loop.assertOnIOThread()
        poller.adoptConnection(socket)
    }

    private func curlClosesConnection(_ socket: curl_socket_t) {
        loop.assertOnIOThread()
        poller.connectionClosing(socket)
    }

    /// Keeps `easy`, with its constant options, for a later transfer if there is room; otherwise it
    /// is cleaned up once its transfer state is gone.
    private func recycle(_ easy: EasyHandle) {
        guard spareHandles.count < Self.spareHandleLimit else { return }
        spareHandles.append(easy)
    }
}
