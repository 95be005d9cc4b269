/// `Authorization: Bearer <token>` as a scheme value, for `Authorization(.bearer(token))`.
public struct BearerAuthorizationScheme: AuthorizationScheme {
    /// The token sent.
    public let token: String

    /// A bearer token (RFC 6750); one with spaces or control characters fails the build.
    public init(token: String) { self.token = token }

    public var name: String { "bearer" }

    public func authorize(_ request: inout Request) throws {
        try HeaderAuthorization(name: name, value: Credentials.bearer(token, block: "Authorization.bearer")).authorize(
            &request)
    }
}

/// `Authorization: Basic <base64(username:password)>` as a scheme value, for
/// `Authorization(.basic(username: user, password: secret))`.
public struct BasicAuthorizationScheme: AuthorizationScheme {
    /// The user name; it may not contain `:`.
    public let username: String
    /// The password.
    public let password: String

    /// Credentials for RFC 7617's Basic scheme, sent as UTF-8.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public var name: String { "basic" }

    public func authorize(_ request: inout Request) throws {
        try HeaderAuthorization(
            name: name, value: Credentials.basic(username: username, password: password, block: "Authorization.basic")
        )
        .authorize(&request)
    }
}

extension AuthorizationScheme where Self == BearerAuthorizationScheme {
    /// A bearer token: `Authorization(.bearer(token))`.
    public static func bearer(_ token: String) -> BearerAuthorizationScheme { BearerAuthorizationScheme(token: token) }
}

extension AuthorizationScheme where Self == BasicAuthorizationScheme {
    /// Basic credentials: `Authorization(.basic(username: "ada", password: secret))`.
    public static func basic(username: String, password: String) -> BasicAuthorizationScheme {
        BasicAuthorizationScheme(username: username, password: password)
    }
}
