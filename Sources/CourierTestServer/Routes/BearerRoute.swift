import Foundation

extension Route {
    /// The token `/bearer` expects when neither the route nor the request names another.
    public static let defaultBearerToken = "courier-test-token"

    /// `/bearer`, any method: 200 `{"authenticated": true, "token": …}` when the request carries
    /// `Authorization: Bearer <token>`, otherwise 401 with a `WWW-Authenticate: Bearer` challenge
    /// (with `error="invalid_token"` when a wrong token was sent, as RFC 6750 §3.1 says).
    ///
    /// The expected token is the query's `token`, else `token`; a test that refreshes tokens
    /// registers its own `.bearer(token:)` and changes nothing else.
    public static func bearer(token: String = defaultBearerToken) -> Route {
        Route("/bearer") { request in
            let expected = request.query("token") ?? token
            let presented = request.header("authorization").flatMap { value -> String? in
                let parts = value.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
                return String(parts[1])
            }
            guard presented == expected else {
                var response = try TestServerResponse.json(AuthenticationResult(authenticated: false), status: 401)
                let error = presented == nil ? "" : ", error=\"invalid_token\""
                response.headers.append(("WWW-Authenticate", "Bearer realm=\"courier-test\"\(error)"))
                return response
            }
            return try .json(AuthenticationResult(authenticated: true, token: expected))
        }
    }
}
