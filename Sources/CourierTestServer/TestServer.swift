public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 server on the loopback interface for end-to-end tests, answering with `Route`s.
///
/// Each test starts its own server on an ephemeral port and shuts it down, so tests run in
/// parallel without sharing state:
///
/// ```swift
/// try await withTestServer { server in
///     let url = server.baseURL.appending(path: "echo")
///     …
/// }
/// ```
///
/// Connections are kept alive unless the client asks otherwise; pipelined requests are answered
/// in order. Every request received is kept in `receivedRequests`.
///
/// To make the server misbehave, either request a fault route (`/fault/{effect}/{phase}`,
/// `/raw/{name}`), or plan faults for the next connections, whatever they request:
///
/// ```swift
/// server.planFaults([ConnectionFault(.reset, at: .afterRequest)])
/// // the next connection is reset after its first request; later ones are served normally
/// ```
public final class TestServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// `http://127.0.0.1:<port>` (or `http://[::1]:<port>`), without a trailing slash.
    public let baseURL: URL
    /// The Unix domain socket the server also listens on, when started with one.
    public let unixSocketPath: String?

    private let listeners: [any Channel]
    private let state: TestServerState

    private init(listeners: [any Channel], port: Int, baseURL: URL, unixSocketPath: String?, state: TestServerState) {
        self.listeners = listeners
        self.port = port
        self.baseURL = baseURL
        self.unixSocketPath = unixSocketPath
        self.state = state
    }

    /// Starts a server on a loopback address; port 0 picks a free ephemeral port.
    ///
    /// `faultPlan` is the initial plan of `planFaults(_:)`: the first connections take its faults in order.
    /// With `unixSocketPath`, the same routes are served on a Unix domain socket at that path too
    /// (a file left there by an earlier run is replaced; `shutdown()` removes it).
    ///
    /// - Throws: `TestServerError.notLoopback` for an address other than 127.0.0.0/8 or `::1`
    ///   (the server must never be reachable from outside the machine), or the bind error.
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        routes: [Route] = Route.defaults,
        faultPlan: [ConnectionFault] = [],
        unixSocketPath: String? = nil
    ) async throws -> TestServer {
        let isIPv6 = host.contains(":")
        let address = try SocketAddress(ipAddress: host, port: port)
        guard address.ipAddress.map({ isIPv6 ? $0 == "::1" : $0.hasPrefix("127.") }) == true else {
            throw TestServerError.notLoopback(host)
        }
        let router = Router(routes: routes)
        let state = TestServerState()
        state.plan(faultPlan)
        let listener = try await bootstrap(router: router, state: state)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(to: address)
            .get()
        guard let boundPort = listener.localAddress?.port,
            let baseURL = URL(string: "http://\(isIPv6 ? "[\(host)]" : host):\(boundPort)")
        else {
            try? await listener.close()
            throw TestServerError.noBoundAddress(host)
        }
        var listeners = [listener]
        if let unixSocketPath {
            do {
                listeners.append(
                    try await bootstrap(router: router, state: state)
                        .bind(unixDomainSocketPath: unixSocketPath, cleanupExistingSocketFile: true)
                        .get())
            } catch {
                try? await listener.close()
                throw error
            }
        }
        return TestServer(
            listeners: listeners, port: boundPort, baseURL: baseURL, unixSocketPath: unixSocketPath, state: state)
    }

    /// A listener's setup: every accepted connection gets the HTTP pipeline and the routes.
    private static func bootstrap(router: Router, state: TestServerState) -> ServerBootstrap {
        ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let fault = state.takePlannedFault()
                    let atConnect = fault?.phase == .atConnect ? fault?.effect : nil
                    let socket = SocketControlHandler(faultAtConnect: atConnect)
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(socket)
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(
                        HTTPConnectionHandler(
                            router: router, state: state, socket: socket, plannedFault: atConnect == nil ? fault : nil))
                    state.opened(channel)
                }
            }
    }

    /// The requests received so far, oldest first, as they arrived on the wire.
    public var receivedRequests: [TestServerRequest] { state.requests }

    /// Plans faults for the next connections: each connection accepted from now on takes the
    /// next fault, in order, and suffers it during its first request (or at once, for `atConnect`);
    /// connections beyond the plan are served normally.
    public func planFaults(_ faults: [ConnectionFault]) {
        state.plan(faults)
    }

    /// How many connections the server accepted so far, closed ones included; shows whether a client reused one.
    public var acceptedConnectionCount: Int { state.acceptedConnectionCount }

    /// How many connections are open now; shows whether a client closed one.
    public var openConnectionCount: Int { state.openConnectionCount }

    /// Stops listening and closes every open connection; calling it again does nothing.
    public func shutdown() async throws {
        guard let connections = state.beginShutdown() else { return }
        for listener in listeners { try await listener.close() }
        for connection in connections {
            try? await connection.close()
        }
        if let unixSocketPath { try? FileManager.default.removeItem(atPath: unixSocketPath) }
    }
}

/// Why a test server could not start.
public enum TestServerError: Error, Sendable, CustomStringConvertible {
    /// The address is not a loopback address; the server only listens where nothing outside can reach it.
    case notLoopback(String)
    /// The socket was bound but reported no local port.
    case noBoundAddress(String)

    public var description: String {
        switch self {
        case .notLoopback(let host): "\(host) is not a loopback address; the test server binds 127.0.0.1 or ::1 only"
        case .noBoundAddress(let host): "the listening socket on \(host) reported no local port"
        }
    }
}

/// Starts a test server, runs `body` with it, and shuts it down, also when `body` throws.
public func withTestServer<Result>(
    host: String = "127.0.0.1",
    routes: [Route] = Route.defaults,
    faultPlan: [ConnectionFault] = [],
    unixSocketPath: String? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TestServer) async throws -> Result
) async throws -> Result {
    let server = try await TestServer.start(
        host: host, routes: routes, faultPlan: faultPlan, unixSocketPath: unixSocketPath)
    let result: Result
    do {
        result = try await body(server)
    } catch {
        try? await server.shutdown()
        throw error
    }
    try await server.shutdown()
    return result
}
