import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOHTTPCompression
import Synchronization

/// One exchange over AsyncHTTPClient's delegate API: receives the head and body on the task's
/// event loop, resumes `send` once, and feeds the body into a `ResponseBodyStream`.
///
/// Why the delegate API rather than `execute(_:deadline:)` and its body sequence: the body then
/// needs a task of its own to pull it into the stream, and AsyncHTTPClient's deadline ends at
/// the head, so the total timeout needed a second timer per request. Here the body is written
/// where it arrives, with AsyncHTTPClient's backpressure (a part's future completes when the
/// reader has drained the stream), and AsyncHTTPClient's one deadline covers the whole exchange.
///
/// The head is handed over after the rest of its read (`ExchangeState`): a small body arrives
/// whole with it. Cancelling `send` while it waits, or abandoning the body, cancels the
/// AsyncHTTPClient task, which closes the connection.
final class ExchangeDelegate: HTTPClientResponseDelegate {
    typealias Response = Void
    /// Unsafe rather than checked: a checked continuation allocates its canary on every send,
    /// and `ExchangeState`'s phases already answer each send exactly once.
    typealias Waiter = UnsafeContinuation<Courier.Response, any Error>
    private typealias State = ExchangeState<
        Waiter, ResponseHead, ResponseBodyStream,
        ResponseBodyStream.Writer, EventLoopPromise<Void>
    >

    private struct Locked {
        var exchange: State?
        /// AsyncHTTPClient's task, once `execute` returned it.
        var task: HTTPClient.Task<Void>?
        /// `send` was cancelled; a task attached later is cancelled at once.
        var cancelled = false
        /// The body length the reader will see, once the head said it.
        var expectedLength: Int64?
        var received: Int64 = 0
        var sent: Int64 = 0
        /// The moments AsyncHTTPClient reported, for `ResponseMetrics`.
        var clock = ExchangeClock()
    }

    /// When each step of the exchange happened, as AsyncHTTPClient's delegate calls tell it.
    ///
    /// AsyncHTTPClient does not say when it was waiting for a connection or connecting, so the
    /// time before the request head went out is not split into `queued`, `dns`, `connect` and
    /// `tls`: they stay `nil`. Sending, waiting, receiving and the total are measured.
    struct ExchangeClock {
        /// `MonotonicClock` readings in nanoseconds; -1 for a step not reached yet.
        var started = MonotonicClock.now()
        var headSent: Int64 = -1
        var requestSent: Int64 = -1
        var headArrived: Int64 = -1
        var finished: Int64 = -1
        var httpVersion: (major: Int, minor: Int)?

        func metrics(decodedBodyBytes: Int64?) -> ResponseMetrics {
            var metrics = ResponseMetrics()
            metrics.record(.requestSent, nanoseconds: Self.between(headSent, requestSent))
            metrics.record(.waiting, nanoseconds: Self.between(requestSent, headArrived))
            if headArrived >= 0, finished >= 0 {
                metrics.record(.bodyTransfer, nanoseconds: Self.between(headArrived, finished))
                metrics.record(.total, nanoseconds: Self.between(started, finished))
                metrics.decodedBodyBytes = decodedBodyBytes
            }
            if let httpVersion { metrics.recordHTTPVersion(major: httpVersion.major, minor: httpVersion.minor) }
            return metrics
        }

        /// The time from `start` to `end`, -1 when either step was not reached.
        private static func between(_ start: Int64, _ end: Int64) -> Int64 {
            start >= 0 && end >= start ? end - start : -1
        }
    }

    private let request: Request
    private let limits: Limits
    private let decompresses: Bool
    private let deadline: NIODeadline?
    private let uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)?
    private let downloadProgress: (@Sendable (_ received: Int64, _ total: Int64?) -> Void)?
    private let uploadTotal: Int64?
    private let locked = Protected(Locked())
    private let counted: ExchangeCount

    init(
        request: Request, context: TransportContext, decompresses: Bool, deadline: NIODeadline?,
        counted: ExchangeCount
    ) {
        self.counted = counted
        counted.value.add(1, ordering: .relaxed)
        self.request = request
        self.limits = context.limits
        self.decompresses = decompresses
        self.deadline = deadline
        self.uploadProgress = context.uploadProgress
        self.downloadProgress = context.downloadProgress
        self.uploadTotal = request.body?.contentLength
    }

    deinit {
        counted.value.subtract(1, ordering: .relaxed)
    }

    /// `send` waits on `waiter` from now on; called before the exchange starts.
    func start(_ waiter: Waiter) {
        locked.withLock { $0.exchange = State(waiter: waiter) }
    }

    /// Keeps AsyncHTTPClient's task, cancelling it at once when `send` was cancelled first.
    func attach(_ task: HTTPClient.Task<Void>) {
        let cancelled = locked.withLock { locked in
            locked.task = task
            return locked.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// `send` was cancelled while it waited.
    func cancel() {
        let task = locked.withLock { locked in
            locked.cancelled = true
            return locked.task
        }
        task?.cancel()
    }

    // MARK: AsyncHTTPClient's calls, on the task's event loop

    func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
        let now = MonotonicClock.now()
        locked.withLock { $0.clock.headSent = now }
    }

    func didSendRequest(task: HTTPClient.Task<Void>) {
        let now = MonotonicClock.now()
        locked.withLock { $0.clock.requestSent = now }
    }

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        guard let uploadProgress else { return }
        let sent = locked.withLock { locked in
            locked.sent += Int64(part.readableBytes)
            return locked.sent
        }
        uploadProgress(sent, uploadTotal)
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let converted: ResponseHead
        do {
            converted = try ResponseHead(
                head, method: request.method, limits: limits, decompresses: decompresses, request: request)
        } catch {
            // Failing the future makes AsyncHTTPClient close the connection; `send` throws this error.
            fail(with: error)
            return task.eventLoop.makeFailedFuture(error)
        }
        let now = MonotonicClock.now()
        let action = locked.withLock { locked in
            locked.expectedLength = converted.expectedLength
            locked.clock.headArrived = now
            locked.clock.httpVersion = (head.version.major, head.version.minor)
            return locked.exchange?.headArrived(converted)
        }
        switch action {
        case .scheduleHandOver?:
            task.eventLoop.execute { self.handOver() }
            return task.eventLoop.makeSucceededVoidFuture()
        case .refuse?, nil:
            return task.eventLoop.makeFailedFuture(HTTPClientError.cancelled)
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let (action, received, total) = locked.withLock { locked in
            locked.received += Int64(buffer.readableBytes)
            let action = locked.exchange?.bodyArrived { $0.append(contentsOf: buffer.readableBytesView) }
            return (action, locked.received, locked.expectedLength)
        }
        downloadProgress?(received, total)
        switch action {
        case .buffered?:
            return task.eventLoop.makeSucceededVoidFuture()
        case .refuse?, nil:
            return task.eventLoop.makeFailedFuture(HTTPClientError.cancelled)
        case .write(let writer)?:
            // Small reads are copied, large ones wrapped (SwiftNIO's `.automatic`): wrapping every
            // small read would let a slow reader's buffered megabyte pin far larger socket buffers.
            switch writer.write(Data(buffer: buffer, byteTransferStrategy: .automatic)) {
            case .produceMore:
                return task.eventLoop.makeSucceededVoidFuture()
            case .abort:
                return task.eventLoop.makeFailedFuture(HTTPClientError.cancelled)
            case .pause:
                let gate = task.eventLoop.makePromise(of: Void.self)
                let action = locked.withLock { $0.exchange?.paused(on: gate) }
                if case .wait? = action { return gate.futureResult }
                gate.succeed()
                return gate.futureResult
            }
        }
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        let now = MonotonicClock.now()
        locked.withLock { $0.clock.finished = now }
        finish()
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        let received = locked.withLock { $0.received }
        if let error = error as? NIOHTTPDecompression.ExtraDecompressionError, error == .truncatedData, received == 0 {
            // SwiftNIO's decompressor fails an empty body (a HEAD, 204 or 304 reply, or
            // `Content-Length: 0`) labelled `gzip` or `deflate` as truncated; like curl, take it as
            // the empty body it is.
            finish()
            return
        }
        fail(with: error)
    }

    // MARK: The consumer's calls, on its task

    /// The reader drained the stream: let a waiting body part through.
    private func resumed() {
        locked.withLock { $0.exchange?.resumed() }?.succeed()
    }

    /// The reader abandoned the body: cancel the exchange, which closes the connection.
    private func abandoned() {
        let (action, task) = locked.withLock { locked in
            (locked.exchange?.abandoned(), locked.task)
        }
        guard case .cancel(let gate)? = action else { return }
        gate?.fail(HTTPClientError.cancelled)
        task?.cancel()
    }

    // MARK: Acting on the exchange's state

    /// Resumes `send` with the head, and the body whole or streaming.
    private func handOver() {
        let handOver = locked.withLock { locked in
            let expectedLength = locked.expectedLength
            return locked.exchange?.handOver {
                // Weak: AsyncHTTPClient keeps the delegate until the exchange ends, and after that
                // a resumed or abandoned body has nothing left to tell it.
                ResponseBodyStream.makeStream(
                    expectedLength: expectedLength,
                    onResume: { [weak self] in self?.resumed() },
                    onAbort: { [weak self] in self?.abandoned() })
            }
        }
        if handOver != nil { ThreadSanitizerAnnotations.handingOver(from: self) }
        switch handOver {
        case nil:
            return
        case .whole(let waiter, let head, let body)?:
            waiter.resume(returning: response(head, body: ResponseBodyStream(Data(body))))
        case .streaming(let waiter, let head, let stream, let writer, let held)?:
            if !held.isEmpty { _ = writer.write(Data(held)) }
            waiter.resume(returning: response(head, body: stream))
        case .failing(let waiter, let head, let stream, let writer, let held, let failure)?:
            if !held.isEmpty { _ = writer.write(Data(held)) }
            writer.fail(bodyError(failure.error))
            waiter.resume(returning: response(head, body: stream))
        }
    }

    private func finish() {
        let (action, metrics) = locked.withLock { locked in
            (locked.exchange?.ended(), locked.clock.metrics(decodedBodyBytes: locked.received))
        }
        switch action {
        case .finish(let writer)?:
            writer.finish(metrics: metrics)
        case .missingHead(let waiter)?:
            ThreadSanitizerAnnotations.handingOver(from: self)
            waiter.resume(
                throwing: CourierError(
                    .invalidResponse, "AsyncHTTPClient ended the exchange without a response head",
                    source: "AsyncHTTPClientTransport", request: request))
        case .none?, nil:
            break
        }
    }

    private func fail(with error: any Error) {
        let (action, cancelled) = locked.withLock { locked in
            (locked.exchange?.failed(State.Failure(error: error)), locked.cancelled)
        }
        switch action {
        case .failWaiter(let waiter)?:
            ThreadSanitizerAnnotations.handingOver(from: self)
            waiter.resume(throwing: headError(error, cancelled: cancelled))
        case .failWriter(let writer, let gate)?:
            writer.fail(bodyError(error))
            gate?.fail(error)
        case .none?, nil:
            break
        }
    }

    private func response(_ head: ResponseHead, body: ResponseBodyStream) -> Courier.Response {
        var response = Courier.Response(
            status: head.status, headerFields: head.fields, bodyStream: body, request: request)
        response.metrics = locked.withLock { $0.clock.metrics(decodedBodyBytes: $0.received) }
        return response
    }

    /// A failure before the head: cancellation of `send` and a passed deadline win over whatever
    /// error they caused (AsyncHTTPClient reports a request cancelled while it waited for a
    /// connection with the last connection error).
    private func headError(_ error: any Error, cancelled: Bool) -> CourierError {
        if cancelled, !(error is CourierError) {
            return CourierError(
                .cancelled, "the request was cancelled", source: "AsyncHTTPClientTransport", request: request,
                underlying: error)
        }
        return CourierError(mapping: error, request: request, deadline: deadline)
    }

    /// A failure while the body arrived.
    private func bodyError(_ error: any Error) -> CourierError {
        if let deadline, NIODeadline.now() >= deadline || error as? HTTPClientError == .deadlineExceeded {
            return CourierError(
                .timedOut, "the total timeout passed while the response body was arriving",
                source: "AsyncHTTPClientTransport", request: request, underlying: error)
        }
        return CourierError(mapping: error, request: request, deadline: nil)
    }
}
