/// One request as a `ForwardProxy` received it, so a test can check that a client went through
/// the proxy, with which target and credentials.
public struct ForwardedRequest: Sendable, Hashable {
    /// The method token as received: `GET`, `POST`, `CONNECT`…
    public var method: String
    /// The request target as received: absolute-form (`http://127.0.0.1:8080/path?q`) for plain
    /// HTTP, authority-form (`127.0.0.1:8443`) for `CONNECT`.
    public var target: String
    /// The `Proxy-Authorization` value received (the first, if several), or `nil` when there was none.
    public var proxyAuthorization: String?
    /// Whether the request passed the proxy's authentication: always `true` for a proxy without
    /// credentials. A request refused afterwards for its target (403, 502) still counts as authorized.
    public var wasAuthorized: Bool

    public init(method: String, target: String, proxyAuthorization: String? = nil, wasAuthorized: Bool) {
        self.method = method
        self.target = target
        self.proxyAuthorization = proxyAuthorization
        self.wasAuthorized = wasAuthorized
    }
}
