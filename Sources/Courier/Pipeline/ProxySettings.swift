/// Which proxy a transport sends through: one given explicitly, or the one the environment names
/// the way curl reads it, with the hosts that go direct. One value for every transport, so a client
/// changes transport without changing its route.
///
/// ```swift
/// var proxy = ProxySettings()
/// proxy.server = try ProxyServer("http://user:secret@proxy.internal:3128")
/// proxy.noProxy = ["localhost", ".internal.example", "10.0.0.0/8"]
/// ```
///
/// The defaults read the environment, as curl does: `http_proxy` for `http` URLs (lower case only:
/// a CGI program gets a client's `Proxy:` header as `HTTP_PROXY`), `https_proxy` or `HTTPS_PROXY`
/// for `https`, then `all_proxy` or `ALL_PROXY`, and `no_proxy` or `NO_PROXY` for the hosts that
/// go direct. A transport reads the environment once, when it is created. `https` URLs go through
/// a proxy in a `CONNECT` tunnel; `http` URLs are sent to the proxy in absolute form.
public struct ProxySettings: Sendable, Hashable {
    /// The proxy every request goes through, whatever the environment says; `nil` for none.
    public var server: ProxyServer?
    /// Proxies for one URL scheme each (`"http"`, `"https"`), over ``server``, as HTTPie's
    /// `--proxy https:URL` gives them; a scheme not listed falls back to ``server``, then the environment.
    public var servers: [String: ProxyServer] = [:]
    /// The hosts that go direct, in `NO_PROXY`'s syntax (see ``NoProxyRule``); `nil` reads
    /// `no_proxy`/`NO_PROXY` (when ``readsEnvironment`` is on).
    public var noProxy: [String]?
    /// Whether the proxy variables of the environment apply when no ``server`` is given. On by default, as in curl.
    public var readsEnvironment = true
    /// The variables read in place of the process's environment, `nil` for the process's own: so
    /// tests can route a real transport by `ALL_PROXY` or `NO_PROXY` without changing the
    /// environment that every other test in the process shares.
    package var environment: [String: String]?

    /// The defaults: the environment's proxies, if any.
    public init() {}

    /// Every request through `server`, except to the hosts of `noProxy`; the environment is not read.
    public init(server: ProxyServer?, noProxy: [String] = []) {
        self.server = server
        self.noProxy = noProxy
        self.readsEnvironment = false
    }

    /// No proxy at all, whatever the environment says.
    public static let none = ProxySettings(server: nil)
}
