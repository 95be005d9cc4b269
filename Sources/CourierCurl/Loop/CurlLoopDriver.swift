import CCurl
import Courier
import Synchronization

/// The body of the I/O thread: one curl multi handle, the transfers on it, and a loop of
/// commands → `curl_multi_perform` → finished transfers → `curl_multi_poll`.
///
/// Everything here runs on that one thread; curl's callbacks run inside `curl_multi_perform` and
/// `curl_easy_pause`, so the transfers' state needs no locks. Connections live in the multi handle's
/// pool and are reused by later transfers; easy handles are recycled through a short free list.
final class CurlLoopDriver {
    private static let spareHandleLimit = 32
    private static let pollMilliseconds: Int32 = 1000
    /// How long the thread busy-waits for a command or a ready socket before sleeping in `curl_multi_poll`,
    /// while transfers are running or one just ended. Sleeping and being woken costs tens of microseconds
    /// on a virtual machine; a loopback round trip or the caller's next request often comes sooner.
    private static let spinLimit: Duration = .microseconds(100)

    private let loop: CurlLoop
    private let multi: UnsafeMutableRawPointer
    private var active: [UInt64: TransferState] = [:]
    private var byHandle: [UnsafeMutableRawPointer: TransferState] = [:]
    private var spareHandles: [EasyHandle] = []
    /// Transfers whose head completed during this round; `send` gets them once the round is over.
    private var readyHeads: [TransferState] = []
    private lazy var headReady: (TransferState) -> Void = { [unowned self] state in readyHeads.append(state) }

    init(loop: CurlLoop, multi: UnsafeMutableRawPointer) {
        self.loop = loop
        self.multi = multi
    }

    func run() {
        while true {
            for command in loop.takeCommands() { run(command) }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            let finished = collectFinished()
            handOverHeads()
            if finished || !active.isEmpty { spinBeforeSleeping() }
            switch loop.nextStep(activeTransfers: active.count) {
            case .work:
                continue
            case .poll:
                _ = curl_multi_poll(multi, nil, 0, Self.pollMilliseconds, nil)
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

    private func run(_ command: CurlCommand) {
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

    private func start(_ transfer: CurlTransfer, _ continuation: CheckedContinuation<Response, any Error>) {
        if transfer.isCancelled {
            transfer.upload?.close()
            continuation.resume(throwing: transfer.error(.cancelled, "the request was cancelled"))
            return
        }
        guard let easy = spareHandles.popLast() ?? EasyHandle() else {
            transfer.upload?.close()
            continuation.resume(throwing: transfer.error(.cannotConnect, "curl could not create a transfer handle"))
            return
        }
        let state = TransferState(transfer: transfer, easy: easy, loop: loop, continuation: continuation)
        state.onHeadReady = headReady
        do {
            try state.configure(with: loop.configuration)
        } catch {
            state.fail(transfer.error(.invalidRequest, error.message))
            recycle(easy)
            return
        }
        let added = curl_multi_add_handle(multi, easy.raw)
        guard added == CURLM_OK else {
            state.fail(transfer.error(.cannotConnect, "curl could not add the transfer: \(String(cString: curl_multi_strerror(added)))"))
            recycle(easy)
            return
        }
        active[transfer.id] = state
        byHandle[easy.raw] = state
    }

    /// Fails the transfer when un-pausing it made curl (or a callback it ran) report an error.
    private func check(_ state: TransferState, _ code: CURLcode) {
        guard code != CURLE_OK else { return }
        end(state, with: state.failure ?? CurlErrorMapping.error(for: code, detail: state.easy.errorDetail,
                                                                 transfer: state.transfer))
    }

    /// Ends the transfers curl reports done; returns whether there were any.
    private func collectFinished() -> Bool {
        var finished = false
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            guard let state = byHandle[handle], remove(state) else { continue }
            state.complete(code)
            recycle(state.easy)
            finished = true
        }
        return finished
    }

    /// Busy-waits up to `spinLimit` on this thread (never on Swift's pool) for a command, or for a
    /// socket to become ready, before the round ends in `curl_multi_poll`; returns early when a command is queued (no `curl_multi_wakeup` needed then) or a socket is ready.
    private func spinBeforeSleeping() {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.spinLimit
        repeat {
            if loop.hasPendingCommands { return }
            var ready: Int32 = 0
            _ = curl_multi_wait(multi, nil, 0, 0, &ready)
            if ready > 0 { return }
        } while clock.now < deadline
    }

    /// Resumes the `send`s whose heads completed this round, after their bodies got what the round brought.
    private func handOverHeads() {
        guard !readyHeads.isEmpty else { return }
        for state in readyHeads { state.handOverHead() }
        readyHeads.removeAll(keepingCapacity: true)
    }

    /// Aborts a running transfer: removing an unfinished transfer makes curl close its connection.
    private func end(_ state: TransferState, with error: CourierError) {
        guard remove(state) else { return }
        state.fail(error)
        recycle(state.easy)
    }

    /// Takes a running transfer out of the multi handle; `false` when it was no longer running,
    /// so that an abort racing a completion cannot recycle the same easy handle twice.
    @discardableResult
    private func remove(_ state: TransferState) -> Bool {
        guard byHandle[state.easy.raw] === state else { return false }
        loop.connectionsOpened.add(state.easy.info(CURLINFO_NUM_CONNECTS), ordering: .relaxed)
        _ = curl_multi_remove_handle(multi, state.easy.raw)
        active[state.transfer.id] = nil
        byHandle[state.easy.raw] = nil
        return true
    }

    /// Keeps `easy` for a later transfer if there is room and libcurl would accept a new transfer's
    /// options on it; otherwise it is cleaned up once its transfer state is gone.
    private func recycle(_ easy: EasyHandle) {
        guard spareHandles.count < Self.spareHandleLimit,
              easy.resetForReuse(receiveBufferSize: loop.configuration.receiveBufferSize) else { return }
        spareHandles.append(easy)
    }
}
