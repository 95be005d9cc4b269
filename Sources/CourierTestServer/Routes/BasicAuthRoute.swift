import Foundation

extension Route {
    /// `/basic-auth/{user}/{passwd}`, any method: 200 `{"authenticated": true, "user": …}` when
    /// the request carries `Authorization: Basic` with exactly these credentials, otherwise 401
    /// with `WWW-Authenticate: Basic realm="courier-test"`, the challenge a client answers.
    public static let basicAuth = Route("/basic-auth/{user}/{passwd}") { request in
        let user = request.parameters["user"] ?? ""
        let expected = Data("\(user):\(request.parameters["passwd"] ?? "")".utf8).base64EncodedString()
        let parts = request.header("authorization")?.split(separator: " ", maxSplits: 1) ?? []
        guard parts.count == 2, parts[0].lowercased() == "basic", parts[1] == expected else {
            var response = try TestServerResponse.json(AuthenticationResult(authenticated: false), status: 401)
            response.headers.append(("WWW-Authenticate", "Basic realm=\"courier-test\""))
            return response
        }
        return try .json(AuthenticationResult(authenticated: true, user: user))
    }
}

/// The JSON body of the authentication routes.
public struct AuthenticationResult: Codable, Sendable, Equatable {
    /// Whether the credentials were accepted.
    public var authenticated: Bool
    /// The user name accepted, for `/basic-auth`.
    public var user: String?
    /// The token accepted, for `/bearer`.
    public var token: String?

    /// Creates a result.
    public init(authenticated: Bool, user: String? = nil, token: String? = nil) {
        self.authenticated = authenticated
        self.user = user
        self.token = token
    }
}
