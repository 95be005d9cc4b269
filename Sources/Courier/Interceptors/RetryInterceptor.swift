public import HTTPTypes
import Logging

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Sends a request again after a transient failure: a connection error or a 408, 429, 500, 502,
/// 503 or 504, with exponential backoff and jitter, within a budget shared by the whole client.
///
/// What it will not do, on purpose:
/// - resend a method that is not idempotent (`POST`, `PATCH`), unless the request carries an
///   `Idempotency-Key` (set `addsIdempotencyKey` to add one to every `POST` and `PATCH`);
/// - resend a one-shot stream body: that fails with `bodyNotReplayable` instead of sending an
///   empty body, carrying the failed response or error;
/// - wait longer than `maxRetryAfter` when the server's `Retry-After` asks for more: the response
///   is returned as it is, since retrying earlier than asked only adds load;
/// - retry when the shared `RetryBudget` is spent, so an outage does not multiply traffic.
///
/// A retryable status counts whether it arrives as a response or as the `unacceptableStatus`
/// error of a `ValidationInterceptor` registered after this one.
///
/// Place it outside authentication and validation, so a retry reuses a refreshed credential.
public struct RetryInterceptor: Interceptor {
    /// What is retried, how often, and how long to wait.
    public struct Policy: Sendable {
        /// The most times a request is sent, the first time included.
        public var maxAttempts: Int = 3
        /// The wait between attempts when the server does not say.
        public var backoff = Backoff()
        /// The response statuses worth another attempt.
        public var retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
        /// The error codes worth another attempt: failures to connect or to get a whole response.
        public var retryableErrors: Set<CourierError.Code> = [.cannotConnect, .timedOut, .invalidResponse]
        /// The methods retried without an `Idempotency-Key`: the idempotent ones of RFC 9110 §9.2.2.
        public var idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace, .put, .delete]
        /// Whether `Retry-After` on a retryable response sets the wait instead of the backoff.
        public var honoursRetryAfter = true
        /// The longest `Retry-After` honoured; a longer one ends the retries.
        public var maxRetryAfter: Duration = .seconds(60)
        /// Whether a `POST` or `PATCH` without an `Idempotency-Key` gets a fresh one before its
        /// first attempt, the same key for every attempt, so it can be retried safely.
        public var addsIdempotencyKey = false

        /// The defaults: three attempts, 200 ms initial backoff with full jitter, `Retry-After` up to 60 s.
        public init() {}
    }

    /// Waits between attempts; replaced in tests to run without real time passing.
    public typealias Sleep = @Sendable (Duration) async throws -> Void

    /// The rules this interceptor applies.
    public let policy: Policy
    /// The token bucket every request through this interceptor shares.
    public let budget: RetryBudget
    private let sleep: Sleep
    private let random: @Sendable () -> Double
    private let now: @Sendable () -> Date

    /// Creates a retry interceptor.
    ///
    /// - Parameters:
    ///   - policy: what is retried, how often, and how long to wait between attempts.
    ///   - budget: shared by every request through this interceptor; pass one to share it wider.
    ///   - sleep: how to wait; `Task.sleep` unless a test injects a clock.
    ///   - random: a number in `0..<1` for jitter.
    ///   - now: the current time, to turn a `Retry-After` date into a wait.
    public init(
        policy: Policy = Policy(), budget: RetryBudget = RetryBudget(),
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.policy = policy
        self.budget = budget
        self.sleep = sleep
        self.random = random
        self.now = now
    }

    public func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        // The decisions between the awaits are synchronous functions kept out of line, so a send in
        // flight holds little in its frame (1,936 bytes when they were inline).
        let request = keyed(request)
        budget.deposit()
        var attempt = 1
        while true {
            let outcome: Result<Response, CourierError>
            do {
                outcome = .success(try await next(request))
            } catch let error as CourierError {
                outcome = .failure(error)
            }
            guard let wait = try retryWait(after: outcome, attempt: attempt, request: request, context: context) else {
                return try outcome.get()
            }
            if case .success(let response) = outcome { response.bodyStream?.discard() }
            Self.logRetry(after: outcome, attempt: attempt + 1, wait: wait, context: context)
            do {
                try await sleep(wait)
            } catch {
                throw Self.cancelledWhileWaiting(request)
            }
            attempt += 1
        }
    }

    /// `request` with an `Idempotency-Key` when the policy adds one to a `POST` or `PATCH` without.
    @inline(never)
    private func keyed(_ request: Request) -> Request {
        guard policy.addsIdempotencyKey, request.method == .post || request.method == .patch,
            request.headerFields[.idempotencyKey] == nil
        else { return request }
        var keyed = request
        keyed.headerFields[.idempotencyKey] = UUID().uuidString.lowercased()
        return keyed
    }

    private static func cancelledWhileWaiting(_ request: Request) -> CourierError {
        CourierError(.cancelled, "the request was cancelled while waiting to retry", request: request)
    }

    /// The debug line before a retry. Synchronous, so its metadata stays out of the frame a send
    /// in flight holds.
    private static func logRetry(
        after outcome: Result<Response, CourierError>, attempt: Int, wait: Duration, context: InterceptorContext
    ) {
        context.logger.debug(
            "retrying",
            metadata: [
                "request-id": "\(context.requestID)", "attempt": "\(attempt)",
                "after": "\(describe(outcome))", "wait": "\(wait)",
            ])
    }

    /// How long to wait before the next attempt, or `nil` to end with `outcome`.
    ///
    /// - Throws: `bodyNotReplayable` when a retry is due but the body cannot be sent again.
    @inline(never)  // its locals stay off the frame of `intercept`, which a send in flight holds
    func retryWait(
        after outcome: Result<Response, CourierError>, attempt: Int, request: Request,
        context: InterceptorContext
    ) throws -> Duration? {
        var serverWait: Duration?
        let response: Response?
        switch outcome {
        case .success(let received):
            response = received
        case .failure(let error) where error.code == .unacceptableStatus:
            response = error.response
        case .failure(let error):
            guard policy.retryableErrors.contains(error.code) else { return nil }
            response = nil
        }
        if let response {
            guard policy.retryableStatuses.contains(response.status.code) else { return nil }
            if policy.honoursRetryAfter, let value = response.headerFields[.retryAfter],
                let asked = RetryAfter.delay(value, now: now())
            {
                guard asked <= policy.maxRetryAfter else {
                    context.logger.debug(
                        "not retrying: Retry-After exceeds the cap",
                        metadata: [
                            "request-id": "\(context.requestID)", "retry-after": "\(value)",
                        ])
                    return nil
                }
                serverWait = asked
            }
        }
        guard attempt < policy.maxAttempts, isRetryable(request) else { return nil }
        if let body = request.body, !body.isReplayable {
            var error = CourierError(
                .bodyNotReplayable,
                "not retrying \(request.method) \(request.url.absoluteString) after \(Self.describe(outcome)): its body is a one-shot stream",
                source: "RetryInterceptor", request: request)
            switch outcome {
            case .success(let response):
                response.bodyStream?.discard()
                error.response = Response(
                    status: response.status, headerFields: response.headerFields, request: response.request)
            case .failure(let failure):
                error.underlying = failure
                error.response = failure.response
            }
            throw error
        }
        guard budget.withdraw() else {
            context.logger.debug(
                "not retrying: the retry budget is spent", metadata: ["request-id": "\(context.requestID)"])
            return nil
        }
        return serverWait ?? policy.backoff.delay(beforeRetry: attempt, random: random())
    }

    /// Whether `request` may be sent twice: an idempotent method, or an `Idempotency-Key`.
    func isRetryable(_ request: Request) -> Bool {
        policy.idempotentMethods.contains(request.method) || request.headerFields[.idempotencyKey] != nil
    }

    private static func describe(_ outcome: Result<Response, CourierError>) -> String {
        switch outcome {
        case .success(let response): "status \(response.status.code)"
        case .failure(let error): "\(error.code)"
        }
    }
}
