import Courier
import CourierAsyncHTTPClient
import CourierCurl
import CourierTestServer
import CourierURLSession
import Foundation
import HTTPTypes
import Testing

/// A transport the conformance suite runs against; every test runs once per entry of `all`.
struct TransportUnderTest: Sendable, CustomStringConvertible {
    let description: String
    let make: @Sendable () -> any Transport
    /// A transport with these settings, the same on both.
    let makeWith: @Sendable (TransportSettings) -> any Transport
    let shutdown: @Sendable (any Transport) async -> Void
    /// What this transport cannot do, each with the reason: the cases needing it leave it out.
    var lacks: [Capability: String] = [:]

    static let curl = TransportUnderTest(
        description: "curl", make: { CurlTransport() },
        makeWith: { settings in
            var configuration = CurlTransport.Configuration()
            configuration.tls = settings.tls
            configuration.proxy = settings.proxy
            configuration.routes = settings.routes
            if let limit = settings.maxConnectionsPerHost { configuration.maxConnectionsPerHost = limit }
            if let limit = settings.maxConnections { configuration.maxConnections = limit }
            if let limit = settings.maxIdleConnections { configuration.maxIdleConnections = limit }
            if let timeout = settings.idleTimeout { configuration.idleTimeout = timeout }
            configuration.userAgent = settings.userAgent
            return CurlTransport(configuration: configuration)
        },
        shutdown: { transport in await (transport as? CurlTransport)?.shutdown() })

    static let asyncHTTPClient = TransportUnderTest(
        description: "AsyncHTTPClient", make: { AsyncHTTPClientTransport() },
        makeWith: { settings in
            var configuration = AsyncHTTPClientTransport.Configuration()
            configuration.tls = settings.tls
            configuration.proxy = settings.proxy
            configuration.routes = settings.routes
            // AsyncHTTPClient takes its connect timeout when the client is made, not per request.
            if let connectTimeout = settings.connectTimeout { configuration.connectTimeout = connectTimeout }
            if let limit = settings.maxConnectionsPerHost { configuration.maxConnectionsPerHost = limit }
            if let limit = settings.maxConnections { configuration.maxConnections = limit }
            if let timeout = settings.idleTimeout { configuration.idleTimeout = timeout }
            configuration.userAgent = settings.userAgent
            return AsyncHTTPClientTransport(configuration: configuration)
        },
        shutdown: { transport in try? await (transport as? AsyncHTTPClientTransport)?.shutdown() })

    /// URLSession: FoundationNetworking here on Linux, which has fewer settings than libcurl and
    /// NIO; a setting it refuses makes every send fail with the refusal, so a case that needs one
    /// the transport lacks fails visibly unless it leaves the transport out (``Capability``).
    static let urlSession = TransportUnderTest(
        description: "URLSession", make: { URLSessionTransport() },
        makeWith: { settings in
            var configuration = URLSessionTransport.Settings()
            configuration.tls = settings.tls
            configuration.proxy = settings.proxy
            configuration.maxConnectionsPerHost = settings.maxConnectionsPerHost
            configuration.maxConnections = settings.maxConnections
            configuration.idleTimeout = settings.idleTimeout
            configuration.routes = settings.routes
            configuration.userAgent = settings.userAgent
            do throws(CourierError) {
                return try URLSessionTransport(settings: configuration)
            } catch {
                return RefusedTransport(refusal: error)
            }
        },
        shutdown: { transport in (transport as? URLSessionTransport)?.shutdown() },
        lacks: URLSessionLimitation.all)

    static let all: [TransportUnderTest] = [.curl, .asyncHTTPClient, .urlSession]

    /// The transports that have `capability`: the arguments of a case that needs it.
    static func all(with capability: Capability) -> [TransportUnderTest] {
        all.filter { $0.lacks[capability] == nil }
    }

    /// Runs `body` with a fresh transport wrapped in a client, and a test server, then shuts both down.
    ///
    /// Connecting may take `connectTimeout` (a minute by default, on both transports): when every
    /// suite starts at once on two cores, a loopback connect can wait seconds for the test server's
    /// event loop, and a test about something else must not fail for it.
    func withClient<Result: Sendable>(
        configuration: Client.Configuration = Client.Configuration(),
        settings: TransportSettings = TransportSettings(),
        connectTimeout: Duration = .seconds(60),
        routes: [Route] = Route.defaults,
        faultPlan: [ConnectionFault] = [],
        unixSocketPath: String? = nil,
        _ body: (Client, TestServer) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        configuration.connectTimeout = connectTimeout
        var settings = settings
        settings.connectTimeout = connectTimeout
        let transport = makeWith(settings)
        do {
            let result = try await withTestServer(routes: routes, faultPlan: faultPlan, unixSocketPath: unixSocketPath)
            {
                server in
                try await body(Client(transport: transport, configuration: configuration), server)
            }
            await shutdown(transport)
            return result
        } catch {
            await shutdown(transport)
            throw error
        }
    }
}

/// Settings both transports have: trusted authorities, peer and host-name verification, the
/// proxy, (for a transport that fixes it when made) the connect timeout, the connection limits
/// and the default `User-Agent`; `nil` keeps the transport's default.
struct TransportSettings: Sendable {
    var tls = TLSSettings()
    var proxy = ProxySettings()
    var connectTimeout: Duration?
    var maxConnectionsPerHost: Int?
    var maxConnections: Int?
    /// curl only: AsyncHTTPClient has no limit on idle connections and ignores it.
    var maxIdleConnections: Int?
    var idleTimeout: Duration?
    var userAgent: String?
    /// Where connections for chosen hosts go instead of where DNS says.
    var routes: [ConnectionRoute] = []

    init(tls: TLSSettings = TLSSettings(), proxy: ProxySettings = ProxySettings(), connectTimeout: Duration? = nil) {
        self.tls = tls
        self.proxy = proxy
        self.connectTimeout = connectTimeout
    }

    init(caInfo: String? = nil, verifyPeer: Bool = true, verifyHost: Bool = true, connectTimeout: Duration? = nil) {
        tls.caFile = caInfo
        tls.verifiesPeer = verifyPeer
        tls.verifiesHost = verifyHost
        self.connectTimeout = connectTimeout
    }
}

extension TestServer {
    /// A request to `path` (with any query) on this server, with more blocks.
    func request(
        _ path: String, @RequestBuilder _ content: () throws -> RequestBlockGroup = { RequestBlockGroup.empty }
    ) throws -> Request {
        try baseURL.buildRequest {
            Endpoint(path)
            try content()
        }
    }
}

extension RequestBlockGroup {
    /// No blocks.
    static var empty: RequestBlockGroup { RequestBuilder.buildBlock() }
}

/// The `CourierError` an operation throws, or `nil` when it succeeds; any other error (one the
/// transport did not map) is recorded as a test failure, never passed off as a `CourierError`.
func courierError<T>(
    _ operation: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> CourierError? {
    do {
        _ = try await operation()
        return nil
    } catch let error as CourierError {
        return error
    } catch {
        Issue.record("not a CourierError: \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Decodes the test server's `/echo` answer.
extension Result {
    /// The value, when this is a success.
    var success: Success? { if case .success(let value) = self { value } else { nil } }
    /// The error, when this is a failure.
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}

func echoed(_ response: Response) throws -> EchoedRequest {
    try JSONDecoder().decode(EchoedRequest.self, from: response.body)
}

/// What a conformance case needs of a transport beyond the `Transport` contract's core; a
/// transport that lacks one lists it in `TransportUnderTest.lacks`, with the reason.
enum Capability: Sendable, Hashable {
    /// Trusting a CA file, or skipping verification (`TLSSettings`), so the suite's own test
    /// certificates can be used.
    case customTrust
    /// A proxy given in `ProxySettings` (a server, or variables passed in place of the process's environment).
    case explicitProxy
    /// Bounds on connections in all and per host, and on idle ones (`maxConnections`, `idleTimeout`).
    case connectionLimits
    /// A connect timeout apart from the total one.
    case connectTimeout
    /// Header fields sent in the order the request gives them, and received in the order and with
    /// the repetitions the server sent.
    case headerOrder
    /// No `User-Agent` added to a request that has none.
    case noDefaultUserAgent
    /// A connection closed in the middle of the response head ends in an error, not a trap.
    case survivesHeadCutShort
    /// Requests over a Unix domain socket (`UnixSocket`).
    case unixSocket
}

/// A transport whose settings were refused when it was made: every send fails with the refusal.
struct RefusedTransport: Transport {
    let refusal: CourierError

    func send(_ request: Request, context: TransportContext) async throws -> Response {
        var error = refusal
        error.request = request
        throw error
    }
}
