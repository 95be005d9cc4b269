import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the client follows redirects; applied the same way whatever the transport.
///
/// Redirects are followed below the interceptors (as OkHttp does): interceptors see the request as
/// built and the final response, while `Response.request` tells where the response came from.
public struct RedirectPolicy: Sendable, Hashable {
    /// Whether 301, 302, 303, 307 and 308 responses are followed.
    public var isEnabled = true
    /// Whether a POST answered by 301 or 302 is resent as a GET without its body, as browsers do;
    /// when `false` it is resent as a POST (RFC 9110 allows both).
    public var rewritesPOSTToGET = true
    /// Whether an `https` request may be redirected to `http`.
    public var allowsInsecureRedirects = false

    /// Follows redirects with the rules above; the count is bounded by `Limits.maxRedirects`.
    public init() {}

    /// Never follows a redirect: the 3xx response is returned.
    public static var disabled: RedirectPolicy {
        var policy = RedirectPolicy()
        policy.isEnabled = false
        return policy
    }
}

/// Decides the request to send after a redirect response: a pure function of the two, tested without I/O.
enum RedirectFollower {
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Fields that describe the body and go when the body goes.
    static let bodyFields: [HTTPField.Name] = [
        .contentType, .contentLength, .contentEncoding, .contentLanguage, .transferEncoding,
    ]

    /// Fields that carry credentials for one origin and must not follow a redirect to another.
    static let credentialFields: [HTTPField.Name] = [.authorization, .cookie, .proxyAuthorization]

    /// The request that follows `response` to `request`, or `nil` when `response` is not a redirect to follow.
    ///
    /// - Throws: `invalidResponse` for a missing or invalid `Location`; `insecureConnection` for a
    ///   refused downgrade to `http`; `bodyNotReplayable` when a 307/308 must resend a one-shot body.
    static func nextRequest(after response: Response, to request: Request, policy: RedirectPolicy) throws -> Request? {
        guard policy.isEnabled, redirectStatuses.contains(response.status.code) else { return nil }
        guard let location = response.headerFields[.location], !location.isEmpty else { return nil }

        var draft = RequestDraft(request)
        do {
            try Endpoint(location).apply(to: &draft)
        } catch {
            throw CourierError(
                .invalidResponse, "the redirect Location \"\(location.debugEscaped)\" is not a valid URL",
                source: "redirects", request: request, response: response, underlying: error)
        }
        guard let url = draft.url.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            throw CourierError(
                .invalidResponse, "the redirect Location \"\(location.debugEscaped)\" is not an http(s) URL",
                source: "redirects", request: request, response: response)
        }
        if request.scheme == "https", scheme == "http", !policy.allowsInsecureRedirects {
            throw CourierError(
                .insecureConnection, "refused a redirect from https to \(url.absoluteString)",
                source: "redirects", request: request, response: response)
        }

        var next = request
        next.url = url
        let status = response.status.code
        let becomesGET =
            (status == 303 && request.method != .head)
            || ((status == 301 || status == 302) && request.method == .post && policy.rewritesPOSTToGET)
        if becomesGET {
            next.method = .get
            next.body = nil
            for name in bodyFields { next.headerFields[name] = nil }
        } else if let body = request.body, !body.isReplayable {
            throw CourierError(
                .bodyNotReplayable,
                "a \(status) redirect must resend the body, but it is a one-shot stream",
                source: "redirects", request: request, response: response)
        }
        if !sameOrigin(request.url, url) {
            for name in credentialFields { next.headerFields[name] = nil }
            if let host = HTTPField.Name("Host") { next.headerFields[host] = nil }
            // A Unix socket serves its own origin only: another host is reached over TCP.
            next.options.removeValue(for: UnixSocketOption.self)
        }
        return next
    }

    /// Whether two URLs share scheme, host and port (default ports filled in).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (scheme, url.host?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80))
        }
        return origin(a) == origin(b)
    }
}
