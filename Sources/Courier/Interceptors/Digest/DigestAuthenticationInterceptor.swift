import HTTPTypes
import Logging
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// HTTP Digest authentication (RFC 7616): answers a server's `401` with a `Digest` challenge by
/// resending the request once with an `Authorization: Digest …` computed from the user name and
/// password, which never travel in clear.
///
/// ```swift
/// let client = Client(transport: CurlTransport(),
///                     interceptors: [DigestAuthenticationInterceptor(user: "ada", password: "s3cret")])
/// ```
///
/// - Algorithms: `SHA-256`, `SHA-256-sess`, `MD5` and `MD5-sess`; when a server offers several
///   challenges, the SHA-256 one is answered. `qop=auth` with nonce counts and a random client
///   nonce, RFC 2069's answer when the server offers no `qop`, `userhash`, and `opaque` echoed.
///   A challenge that only offers `qop=auth-int` or `SHA-512-256` is not answered: its `401` is
///   returned as it is.
/// - Later requests to the same origin answer the last challenge before being asked (with the
///   next nonce count), saving a round trip; a `stale=true` refusal is answered with the new nonce.
/// - A request that already carries an `Authorization` field is passed on untouched, and a
///   request is resent at most once, so wrong credentials end in the server's `401`, not a loop.
///   A body that cannot be replayed fails with `bodyNotReplayable` instead of being resent empty.
public final class DigestAuthenticationInterceptor: Interceptor {
    /// The last challenge of an origin and how many times its nonce was used.
    struct Remembered: Sendable {
        var challenge: DigestChallenge
        var nonceCount: Int
    }

    /// `DigestAuthenticationInterceptor`, in errors and explanations.
    public var name: String { "DigestAuthenticationInterceptor" }
    private let user: String
    private let password: String
    private let makeClientNonce: @Sendable () -> String
    private let remembered = Protected<[String: Remembered]>([:])

    /// Creates an interceptor that answers Digest challenges as `user` with `password`.
    public convenience init(user: String, password: String) {
        self.init(user: user, password: password) {
            (0..<16).map { _ in TextFormat.hex(UInt8.random(in: 0...255), width: 2) }.joined()
        }
    }

    /// With a fixed client nonce, for tests that compare with published examples.
    init(user: String, password: String, clientNonce: @escaping @Sendable () -> String) {
        self.user = user
        self.password = password
        self.makeClientNonce = clientNonce
    }

    public nonisolated(nonsending) func intercept(
        _ request: Request, context: InterceptorContext, next: Next
    ) async throws -> Response {
        guard request.headerFields[.authorization] == nil else { return try await next(request) }
        // Both attempts are prepared by synchronous functions, so a send in flight holds little in
        // its frame (2,896 bytes when the challenge's handling was inline).
        let first = firstAttempt(of: request)
        let response = try await next(first.request)
        guard
            let answered = try answer(
                response, to: request, origin: first.origin, preemptiveNonce: first.preemptiveNonce, context: context)
        else { return response }
        return try await next(answered)
    }

    /// `request` with the origin's remembered challenge answered in advance, when there is one.
    private func firstAttempt(of request: Request) -> (request: Request, origin: String, preemptiveNonce: String?) {
        let origin = Self.origin(of: request)
        guard let preemptive = nextUse(of: origin) else { return (request, origin, nil) }
        var first = request
        first.headerFields[.authorization] = authorization(
            answering: preemptive.challenge, request, nonceCount: preemptive.nonceCount)
        return (first, origin, preemptive.challenge.nonce)
    }

    /// The request answering `response`'s Digest challenge, or `nil` when `response` is the answer
    /// to return: no challenge, or a remembered nonce refused for anything but staleness (the
    /// credentials are wrong).
    private func answer(
        _ response: Response, to request: Request, origin: String, preemptiveNonce: String?,
        context: InterceptorContext
    ) throws -> Request? {
        guard response.status.code == 401,
            let challenge = DigestChallenge.parse(response.headerFields[values: .wwwAuthenticate]).first
        else { return nil }
        if let preemptiveNonce, !challenge.isStale, challenge.nonce == preemptiveNonce { return nil }
        if let body = request.body, !body.isReplayable {
            throw CourierError(
                .bodyNotReplayable,
                "the server asks for Digest authentication, but \(request.method) \(request.url.absoluteString) cannot be resent: its body is a one-shot stream",
                source: name, request: request,
                response: Response(
                    status: response.status, headerFields: response.headerFields, request: response.request))
        }
        response.bodyStream?.discard()
        let use = remember(challenge, for: origin)
        var answered = request
        answered.headerFields[.authorization] = authorization(
            answering: use.challenge, request, nonceCount: use.nonceCount)
        context.logger.debug(
            "answering a Digest challenge",
            metadata: ["request-id": "\(context.requestID)", "algorithm": "\(challenge.algorithm.rawValue)"])
        return answered
    }

    private func authorization(answering challenge: DigestChallenge, _ request: Request, nonceCount: Int) -> String {
        challenge.authorization(
            user: user, password: password, method: request.method.rawValue,
            uri: Self.target(of: request), nonceCount: nonceCount, cnonce: makeClientNonce())
    }

    /// The origin's remembered challenge with its nonce count advanced, if there is one.
    private func nextUse(of origin: String) -> Remembered? {
        remembered.withLock { remembered -> Remembered? in
            guard var entry = remembered[origin] else { return nil }
            entry.nonceCount += 1
            remembered[origin] = entry
            return entry
        }
    }

    /// Keeps `challenge` as the origin's latest, its nonce used once.
    private func remember(_ challenge: DigestChallenge, for origin: String) -> Remembered {
        let entry = Remembered(challenge: challenge, nonceCount: 1)
        remembered.withLock { $0[origin] = entry }
        return entry
    }

    /// `scheme://host:port`, the protection space's origin (RFC 7616 §3.3).
    static func origin(of request: Request) -> String {
        "\(request.scheme ?? "")://\(request.host ?? ""):\(request.port ?? (request.scheme == "https" ? 443 : 80))"
    }

    /// The request target as sent: the percent-encoded path and query.
    static func target(of request: Request) -> String {
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        return request.path + (query.map { "?" + $0 } ?? "")
    }
}
