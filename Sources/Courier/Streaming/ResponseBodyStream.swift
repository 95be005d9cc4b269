import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A response body arriving from the network: an async sequence of chunks, read once, with backpressure.
///
/// A transport creates one with `makeStream` and feeds it through the `Writer`. When more than
/// `highWatermark` bytes wait unread, `Writer.write` answers `.pause` and the transport stops
/// reading from the socket until `onResume` is called. If the consumer is cancelled, calls
/// `discard()`, drops its iterator (a `break` out of `for await`), or lets every copy of the
/// stream go unread,
/// `onAbort` is called once so the transport can cancel the transfer and release the connection.
///
/// Thread rules: the writer may be used from any thread (a transport's I/O thread);
/// `onResume` and `onAbort` are called on the consumer's task, never under a lock, and must not block.
public struct ResponseBodyStream: AsyncSequence, Sendable {
    public typealias Element = Data

    /// The body length announced by the server (`Content-Length`), when known.
    public let expectedLength: Int64?
    // Where the chunks come from; exactly one is set: a producer still writing, a body that was
    // complete before anyone read it (a small response that arrived with its head, read without
    // locks or waiting), or another stream read through a `ResponseBodyObserver`.
    // Three optionals rather than one enum with three class payloads: such an enum keeps its
    // case in the reference's spare bits, a pointer valgrind cannot follow, and valgrind reported
    // a complete body held that way as definitely lost in the C programs.
    private let live: ConsumerHandle?
    private let complete: CompleteBody?
    private let observedBody: ObservedBody?

    private init(
        expectedLength: Int64?, live: ConsumerHandle? = nil, complete: CompleteBody? = nil,
        observedBody: ObservedBody? = nil
    ) {
        self.expectedLength = expectedLength
        self.live = live
        self.complete = complete
        self.observedBody = observedBody
    }

    /// Creates a stream and the writer that feeds it.
    ///
    /// - Parameters:
    ///   - expectedLength: the announced length, if any.
    ///   - highWatermark: unread bytes above which the producer is asked to pause.
    ///   - lowWatermark: unread bytes at or below which a paused producer is resumed.
    ///   - onResume: called when a paused producer should produce again.
    ///   - onAbort: called once when the consumer abandons the body before its end.
    public static func makeStream(
        expectedLength: Int64? = nil,
        highWatermark: Int = 1024 * 1024,
        lowWatermark: Int = 256 * 1024,
        onResume: @escaping @Sendable () -> Void = {},
        onAbort: @escaping @Sendable () -> Void = {}
    ) -> (stream: ResponseBodyStream, writer: Writer) {
        let storage = Storage(
            buffer: ResponseBodyBuffer(highWatermark: highWatermark, lowWatermark: lowWatermark),
            onResume: onResume, onAbort: onAbort)
        return (
            ResponseBodyStream(expectedLength: expectedLength, live: ConsumerHandle(storage: storage)),
            Writer(storage: storage)
        )
    }

    /// A complete body of known bytes: for transports whose whole response arrived with its head,
    /// mock transports, and interceptors that answer on their own. It is read once, like any body,
    /// without locks or suspension.
    public init(_ data: Data) {
        self.init(expectedLength: Int64(data.count), complete: CompleteBody(data: data))
    }

    public func makeAsyncIterator() -> AsyncIterator {
        if let live { return AsyncIterator(reader: Reader(handle: live)) }
        if let observedBody { return AsyncIterator(observed: ObservedReader(body: observedBody)) }
        return AsyncIterator(complete: complete ?? CompleteBody(data: Data()))
    }

    /// Whether the whole body was there before anyone read it: no producer, no locks, no waiting.
    package var arrivedWhole: Bool { complete != nil }

    /// The exchange's complete measurements (``ResponseMetrics``), phases of the body and totals
    /// included, once the body has ended; `nil` before, or when the transport gave none.
    public var metrics: ResponseMetrics? {
        if let live { return live.storage.state.withLock { $0.metrics } }
        return observedBody?.inner.metrics
    }

    /// This body, read through `observer`: each chunk is shown to it as the reader takes it, and
    /// the end (or the failure, or the reader giving up) is reported once.
    ///
    /// Nothing is buffered or delayed: the reader still pulls from the original stream, with its
    /// backpressure, and dropping the observed stream aborts the transfer as before.
    package func observed(by observer: any ResponseBodyObserver) -> ResponseBodyStream {
        ResponseBodyStream(expectedLength: expectedLength, observedBody: ObservedBody(inner: self, observer: observer))
    }

    /// Gives up on the body: the transfer is aborted unless it already ended.
    ///
    /// Call it for a response you will not read, such as a failed attempt before a retry; dropping
    /// every copy of the response does the same, later.
    public func discard() {
        if let body = observedBody {
            body.inner.discard()
            body.end(with: CourierError(.cancelled, "the response body was discarded", source: "ResponseBodyStream"))
            return
        }
        guard let handle = live else { return }
        handle.storage.abandon(
            error: CourierError(.cancelled, "the response body was discarded", source: "ResponseBodyStream"))
    }

    /// Reads the whole body.
    ///
    /// - Throws: `limitExceeded` past `limit` bytes (the transfer is then aborted), or the error the body ended with.
    public func collect(upTo limit: Int64) async throws -> Data {
        if let body = complete { return try Self.claim(body, upTo: limit) }
        var data = Data()
        if let expectedLength, expectedLength <= limit { data.reserveCapacity(Int(expectedLength)) }
        for try await chunk in self {
            guard Int64(data.count) + Int64(chunk.count) <= limit else {
                discard()
                throw Self.tooLarge(limit)
            }
            data.append(chunk)
        }
        return data
    }

    /// A body the transport kept whole, within `limit`. Out of line, so that the frame `collect`
    /// holds while a streamed body arrives keeps none of it.
    @inline(never)
    private static func claim(_ body: CompleteBody, upTo limit: Int64) throws -> Data {
        let data = try body.claim()
        guard Int64(data.count) <= limit else { throw tooLarge(limit) }
        return data
    }

    /// The error for a body past `limit` bytes; also what a transport that keeps a body whole raises.
    package static func tooLarge(_ limit: Int64) -> CourierError {
        CourierError(
            .limitExceeded, "the response body is larger than the limit of \(limit) bytes",
            source: "Limits.maxBodyBytes")
    }

    /// Produces the body's chunks; dropping it before the end aborts the transfer.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let reader: Reader?
        private var complete: CompleteBody?
        private let observed: ObservedReader?

        fileprivate init(reader: Reader) {
            self.reader = reader
            complete = nil
            observed = nil
        }

        fileprivate init(complete: CompleteBody) {
            reader = nil
            self.complete = complete
            observed = nil
        }

        fileprivate init(observed: ObservedReader) {
            reader = nil
            complete = nil
            self.observed = observed
        }

        public mutating func next() async throws -> Data? {
            if let reader { return try await reader.next() }
            if let observed { return try await observed.next() }
            guard let body = complete else { return nil }
            complete = nil
            let data = try body.claim()
            return data.isEmpty ? nil : data
        }
    }

    /// Feeds a `ResponseBodyStream`; used by transports.
    public struct Writer: Sendable {
        fileprivate let storage: Storage

        /// What the producer should do after a write.
        public enum WriteResult: Sendable, Equatable {
            /// Keep writing.
            case produceMore
            /// Stop reading from the network until `onResume` is called.
            case pause
            /// Nobody will read the body: abort the transfer.
            case abort
        }

        /// Appends a chunk of the body.
        @discardableResult
        public func write(_ chunk: Data) -> WriteResult { storage.write(chunk) }

        /// Ends the body successfully.
        public func finish() { storage.finish(.finished, error: nil) }

        /// Ends the body successfully, with the exchange's complete measurements, which the stream
        /// then gives as ``ResponseBodyStream/metrics``.
        public func finish(metrics: ResponseMetrics) {
            storage.state.withLock { $0.metrics = metrics }
            storage.finish(.finished, error: nil)
        }

        /// Ends the body with an error the consumer will throw.
        public func fail(_ error: CourierError) { storage.finish(.failed(error.code), error: error) }
    }
}

extension ResponseBodyStream {
    /// A body that was whole before it was read: handed out once, to the first reader.
    fileprivate final class CompleteBody: Sendable {
        let data: Data
        private let claimed = Atomic(false)

        init(data: Data) {
            self.data = data
            // Publishes `data` to the reader's `exchange` whatever carried this object across
            // threads. ThreadSanitizer missed one hand-over, from the curl I/O thread to a C
            // callback pool's task (test_lifecycle); the pool's queue locks a pthread mutex it
            // sees, so the likely gap is a continuation resumed before its task suspended, which
            // the concurrency runtime orders with atomics it does not instrument. One release
            // store per body costs nothing next to the transfer.
            claimed.store(false, ordering: .releasing)
        }

        /// The bytes, for the first reader only; a body is read once.
        func claim() throws -> Data {
            guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else {
                throw CourierError(
                    .bodyNotReplayable, "a response body can be read only once", source: "ResponseBodyStream")
            }
            return data
        }
    }

    /// The shared state of one stream: the buffer, the waiting consumer, and the first failure.
    fileprivate final class Storage: Sendable {
        struct State {
            var buffer: ResponseBodyBuffer
            var waiter: CheckedContinuation<Data?, any Error>?
            var error: CourierError?
            var iteratorCreated = false
            /// The exchange's measurements, once the producer finished with them.
            var metrics: ResponseMetrics?
        }

        let state: Protected<State>
        let onResume: @Sendable () -> Void
        let onAbort: @Sendable () -> Void

        init(
            buffer: ResponseBodyBuffer, onResume: @escaping @Sendable () -> Void,
            onAbort: @escaping @Sendable () -> Void
        ) {
            state = Protected(State(buffer: buffer))
            self.onResume = onResume
            self.onAbort = onAbort
        }

        func write(_ chunk: Data) -> Writer.WriteResult {
            let (action, wake) = state.withLock {
                state -> (ResponseBodyBuffer.WriteAction, (CheckedContinuation<Data?, any Error>, Data)?) in
                let action = state.buffer.write(chunk)
                guard let waiter = state.waiter, case .deliver(let data, _) = state.buffer.read() else {
                    return (action, nil)
                }
                state.waiter = nil
                return (action, (waiter, data))
            }
            wake?.0.resume(returning: wake?.1)
            switch action {
            case .produceMore: return .produceMore
            case .pause: return .pause
            case .abort: return .abort
            }
        }

        func finish(_ outcome: ResponseBodyBuffer.Termination, error: CourierError?) {
            let wake = state.withLock {
                state -> (CheckedContinuation<Data?, any Error>, Result<Data?, CourierError>)? in
                guard state.buffer.termination == nil else { return nil }
                state.buffer.finish(outcome)
                state.error = error
                guard let waiter = state.waiter else { return nil }
                state.waiter = nil
                return (waiter, Self.result(of: state.buffer.read(), error: state.error))
            }
            if let (waiter, result) = wake { waiter.resume(with: result) }
        }

        func next() async throws -> Data? {
            if !Task.isCancelled, let ready = take(orPark: nil) { return try ready.get() }
            return try await withCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                    if let ready = take(orPark: continuation) { continuation.resume(with: ready) }
                }
            } onCancel: {
                abandon(
                    error: CourierError(
                        .cancelled, "reading the response body was cancelled", source: "ResponseBodyStream"))
            }
        }

        /// The next chunk, the end or the failure when one is already there; otherwise `nil`, with
        /// `continuation` (if given) parked until the producer writes or finishes.
        ///
        /// Called first without a continuation, so a body that arrived with its head is read without
        /// suspending or leaving the caller's executor.
        private func take(orPark continuation: CheckedContinuation<Data?, any Error>?) -> Result<Data?, CourierError>? {
            let (ready, resume) = state.withLock { state -> (Result<Data?, CourierError>?, Bool) in
                let action = state.buffer.read()
                switch action {
                case .wait:
                    if let continuation { state.waiter = continuation }
                    return (nil, false)
                case .deliver(_, let resume):
                    return (Self.result(of: action, error: state.error), resume)
                case .end, .fail:
                    return (Self.result(of: action, error: state.error), false)
                }
            }
            if resume { onResume() }
            return ready
        }

        /// The consumer is gone: fail a waiting read and tell the producer to abort, once.
        func abandon(error: CourierError) {
            let (mustAbort, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Data?, any Error>?) in
                let mustAbort = state.buffer.abandon()
                if mustAbort { state.error = error }
                let waiter = state.waiter
                state.waiter = nil
                return (mustAbort, waiter)
            }
            waiter?.resume(throwing: error)
            if mustAbort { onAbort() }
        }

        /// Marks the single iterator as created; a second one reads nothing but an error.
        func claimIterator() -> Bool {
            state.withLock { state in
                defer { state.iteratorCreated = true }
                return !state.iteratorCreated
            }
        }

        private static func result(
            of action: ResponseBodyBuffer.ReadAction, error: CourierError?
        ) -> Result<Data?, CourierError> {
            switch action {
            case .deliver(let data, _): .success(data)
            case .end: .success(nil)
            case .wait: .success(nil)
            case .fail:
                .failure(
                    error ?? CourierError(.invalidResponse, "the response body failed", source: "ResponseBodyStream"))
            }
        }
    }

    /// Held by every copy of the stream and by its iterator: when the last one goes away before the
    /// end of the body, the transfer is aborted.
    fileprivate final class ConsumerHandle: Sendable {
        let storage: Storage

        init(storage: Storage) { self.storage = storage }

        deinit {
            storage.abandon(
                error: CourierError(.cancelled, "the response body was abandoned", source: "ResponseBodyStream"))
        }
    }

    /// The consumer's side of one iteration; only the first iterator may read, and since a body is
    /// read once, dropping that iterator before the end (a `break` out of `for await`) aborts the transfer.
    fileprivate final class Reader: Sendable {
        let handle: ConsumerHandle
        let isFirst: Bool

        init(handle: ConsumerHandle) {
            self.handle = handle
            self.isFirst = handle.storage.claimIterator()
        }

        func next() async throws -> Data? {
            guard isFirst else {
                throw CourierError(
                    .bodyNotReplayable, "a response body can be read only once", source: "ResponseBodyStream")
            }
            return try await handle.storage.next()
        }

        deinit {
            if isFirst {
                handle.storage.abandon(
                    error: CourierError(
                        .cancelled, "the response body iterator was dropped", source: "ResponseBodyStream"))
            }
        }
    }
}
