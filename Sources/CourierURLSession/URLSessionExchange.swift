import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on `URLSessionTransport`: the delegate of its URLSession task, which returns the
/// head to `send` as soon as it arrives and streams the body into a `ResponseBodyStream`.
///
/// Its phases are one `URLSessionExchangeState` behind a lock; every callback turns into an event
/// and the action it returns is carried out after the lock is released. URLSession calls the
/// delegate on its delegate queue; `send`'s cancellation and the deadline come from other threads.
///
/// Backpressure: on Apple platforms the task is suspended while the body's reader is behind and
/// resumed when it catches up. FoundationNetworking cannot pause a transfer (its `suspend()`
/// takes the libcurl handle out of the session, which starts the transfer over when it is
/// resumed), so on Linux the body is read as fast as the server sends it.
final class URLSessionExchange: NSObject, URLSessionDataDelegate, Sendable {
    typealias Waiter = UnsafeContinuation<Response, any Error>
    typealias State = URLSessionExchangeState<Waiter, ResponseBodyStream.Writer>

    let request: Request
    private let context: TransportContext
    private let state = Protected(State.idle)
    private let task = Protected<URLSessionTask?>(nil)
    /// Fires at the total deadline; cancelled when the exchange ends.
    private let deadlineTimer = Protected<Task<Void, Never>?>(nil)
    /// Run once when the task has completed: removes a spooled upload, forgets the exchange.
    private let onEnd: @Sendable () -> Void
    /// Whether the server's certificate is trusted without verification (`TLSSettings.verifiesPeer`
    /// off), on the platforms that ask the delegate.
    private let trustsAnyServer: Bool
    /// Response body bytes received so far, for `TransportContext.downloadProgress` (FoundationNetworking
    /// does not keep the task's count up to date).
    private let received = Protected<Int64>(0)
    /// When the task was resumed and when its head arrived, for `ResponseMetrics`: URLSession's own
    /// per-phase metrics (`URLSessionTaskMetrics`) are not delivered by FoundationNetworking, so
    /// the body's transfer and the total are measured here and the other phases stay `nil`.
    private let moments = Protected<(started: ContinuousClock.Instant?, headArrived: ContinuousClock.Instant?)>(
        (nil, nil))
    /// URLSession's own measurements, where it delivers them (Apple platforms), before the task completes.
    private let collected = Protected<ResponseMetrics?>(nil)

    init(request: Request, context: TransportContext, trustsAnyServer: Bool, onEnd: @escaping @Sendable () -> Void) {
        self.request = request
        self.context = context
        self.trustsAnyServer = trustsAnyServer
        self.onEnd = onEnd
    }

    /// Starts `task`, which this exchange is the delegate of, and waits for the response head.
    func run(_ task: URLSessionTask) async throws -> Response {
        self.task.withLock { $0 = task }
        let timeout = context.totalTimeout(for: request)
        defer { ThreadSanitizerAnnotations.acquired(from: self) }
        return try await withCancellationHandler {
            try await withUnsafeThrowingContinuation { (waiter: Waiter) in
                state.withLock { $0.start(waiter) }
                if let timeout {
                    let timer = Task { [weak self] in
                        guard (try? await Task.sleep(for: timeout)) != nil else { return }
                        self?.interrupt(.timedOut)
                    }
                    deadlineTimer.withLock { $0 = timer }
                }
                let started = ContinuousClock.now
                moments.withLock { $0.started = started }
                task.resume()
                // A cancellation that came before the waiter was there found nothing to interrupt.
                if Task.isCancelled { interrupt(.cancelled) }
            }
        } onCancel: {
            interrupt(.cancelled)
        }
    }

    /// Ends the exchange early (cancellation, deadline): `send` or the body fails and the task is cancelled.
    func interrupt(_ failure: URLSessionExchangeFailure) {
        perform(state.withLock { $0.interrupted(failure) })
    }

    // MARK: URLSession's callbacks

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(.allow)
        guard let httpResponse = response as? HTTPURLResponse else {
            perform(state.withLock { $0.rejectedHead(.noResponse) })
            return
        }
        let head: URLSessionResponseHead
        do {
            head = try URLSessionResponseHead(httpResponse, method: request.method, limits: context.limits)
        } catch {
            perform(state.withLock { $0.rejectedHead(error) })
            return
        }
        let (stream, writer) = ResponseBodyStream.makeStream(
            expectedLength: head.expectedLength,
            onResume: { [weak self] in self?.resumeReading() },
            onAbort: { [weak self] in self?.bodyAbandoned() })
        let arrived = ContinuousClock.now
        moments.withLock { $0.headArrived = arrived }
        let action = state.withLock { $0.receivedHead(writer: writer) }
        guard case .returnHead(let waiter) = action else {
            perform(action)
            return
        }
        let received = Response(status: head.status, headerFields: head.fields, bodyStream: stream, request: request)
        ThreadSanitizerAnnotations.handingOver(from: self)
        waiter.resume(returning: received)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard case .write(let writer) = state.withLock({ $0.receivedData() }) else { return }
        let total = received.withLock { total in
            total += Int64(data.count)
            return total
        }
        if let progress = context.downloadProgress {
            let expected = dataTask.countOfBytesExpectedToReceive
            progress(total, expected > 0 ? expected : nil)
        }
        switch writer.write(data) {
        case .produceMore:
            break
        case .pause:
            pauseReading(dataTask)
        case .abort:
            bodyAbandoned()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let failure = error.map(URLSessionErrorMapping.failure(for:))
        perform(state.withLock { $0.completed(failure) })
        deadlineTimer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        self.task.withLock { $0 = nil }
        onEnd()
    }

    /// Called before `didCompleteWithError` where URLSession measures the task (not on Linux).
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        let read = URLSessionTaskMetricsReading.read(metrics)
        collected.withLock { $0 = read }
    }

    /// Courier's redirect stage follows redirects, the same way on every transport: URLSession
    /// hands the `3xx` back as the response.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        context.uploadProgress?(totalBytesSent, totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil)
    }

    /// Nothing Courier sends is put in a `URLCache`: caching is an interceptor's work.
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Courier's interceptors answer authentication; URLSession must hand a `401` back as it came.
    ///
    /// On Apple platforms the challenge comes with the head, and default handling (with no
    /// credential storage) delivers the `401`; with verification off (`TLSSettings.verifiesPeer`),
    /// any server certificate is accepted. FoundationNetworking asks only once the whole `401` was
    /// delivered, and never completes the task after default handling (an upstream bug), so there
    /// the body is ended here and the finished task cancelled.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(Darwin)
        if trustsAnyServer, challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let trust = challenge.protectionSpace.serverTrust
        {
            completionHandler(.useCredential, URLCredential(trust: trust))
        } else {
            completionHandler(.performDefaultHandling, nil)
        }
        #else
        perform(state.withLock { $0.completed(nil) })
        completionHandler(.cancelAuthenticationChallenge, nil)
        #endif
    }

    // MARK: Actions

    private func perform(_ action: State.Action) {
        let timeout = context.totalTimeout(for: request)
        switch action {
        case .none, .write:
            break
        case .returnHead:
            assertionFailure("only receivedHead returns it, and the head's callback carries it out")
        case .failSend(let waiter, let failure):
            ThreadSanitizerAnnotations.handingOver(from: self)
            waiter.resume(throwing: URLSessionErrorMapping.error(for: failure, request: request, timeout: timeout))
        case .failSendAndCancelTask(let waiter, let failure):
            cancelTask()
            ThreadSanitizerAnnotations.handingOver(from: self)
            waiter.resume(throwing: URLSessionErrorMapping.error(for: failure, request: request, timeout: timeout))
        case .finishBody(let writer):
            writer.finish(metrics: completedMetrics())
        case .failBody(let writer, let failure):
            writer.fail(URLSessionErrorMapping.error(for: failure, request: request, timeout: timeout))
        case .failBodyAndCancelTask(let writer, let failure):
            cancelTask()
            writer.fail(URLSessionErrorMapping.error(for: failure, request: request, timeout: timeout))
        case .cancelTask:
            cancelTask()
        }
    }

    /// The measurements of an exchange whose body has just ended.
    private func completedMetrics() -> ResponseMetrics {
        let now = ContinuousClock.now
        let (started, headArrived) = moments.withLock { $0 }
        var metrics = collected.withLock { $0 } ?? ResponseMetrics()
        if metrics.total == nil, let started { metrics.total = now - started }
        if metrics.bodyTransfer == nil, let headArrived { metrics.bodyTransfer = now - headArrived }
        if metrics.decodedBodyBytes == nil { metrics.decodedBodyBytes = received.withLock { $0 } }
        return metrics
    }

    private func cancelTask() {
        task.withLock { $0 }?.cancel()
    }

    private func bodyAbandoned() {
        perform(state.withLock { $0.bodyAbandoned() })
    }

    private func pauseReading(_ task: URLSessionTask) {
        #if canImport(Darwin)
        task.suspend()
        #endif
    }

    private func resumeReading() {
        #if canImport(Darwin)
        task.withLock { $0 }?.resume()
        #endif
    }
}
