/// Credentials for the request: `Authorization.bearer(token)`, `.basic(username:password:)`, or your own scheme.
///
/// Applied after every other block, so a scheme that signs the request sees it complete.
/// Invalid credentials (a bearer token with spaces, a Basic user name with `:`) fail the build.
public struct Authorization: RequestBuildable, Sendable {
    /// The scheme that adds the credentials.
    public let scheme: any AuthorizationScheme

    /// Uses a scheme of your own.
    public init(_ scheme: some AuthorizationScheme) { self.scheme = scheme }

    /// `Authorization: Bearer <token>` (RFC 6750).
    public static func bearer(_ token: String) -> Authorization {
        Authorization(
            HeaderAuthorization(name: "bearer", value: Credentials.bearer(token, block: "Authorization.bearer")))
    }

    /// `Authorization: Basic <base64(username:password)>` (RFC 7617, UTF-8).
    public static func basic(username: String, password: String) -> Authorization {
        Authorization(
            HeaderAuthorization(
                name: "basic",
                value: Credentials.basic(username: username, password: password, block: "Authorization.basic")))
    }

    /// `Authorization: Token <token>`.
    public static func token(_ token: String) -> Authorization {
        Authorization(HeaderAuthorization(name: "token", value: Credentials.token(token, block: "Authorization.token")))
    }

    /// `Authorization: <scheme> <credentials>`, for schemes such as `Digest` or `AWS4-HMAC-SHA256`.
    public static func other(_ scheme: String, credentials: String) -> Authorization {
        Authorization(
            HeaderAuthorization(
                name: "other", value: Credentials.scheme(scheme, credentials: credentials, block: "Authorization.other")
            ))
    }

    /// `Authorization: <value>`, exactly as given.
    public static func raw(_ value: String) -> Authorization {
        Authorization(HeaderAuthorization(name: "raw", value: .success(value)))
    }

    /// A closure that edits the complete request, for one-off schemes.
    public static func custom(_ edit: @escaping @Sendable (inout Request) throws -> Void) -> Authorization {
        Authorization(ClosureAuthorization(edit: edit))
    }

    public func apply(to draft: inout RequestDraft) throws {
        let scheme = self.scheme
        draft.whenComplete(source: "Authorization.\(scheme.name)") { request in
            try scheme.authorize(&request)
        }
    }
}

/// `Authorization` inside `Headers { … }`; replaces by default. The grouped-headers spelling of
/// ``Authorization``: both format the credentials with `Credentials`, so both refuse the same input.
public struct AuthorizationHeader: HeaderNode {
    public var line: HeaderLine

    private init(_ block: String, _ value: Result<String, CourierError>) {
        switch value {
        case .success(let text):
            line = HeaderLine("Authorization", text, mode: .replace, block: block)
        case .failure(let error):
            line = HeaderLine("Authorization", "", mode: .replace, block: block)
            line.failure = error
        }
    }

    /// `Bearer <token>` (RFC 6750).
    public static func bearer(_ token: String) -> AuthorizationHeader {
        AuthorizationHeader(
            "AuthorizationHeader.bearer", Credentials.bearer(token, block: "AuthorizationHeader.bearer"))
    }

    /// `Basic <base64(username:password)>` (RFC 7617).
    public static func basic(username: String, password: String) -> AuthorizationHeader {
        AuthorizationHeader(
            "AuthorizationHeader.basic",
            Credentials.basic(username: username, password: password, block: "AuthorizationHeader.basic"))
    }

    /// `Token <token>`.
    public static func token(_ token: String) -> AuthorizationHeader {
        AuthorizationHeader("AuthorizationHeader.token", Credentials.token(token, block: "AuthorizationHeader.token"))
    }

    /// `<scheme> <credentials>`.
    public static func scheme(_ scheme: String, credentials: String) -> AuthorizationHeader {
        AuthorizationHeader(
            "AuthorizationHeader.scheme",
            Credentials.scheme(scheme, credentials: credentials, block: "AuthorizationHeader.scheme"))
    }

    /// The field value exactly as given.
    public static func raw(_ value: String) -> AuthorizationHeader {
        AuthorizationHeader("AuthorizationHeader.raw", .success(value))
    }
}
