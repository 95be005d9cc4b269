public import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// An HTTP/1.1 forward proxy on the loopback interface, for tests of clients configured with a proxy.
///
/// It forwards plain HTTP requests (absolute-form targets, `GET http://127.0.0.1:8080/path`) and
/// tunnels `CONNECT host:port`, one request per client connection, and keeps every request it
/// received in `forwarded`, so a test can tell that a client really went through it:
///
/// ```swift
/// let origin = try await TestServer.start()
/// let proxy = try await ForwardProxy.start(credentials: (user: "user", password: "secret"))
/// // … send a request to origin.baseURL through proxy.url …
/// #expect(proxy.forwarded.map(\.method) == ["GET"])
/// try await proxy.shutdown()
/// try await origin.shutdown()
/// ```
///
/// It connects to loopback targets only (127.0.0.0/8, `::1`, `localhost`), answering 403 to any
/// other, so a test cannot reach out of the machine through it; a target that refuses the
/// connection gets 502.
public final class ForwardProxy: Sendable {
    /// The port the proxy listens on.
    public let port: Int
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    public let url: URL

    private let listener: any Channel
    private let state: ProxyState

    private init(listener: any Channel, port: Int, url: URL, state: ProxyState) {
        self.listener = listener
        self.port = port
        self.url = url
        self.state = state
    }

    /// Starts a proxy on 127.0.0.1, on an ephemeral port.
    ///
    /// When `credentials` is given, every request must carry `Proxy-Authorization: Basic
    /// base64(user:password)`; any other gets `407 Proxy Authentication Required` with
    /// `Proxy-Authenticate: Basic realm="courier-test-proxy"`, and the connection is closed.
    public static func start(credentials: (user: String, password: String)? = nil) async throws -> ForwardProxy {
        let host = "127.0.0.1"
        let state = ProxyState()
        let credentials = credentials.map { ProxyCredentials(user: $0.user, password: $0.password) }
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ProxyConnectionHandler(state: state, credentials: credentials))
                    state.opened(channel)
                }
            }
            .bind(host: host, port: 0)
            .get()
        guard let boundPort = listener.localAddress?.port, let url = URL(string: "http://\(host):\(boundPort)") else {
            try? await listener.close()
            throw TestServerError.noBoundAddress(host)
        }
        return ForwardProxy(listener: listener, port: boundPort, url: url, state: state)
    }

    /// Every request the proxy received, oldest first, refused ones included; each is recorded
    /// before it is answered.
    public var forwarded: [ForwardedRequest] { state.forwarded }

    /// Stops listening and closes every open connection, clients' and targets' alike; calling it
    /// again does nothing.
    public func shutdown() async throws {
        guard let connections = state.beginShutdown() else { return }
        try await listener.close()
        for connection in connections {
            try? await connection.close()
        }
    }
}

/// What a running proxy shares across its connections: the requests received so far, and the open
/// connections (client and target sides), so shutting down can close them.
final class ProxyState: Sendable {
    private let log = NIOLockedValueBox<[ForwardedRequest]>([])
    /// The open connections, client and target sides.
    let connections = OpenConnections()

    /// Adds a request to the log; called from any connection's event loop.
    func record(_ request: ForwardedRequest) {
        log.withLockedValue { $0.append(request) }
    }

    /// The requests received so far, oldest first.
    var forwarded: [ForwardedRequest] {
        log.withLockedValue { $0 }
    }

    /// Tracks a new connection until it closes; one opened after shutdown is closed at once.
    func opened(_ channel: any Channel) { connections.opened(channel) }

    /// Marks the proxy as shut down and returns the connections still open, or `nil` when it was already shut down.
    func beginShutdown() -> [any Channel]? { connections.beginShutdown() }
}
