import HTTPTypes
import Logging
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Applies a credential to every request and, when the server refuses it (401 by default),
/// refreshes it once for every request that failed together, then retries them with the new one.
///
/// Refreshing is single-flight: N requests refused at the same moment cause one call to
/// `refresh`; a request refused with a credential that has since been replaced simply retries
/// with the new one, and a request that starts while a refresh runs waits for it. A request is
/// retried at most once, so a server that refuses every credential gets two attempts, not a loop.
/// Refreshes are limited to `maxRefreshes` per `refreshWindow`, measured on the clock the
/// interceptor is given, so a server that always answers 401 cannot make the client hammer the
/// token endpoint. A request cancelled while it waits for a refresh leaves at once; the refresh
/// goes on for the others and for later requests.
///
/// ```swift
/// let auth = AuthenticationInterceptor.bearer(token: storedToken) { _ in try await tokenStore.renew() }
/// ```
///
/// A failed or rate-limited refresh throws `authenticationFailed` carrying the refused response
/// and, as `underlying`, the refresh's error. A refusal counts whether it arrives as a response or
/// as the `unacceptableStatus` error of a `ValidationInterceptor` registered after this one.
/// Place it inside `RetryInterceptor`, so a retried request carries the refreshed credential.
public final class AuthenticationInterceptor<Credential: Sendable>: Interceptor {
    /// Puts a credential on a request.
    public typealias Apply = @Sendable (Credential, inout Request) throws -> Void
    /// Obtains a new credential, given the one that was refused (`nil` before the first).
    public typealias Refresh = @Sendable (Credential?) async throws -> Credential

    /// When a refresh is due and how often one may happen.
    public struct Policy: Sendable {
        /// The statuses that mean "the credential was refused".
        public var refreshStatuses: Set<Int> = [401]
        /// The most refreshes in any `refreshWindow`.
        public var maxRefreshes = 3
        /// The window `maxRefreshes` applies to.
        public var refreshWindow: Duration = .seconds(30)

        /// The defaults: refresh on 401, at most three times in 30 seconds.
        public init() {}
    }

    /// What a request about to be sent does for its credential.
    private enum SendStep {
        case ready(Credential, Int)
        case wait(SharedTask<Credential>, Int)
        case first(Int)
    }

    /// What a refused request does for a newer credential.
    private enum RefreshStep {
        case ready(Credential)
        case wait(SharedTask<Credential>)
        case limited
    }

    private struct State {
        var credential: Credential?
        var generation = 0
        var refreshing: SharedTask<Credential>?
        /// When the recent refreshes started, as time since the interceptor was made.
        var recentRefreshes: [Duration] = []
    }

    /// `AuthenticationInterceptor`, without the credential type, in errors and explanations.
    public var name: String { "AuthenticationInterceptor" }
    /// The rules for refreshing.
    public let policy: Policy
    private let apply: Apply
    private let refresh: Refresh
    /// Time since the interceptor was made, on its clock: what `refreshWindow` is measured in.
    private let elapsed: @Sendable () -> Duration
    private let state: Protected<State>

    /// Creates an interceptor that starts with `credential` (or refreshes before the first
    /// request when it is `nil`), puts it on requests with `apply`, and renews it with `refresh`.
    ///
    /// - Parameters:
    ///   - credential: the credential to start with; `nil` obtains one before the first request.
    ///   - policy: when to refresh and how often at most.
    ///   - clock: what `policy.refreshWindow` is measured on; a test passes one it advances by hand.
    ///   - apply: puts the credential on a request.
    ///   - refresh: obtains a new credential, given the refused one.
    public init(
        credential: Credential?, policy: Policy = Policy(), clock: some Clock<Duration> = ContinuousClock(),
        apply: @escaping Apply, refresh: @escaping Refresh
    ) {
        self.policy = policy
        self.apply = apply
        self.refresh = refresh
        let start = clock.now
        self.elapsed = { start.duration(to: clock.now) }
        self.state = Protected(State(credential: credential))
    }

    /// The credential requests are sent with now, if there is one.
    public var credential: Credential? { state.withLock { $0.credential } }

    /// How many refreshes have completed successfully.
    public var refreshCount: Int { state.withLock { $0.generation } }

    public func intercept(_ request: Request, context: InterceptorContext, next: Next) async throws -> Response {
        // What happens between the awaits is in synchronous functions, so a send in flight holds
        // little in its frame (1,248 bytes when it was inline).
        let (credential, generation) = try await current(for: request)
        let response: Response
        do {
            response = try await next(try authenticated(request, with: credential))
        } catch {
            response = try refusedResponse(in: error)
        }
        guard let refused = refusal(in: response) else { return response }
        let renewed = try await renewedCredential(after: generation, refused: refused)
        return try await next(try retry(of: request, with: renewed, refused: refused, context: context))
    }

    private func authenticated(_ request: Request, with credential: Credential) throws -> Request {
        var authenticated = request
        try apply(credential, &authenticated)
        return authenticated
    }

    /// The response carried by an `unacceptableStatus` error whose status asks for a refresh (a
    /// validation stage inside this one); any other error is thrown on.
    private func refusedResponse(in error: any Error) throws -> Response {
        guard let error = error as? CourierError, error.code == .unacceptableStatus else { throw error }
        guard let refused = error.response, policy.refreshStatuses.contains(refused.status.code) else { throw error }
        return refused
    }

    /// The head of a response whose status asks for a refresh, its body discarded; `nil` for any
    /// other response, which is the answer.
    private func refusal(in response: Response) -> Response? {
        guard policy.refreshStatuses.contains(response.status.code) else { return nil }
        response.bodyStream?.discard()
        return Response(status: response.status, headerFields: response.headerFields, request: response.request)
    }

    /// `request` again with the renewed credential; throws when its body cannot be sent twice.
    private func retry(
        of request: Request, with renewed: Credential, refused: Response, context: InterceptorContext
    ) throws -> Request {
        if let body = request.body, !body.isReplayable {
            throw CourierError(
                .bodyNotReplayable,
                "the credential was refreshed, but \(request.method) \(request.url.absoluteString) cannot be resent: its body is a one-shot stream",
                source: name, request: request, response: refused)
        }
        var retried = request
        try apply(renewed, &retried)
        context.logger.debug("retrying with a refreshed credential", metadata: ["request-id": "\(context.requestID)"])
        return retried
    }

    /// The credential to send with, waiting for a refresh under way or obtaining the first one.
    private func current(for request: Request) async throws -> (Credential, Int) {
        let step = state.withLock { state -> SendStep in
            if let refreshing = state.refreshing, refreshing.join() { return .wait(refreshing, state.generation) }
            if let credential = state.credential { return .ready(credential, state.generation) }
            return .first(state.generation)
        }
        switch step {
        case .ready(let credential, let generation):
            return (credential, generation)
        case .wait(let task, let generation):
            let credential = try await Self.outcome(of: task, request: request, refused: nil)
            return (credential, generation + 1)
        case .first(let generation):
            let credential = try await renewedCredential(after: generation - 1, refused: nil, request: request)
            return (credential, state.withLock { $0.generation })
        }
    }

    /// A credential newer than `generation`: the one a concurrent refresh already produced, the
    /// one a refresh under way will produce, or the result of a new refresh.
    private func renewedCredential(
        after generation: Int, refused: Response?, request: Request? = nil
    ) async throws -> Credential {
        let failingRequest = refused?.request ?? request
        let now = elapsed()
        let step = state.withLock { state -> RefreshStep in
            if state.generation > generation, let credential = state.credential { return .ready(credential) }
            if let refreshing = state.refreshing, refreshing.join() { return .wait(refreshing) }
            state.recentRefreshes.removeAll { now - $0 >= policy.refreshWindow }
            guard state.recentRefreshes.count < policy.maxRefreshes else { return .limited }
            state.recentRefreshes.append(now)
            let stale = state.credential
            let task = SharedTask<Credential>(cancelsWhenAbandoned: false) { [refresh, self] in
                do {
                    let renewed = try await refresh(stale)
                    self.state.withLock { state in
                        state.credential = renewed
                        state.generation += 1
                        state.refreshing = nil
                    }
                    return renewed
                } catch {
                    self.state.withLock { $0.refreshing = nil }
                    throw error
                }
            }
            state.refreshing = task
            return .wait(task)
        }
        switch step {
        case .ready(let credential):
            return credential
        case .wait(let task):
            return try await Self.outcome(of: task, request: failingRequest, refused: refused)
        case .limited:
            throw CourierError(
                .authenticationFailed,
                "the credential was refused and already refreshed \(policy.maxRefreshes) times in \(policy.refreshWindow)",
                source: name, request: failingRequest, response: refused)
        }
    }

    /// The refresh's credential, for a member of it; a waiter whose task is cancelled leaves at
    /// once with `cancelled` while the refresh goes on for the others.
    private static func outcome(
        of task: SharedTask<Credential>, request: Request?, refused: Response?
    ) async throws -> Credential {
        do {
            return try await task.value()
        } catch is CancellationError {
            throw CourierError(
                .cancelled, "the request was cancelled while its credential was refreshed",
                source: "AuthenticationInterceptor", request: request)
        } catch {
            throw CourierError(
                .authenticationFailed, "refreshing the credential failed", source: "AuthenticationInterceptor",
                request: request, response: refused, underlying: error)
        }
    }
}

extension AuthenticationInterceptor where Credential == String {
    /// Sends `Authorization: Bearer <token>` and renews the token with `refresh` when it is refused;
    /// `policy` and `clock` are those of `init(credential:policy:clock:apply:refresh:)`.
    public static func bearer(
        token: String?, policy: Policy = Policy(), clock: some Clock<Duration> = ContinuousClock(),
        refresh: @escaping Refresh
    ) -> AuthenticationInterceptor<String> {
        AuthenticationInterceptor(
            credential: token, policy: policy, clock: clock,
            apply: { token, request in
                request.headerFields[.authorization] = "Bearer \(token)"
            }, refresh: refresh)
    }
}
