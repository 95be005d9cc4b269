import Synchronization

/// Lets at most `maxConcurrentRequests` requests through at once, and at most
/// `maxConcurrentRequestsPerHost` to any one host; the rest wait their turn in arrival order.
///
/// A waiting request whose task is cancelled leaves the queue at once with `cancelled`. A slot is
/// held until the response head arrives from the stages after this one, so a streamed body read
/// later does not hold it; set `holdsSlotUntilBodyIsRead` to read the body (within
/// `Limits.maxBodyBytes`) before the slot is freed, counting downloads in full. The defaults are
/// OkHttp's: 64 in all, 5 per host.
///
/// Place it inside retry, so a retry waits for a slot like any request and a request waiting for
/// its backoff holds none.
public final class ConcurrencyLimitInterceptor: Interceptor {
    private struct State {
        var limiter: ConcurrencyLimiter
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Protected<State>

    /// The most requests in flight at once.
    public let maxConcurrentRequests: Int
    /// The most requests in flight to one host at once.
    public let maxConcurrentRequestsPerHost: Int

    /// Whether the response body is read before the slot is freed.
    public let holdsSlotUntilBodyIsRead: Bool

    /// Limits requests in flight to `maxConcurrentRequests` in all and `maxConcurrentRequestsPerHost` per host.
    public init(
        maxConcurrentRequests: Int = 64, maxConcurrentRequestsPerHost: Int = 5, holdsSlotUntilBodyIsRead: Bool = false
    ) {
        self.maxConcurrentRequests = max(1, maxConcurrentRequests)
        self.maxConcurrentRequestsPerHost = max(1, maxConcurrentRequestsPerHost)
        self.holdsSlotUntilBodyIsRead = holdsSlotUntilBodyIsRead
        self.state = Protected(
            State(
                limiter: ConcurrencyLimiter(
                    maxTotal: maxConcurrentRequests,
                    maxPerHost: maxConcurrentRequestsPerHost)))
    }

    /// How many requests wait for a slot now.
    public var waitingCount: Int { state.withLock { $0.limiter.waiting.count } }

    /// How many requests hold a slot now.
    public var runningCount: Int { state.withLock { $0.limiter.running } }

    public func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        let host = Self.host(of: request)
        try await acquire(host: host, request: request)
        defer { release(host: host) }
        let response = try await next(request)
        return holdsSlotUntilBodyIsRead
            ? try await response.collectingBody(upTo: context.limits.maxBodyBytes) : response
    }

    /// Waits for a slot for `request`, as `intercept` does, and returns the function that frees it:
    /// for a transport that holds the slot while a streamed body arrives, which an interceptor
    /// cannot without reading the body. Call the returned function exactly once.
    ///
    /// - Throws: `cancelled` when the task is cancelled while waiting.
    package func acquireSlot(for request: Request) async throws -> @Sendable () -> Void {
        let host = Self.host(of: request)
        try await acquire(host: host, request: request)
        return { [self] in release(host: host) }
    }

    /// The key requests are counted under per host: host and port (or scheme, when the URL has no port).
    private static func host(of request: Request) -> String {
        request.host.map { "\($0):\(request.port.map(String.init) ?? request.scheme ?? "")" } ?? ""
    }

    private func acquire(host: String, request: Request) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Bool? in
                    if Task.isCancelled { return nil }
                    if state.limiter.acquire(id: id, host: host) { return true }
                    state.waiters[id] = continuation
                    return false
                }
                switch outcome {
                case true?: continuation.resume()
                case nil: continuation.resume(throwing: Self.cancelled(request))
                case false?: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.limiter.cancel(id: id) ? state.waiters.removeValue(forKey: id) : nil
            }
            waiter?.resume(throwing: Self.cancelled(request))
        }
    }

    private func release(host: String) {
        let admitted = state.withLock { state in
            state.limiter.release(host: host).compactMap { state.waiters.removeValue(forKey: $0) }
        }
        for waiter in admitted { waiter.resume() }
    }

    private static func cancelled(_ request: Request) -> CourierError {
        CourierError(
            .cancelled, "the request was cancelled while waiting for a free slot",
            source: "ConcurrencyLimitInterceptor", request: request)
    }
}
