import AsyncHTTPClient
import Courier
import NIOSSL
import Synchronization

/// The `HTTPClient`s of an owned transport that reach proxies: AsyncHTTPClient takes one proxy
/// per client, so each proxy a request is routed to gets a client of its own, made on first use
/// with the transport's settings, and shut down with the transport.
final class ProxyRoutes: Sendable {
    private enum State {
        case open([ProxyServer: HTTPClient])
        case closed
    }

    private let router: ProxyRouter
    private let configuration: AsyncHTTPClientTransport.Configuration
    private let tls: TLSConfiguration
    private let state = Protected(State.open([:]))

    init(router: ProxyRouter, configuration: AsyncHTTPClientTransport.Configuration, tls: TLSConfiguration) {
        self.router = router
        self.configuration = configuration
        self.tls = tls
    }

    /// The client for `request`'s proxy, `nil` when it goes direct or the transport is shut down
    /// (the direct client then reports that).
    ///
    /// - Throws: `invalidRequest` for a proxy that did not parse or that AsyncHTTPClient cannot reach.
    func client(for request: Request) throws(CourierError) -> HTTPClient? {
        let server: ProxyServer
        do {
            guard let routed = try router.proxy(for: request.url) else { return nil }
            server = routed
        } catch {
            var error = error
            error.request = request
            throw error
        }
        let proxy = try Self.asyncHTTPClientProxy(server, request: request)
        return state.withLock { state -> HTTPClient? in
            guard case .open(var clients) = state else { return nil }
            if let existing = clients[server] { return existing }
            var settings = configuration.clientConfiguration(tls: tls)
            settings.proxy = proxy
            let created = HTTPClient(
                eventLoopGroup: configuration.eventLoopGroup ?? HTTPClient.defaultEventLoopGroup,
                configuration: settings)
            clients[server] = created
            state = .open(clients)
            return created
        }
    }

    /// Stops making clients and returns those made, for the transport to shut down.
    func close() -> [HTTPClient] {
        state.withLock { state in
            guard case .open(let clients) = state else { return [] }
            state = .closed
            return Array(clients.values)
        }
    }

    private static func asyncHTTPClientProxy(
        _ server: ProxyServer, request: Request
    ) throws(CourierError) -> HTTPClient.Configuration.Proxy {
        switch server.kind {
        case .http:
            let authorization = server.username.map {
                HTTPClient.Authorization.basic(username: $0, password: server.password ?? "")
            }
            return .server(host: server.host, port: server.port, authorization: authorization)
        case .socks5, .socks5h:
            if server.username == nil && server.password == nil {
                return .socksServer(host: server.host, port: server.port)
            }
            fallthrough
        case .https, .socks4, .socks4a:
            throw CourierError(
                .invalidRequest,
                "AsyncHTTPClient reaches http proxies and socks5 proxies without credentials, not \(server); use the curl transport for it",
                source: "ProxySettings", request: request)
        }
    }
}
