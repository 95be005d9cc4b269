import CCurl
import Courier
import Synchronization

/// One blocking caller's curl: a multi handle with its own connections and a recycled easy
/// handle, driven with `curl_multi_perform` and `curl_multi_poll` on the caller's thread.
///
/// Used by one thread at a time (taken from and returned to `CurlDrivenSessions`), so it needs no
/// lock; it keeps its connections between sends, so a thread that sends one request after
/// another reuses one connection, as a reused `curl_easy_perform` handle does.
final class CurlDrivenSession {
    private let multi: UnsafeMutableRawPointer
    private let tails: HeaderTails
    private var spare: EasyHandle?

    init?(configuration: CurlTransport.Configuration) {
        guard let multi = curl_multi_init() else { return nil }
        guard let tails = HeaderTails(userAgent: configuration.userAgent) else {
            curl_multi_cleanup(multi)
            return nil
        }
        self.multi = multi
        self.tails = tails
        // Idle connections kept: a caller's next request goes to the same few hosts.
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(1, min(configuration.maxIdleConnections, 4)))
    }

    deinit {
        spare = nil
        curl_multi_cleanup(multi)
    }

    /// Runs `transfer` to its end on this thread; returns the response with its body whole, or
    /// throws what the I/O thread's transfer would have thrown. Synchronous, as `curl_easy_perform`
    /// is: the calling task keeps its thread and job from the request to the response, and the
    /// outcome is read from the transfer rather than passed through a continuation.
    /// `shouldCancel`, when given, is asked while curl waits; `true` aborts with `cancelled`.
    func perform(
        _ transfer: CurlTransfer, loop: CurlLoop, bodyLimit: Int64, shouldCancel: (@Sendable () -> Bool)? = nil
    ) throws -> Response {
        let easy: EasyHandle
        if let spare {
            easy = spare
            self.spare = nil
        } else {
            do {
                easy = try EasyHandle(configuration: loop.configuration)
                try ActiveTransfer.installCallbacks(on: easy)
            } catch {
                transfer.upload?.close()
                throw transfer.error(.cannotConnect, "curl could not set up a transfer handle: \(error.message)")
            }
        }
        defer { spare = easy }
        let state = ActiveTransfer(
            transfer: transfer, easy: easy, loop: loop, waiter: .driver, bufferedBodyLimit: bodyLimit)
        do throws(CurlOptionError) {
            try state.configure(decompression: loop.configuration.decompression, tails: tails)
        } catch {
            state.fail(transfer.error(.invalidRequest, error.message))
            return try outcome(of: state)
        }
        let added = curl_multi_add_handle(multi, easy.raw)
        guard added == CURLM_OK else {
            state.fail(
                transfer.error(
                    .cannotConnect, "curl could not add the transfer: \(String(cString: curl_multi_strerror(added)))"))
            return try outcome(of: state)
        }
        let code = run(easy, shouldCancel: shouldCancel)
        loop.connectionsOpened.add(easy.info(CURLINFO_NUM_CONNECTS), ordering: .relaxed)
        _ = curl_multi_remove_handle(multi, easy.raw)
        guard let code else {
            state.fail(transfer.error(.cancelled, "the send was cancelled while it waited (its caller asked to stop)"))
            return try outcome(of: state)
        }
        state.complete(code)
        var noTasks = ResumeBatch()  // a driven transfer's waiter is its caller, never a task
        state.handOverHead(resumingIn: &noTasks)
        return try outcome(of: state)
    }

    /// What the transfer decided for `send`. Its end (`complete` and `handOverHead`, or `fail`)
    /// always decides, so a missing outcome is reported as a fault rather than trusted away.
    private func outcome(of state: ActiveTransfer) throws -> Response {
        guard let outcome = state.drivenOutcome else {
            throw state.transfer.error(.unknown, "the driven transfer ended without an outcome")
        }
        return try outcome.get()
    }

    /// Drives the multi handle until its one transfer is done; its result code, or `nil` when
    /// `shouldCancel` said to stop.
    private func run(_ easy: EasyHandle, shouldCancel: (@Sendable () -> Bool)?) -> CURLcode? {
        // With a check to ask, the wait is cut to 100 ms; a signal (EINTR) ends it at once either way.
        let longestWait: Int32 = shouldCancel == nil ? 1000 : 100
        let clock = ContinuousClock()
        var nextCheck = clock.now + .milliseconds(100)
        var running: Int32 = 1
        while true {
            let performed = curl_multi_perform(multi, &running)
            guard performed == CURLM_OK else { return CURLE_SEND_ERROR }
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                if message.pointee.msg == CURLMSG_DONE, message.pointee.easy_handle == easy.raw {
                    return message.pointee.data.result
                }
            }
            // curl's own timeout bounds the wait; it returns early when a socket is ready. The
            // check is asked after a wait in which none was (its time ran out, or a signal ended
            // it) and at least every 100 ms of a busy transfer, so a quick one never asks it.
            var ready: Int32 = 0
            _ = curl_multi_poll(multi, nil, 0, longestWait, &ready)
            if let shouldCancel, ready == 0 || clock.now >= nextCheck {
                if shouldCancel() { return nil }
                nextCheck = clock.now + .milliseconds(100)
            }
        }
    }
}

/// The driven sessions of one transport: taken by a blocking caller for one send and given back,
/// at most `limit` of them at once, so that blocking callers on many threads cannot open
/// connections without bound; each keeps its own connections between sends. None when the
/// transport limits its connections in total (`Configuration.maxConnections`): that limit holds
/// for every send only when every send goes through the I/O thread's multi handle.
final class CurlDrivenSessions: Sendable {
    private struct State {
        var idle: [CurlDrivenSessionBox] = []
        var made = 0
        var closed = false
    }

    private let state = Protected(State())
    private let configuration: CurlTransport.Configuration
    private let limit: Int

    init(configuration: CurlTransport.Configuration) {
        self.configuration = configuration
        // A limit on all connections must count every one of them, and a session's connections are
        // its own, out of the I/O thread's sight: with one, blocking sends go through the I/O thread.
        let perHost = configuration.maxConnectionsPerHost > 0 ? configuration.maxConnectionsPerHost : 8
        limit = configuration.maxConnections > 0 ? 0 : perHost
    }

    /// A session for this thread's send; `nil` when `limit` are in use or the transport shut down
    /// (the send then goes through the I/O thread, which queues it or refuses it).
    func take() -> CurlDrivenSession? {
        enum Taken { case idle(CurlDrivenSessionBox), make, none }
        let taken = state.withLock { state -> Taken in
            guard !state.closed else { return .none }
            if let box = state.idle.popLast() { return .idle(box) }
            guard state.made < limit else { return .none }
            state.made += 1
            return .make
        }
        switch taken {
        case .idle(let box):
            return box.session
        case .make:
            if let session = CurlDrivenSession(configuration: configuration) { return session }
            state.withLock { $0.made -= 1 }
            return nil
        case .none:
            return nil
        }
    }

    /// Gives `session` back for the next send; after `close()` it is freed instead.
    func giveBack(_ session: CurlDrivenSession) {
        let box = CurlDrivenSessionBox(session: session)
        state.withLock { state in
            if state.closed {
                state.made -= 1
            } else {
                state.idle.append(box)
            }
        }
    }

    /// Frees the idle sessions and their connections, and makes no more (the transport shut down).
    func close() {
        let closing = state.withLock { state -> [CurlDrivenSessionBox] in
            state.closed = true
            state.made -= state.idle.count
            defer { state.idle.removeAll() }
            return state.idle
        }
        withExtendedLifetime(closing) {}
    }
}

/// A session crossing the lock, used by one thread at a time and never concurrently (the
/// invariant that makes this box unchecked `Sendable`: a curl easy handle is not thread-safe).
struct CurlDrivenSessionBox: @unchecked Sendable {
    let session: CurlDrivenSession
}
