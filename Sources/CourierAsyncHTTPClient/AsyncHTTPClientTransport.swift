public import AsyncHTTPClient
public import Courier
import Foundation
public import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
import Synchronization
import Tracing

/// A `Transport` that sends requests with AsyncHTTPClient, for apps already running on SwiftNIO.
///
/// Either borrow the app's `HTTPClient` (`init(client:)`; the app keeps shutting it down) or let
/// the transport own one (`init(configuration:)`; call `shutdown()` when done, as AsyncHTTPClient
/// traps in debug builds on a client that is released without being shut down).
///
/// The transport keeps the `Transport` contract: one exchange with no redirects and no retries,
/// a response returned once its head arrives with the body streaming under backpressure, and
/// every failure reported as a `CourierError`. A borrowed client must be configured with
/// `redirectConfiguration: .disallow` (`HTTPClient.shared` is not), or AsyncHTTPClient follows
/// redirects before Courier sees them.
///
/// The total timeout covers the whole exchange, body included: it is the deadline of
/// AsyncHTTPClient's delegate API, on which the transport runs (`ExchangeDelegate`).
///
/// A client the transport owns traces with the tracer bootstrapped in `InstrumentationSystem`,
/// or with none when nothing was bootstrapped (not with the no-op tracer, whose spans cost
/// allocations on every request); a borrowed client keeps its own tracing configuration.
///
/// Limits AsyncHTTPClient applies per client rather than per request: the connect timeout and
/// the decompression ratio come from the client's configuration, not from `TransportContext`.
///
/// Iterate every response body, even just to drop the iterator: a stream that is never iterated
/// gives no signal, so its transfer pauses at the stream's high watermark and keeps its
/// connection until the total timeout, if any.
public final class AsyncHTTPClientTransport: Transport {
    /// The client that carries the requests.
    public let client: HTTPClient
    /// Whether `client` decodes `gzip` and `deflate` bodies, so the transport drops the headers that describe the encoded form.
    public let decompressesResponses: Bool
    /// The TLS checks this transport's configuration skips (none known for a borrowed client).
    public let disabledSecurityChecks: [String]
    /// The process this transport was made in (`ForkGeneration`): another refuses every send.
    private let forkGeneration = ForkGeneration.current
    private let ownership: Protected<Ownership>
    /// Why the configuration's TLS files could not be used (a client certificate or key that does
    /// not read as PEM): every send fails with it, as a curl transfer fails with the same files.
    private let configurationProblem: CourierError?
    /// The clients that reach the proxies requests are routed through, made on first use; an owned
    /// transport only (a borrowed client keeps its own proxy settings).
    private let proxyRoutes: ProxyRoutes?
    /// The `User-Agent` added to requests that have none (`Configuration.userAgent`).
    private let userAgent: String?
    /// The slots that bound requests in flight across every host (`Configuration.maxConnections`);
    /// `nil` for no limit.
    private let requestLimit: ConcurrencyLimitInterceptor?
    /// The client's event loops, one of which each host's exchanges keep to (`eventLoopPreference(for:on:)`).
    private let eventLoops: [any EventLoop]
    /// Exchanges begun and not yet ended, which decides where the next one runs (`eventLoopPreference(for:on:)`).
    private let exchangesInFlight = ExchangeCount()
    /// The port of each routed host (`Configuration.routes`): AsyncHTTPClient would route its other ports too.
    private let routedPorts: [String: Int]

    private enum Ownership {
        case borrowed
        case owned
        case shutDown
        /// Made in a process `fork()` made after SwiftNIO's shared loops started: their threads
        /// stayed in the parent, so the client is never shut down (that would write to the
        /// parent's event loop through the inherited descriptors, and wait forever for an answer,
        /// or trap on a lock the fork copied held) and never released (its deinit asserts a shutdown).
        case stranded
    }

    /// Sends through `client`, which the caller configured and will shut down.
    ///
    /// - Parameters:
    ///   - client: a client configured with `redirectConfiguration: .disallow`.
    ///   - decompressesResponses: whether `client` was created with `decompression: .enabled`; when it
    ///     was, decoded responses lose `Content-Encoding` and `Content-Length`, as with the curl transport.
    public init(client: HTTPClient, decompressesResponses: Bool = false) {
        self.client = client
        self.decompressesResponses = decompressesResponses
        // AsyncHTTPClient does not show a client's configuration, so a borrowed client's is unknown.
        self.disabledSecurityChecks = []
        self.ownership = Protected(.borrowed)
        self.configurationProblem = nil
        self.proxyRoutes = nil
        self.userAgent = nil
        self.requestLimit = nil
        self.eventLoops = Array(client.eventLoopGroup.makeIterator())
        self.routedPorts = [:]
    }

    /// Creates and owns an `HTTPClient` set up from `configuration`; call `shutdown()` when done.
    ///
    /// A client certificate or key that cannot be read fails each send with `insecureConnection`
    /// naming the file, as the curl transport does.
    public init(configuration: Configuration = Configuration()) {
        let (tls, tlsProblem) = configuration.tlsConfiguration()
        let forkProblem = configuration.eventLoopGroup == nil ? DefaultEventLoops.forkProblem() : nil
        let problem = forkProblem ?? tlsProblem ?? configuration.routingProblem()
        self.client = HTTPClient(
            eventLoopGroup: configuration.eventLoopGroup ?? HTTPClient.defaultEventLoopGroup,
            configuration: configuration.clientConfiguration(tls: tls))
        self.decompressesResponses = configuration.decompressesResponses
        self.disabledSecurityChecks = configuration.tls.disabledChecks
        if forkProblem != nil { _ = Unmanaged.passRetained(client) }
        self.ownership = Protected(forkProblem == nil ? .owned : .stranded)
        self.configurationProblem = problem
        let router = ProxyRouter(configuration.proxy)
        self.proxyRoutes =
            router.mayUseProxy ? ProxyRoutes(router: router, configuration: configuration, tls: tls) : nil
        self.userAgent = configuration.userAgent
        self.requestLimit =
            configuration.maxConnections > 0
            ? ConcurrencyLimitInterceptor(
                maxConcurrentRequests: configuration.maxConnections,
                maxConcurrentRequestsPerHost: configuration.maxConnections)
            : nil
        self.eventLoops = Array(client.eventLoopGroup.makeIterator())
        self.routedPorts = Dictionary(
            configuration.routes.map { ($0.host, $0.port) }, uniquingKeysWith: { first, _ in first })
    }

    /// Shuts down the owned client, closing its connections; does nothing for a borrowed client or when already shut down.
    public func shutdown() async throws {
        // In a process fork() made, the event loops are the parent's and gone: nothing to stop.
        guard ForkGeneration.current == forkGeneration else { return }
        let mustShutDown = ownership.withLock { ownership in
            guard case .owned = ownership else { return false }
            ownership = .shutDown
            return true
        }
        guard mustShutDown else { return }
        for proxyClient in proxyRoutes?.close() ?? [] { try await proxyClient.shutdown() }
        try await client.shutdown()
    }

    public nonisolated(nonsending) func send(_ request: Request, context: TransportContext) async throws -> Response {
        // The checks and the exchange's start are synchronous functions, so a send in flight holds
        // little in its frame (2,464 bytes when they were inline, AsyncHTTPClient's request included).
        let (client, deadline) = try route(for: request, context: context)
        // Taken before the body is, so a one-shot body is still unread when the wait is cancelled,
        // and held until the response body ends, so a request streaming its response still counts.
        let releaseSlot: @Sendable () -> Void
        if let requestLimit {
            releaseSlot = try await requestLimit.acquireSlot(for: request)
        } else {
            releaseSlot = {}
        }
        let preference = eventLoopPreference(for: request, on: client)
        let delegate = ExchangeDelegate(
            request: request, context: context, decompresses: decompressesResponses, deadline: deadline,
            counted: exchangesInFlight)
        var response = try await withCancellationHandler {
            defer { ThreadSanitizerAnnotations.acquired(from: delegate) }
            return try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Response, any Error>) in
                start(
                    request, on: client, preference: preference, deadline: deadline, delegate: delegate,
                    releaseSlot: releaseSlot, continuation: continuation)
            }
        } onCancel: {
            delegate.cancel()
        }
        if Task.isCancelled {
            response.bodyStream?.discard()
            response.bodyStream = nil
            throw Self.cancelled(request)
        }
        return response
    }

    /// The client that sends `request` (the proxy's, when one routes it) and its deadline; throws
    /// when this transport cannot send it: made before a fork, badly configured, or a port its
    /// routes would confuse.
    private func route(for request: Request, context: TransportContext) throws -> (HTTPClient, NIODeadline?) {
        if let refusal = ForkGeneration.refusal(
            madeIn: forkGeneration, what: "this AsyncHTTPClientTransport", request: request)
        {
            throw refusal
        }
        if var problem = configurationProblem {
            problem.request = request
            throw problem
        }
        if !routedPorts.isEmpty, let host = request.url.host?.lowercased(), let port = routedPorts[host],
            port != request.url.port ?? (request.url.scheme?.lowercased() == "https" ? 443 : 80)
        {
            throw CourierError(
                .invalidRequest,
                "AsyncHTTPClient would send this request to \(host) where the route for port \(port) goes; the curl transport routes each port apart",
                source: "AsyncHTTPClientTransport.Configuration.routes", request: request)
        }
        let deadline = context.totalTimeout(for: request).map { NIODeadline.now() + TimeAmount($0) }
        // Over a Unix socket the connection goes to the socket, never through a proxy.
        let client = request.unixSocketPath == nil ? try proxyRoutes?.client(for: request) ?? self.client : self.client
        return (client, deadline)
    }

    /// Starts the exchange: AsyncHTTPClient's request made from `request` and executed with
    /// `delegate`, which resumes `continuation`; a request AsyncHTTPClient cannot take resumes it
    /// with the error at once. Out of line: inlined, its request would sit in the frame of the
    /// closure that waits for the exchange.
    @inline(never)
    private func start(
        _ request: Request, on client: HTTPClient, preference: HTTPClient.EventLoopPreference, deadline: NIODeadline?,
        delegate: ExchangeDelegate, releaseSlot: @escaping @Sendable () -> Void,
        continuation: UnsafeContinuation<Response, any Error>
    ) {
        var clientRequest: HTTPClient.Request
        do {
            clientRequest = try HTTPClient.Request(sending: request, pumpingOn: client.eventLoopGroup)
        } catch {
            releaseSlot()
            continuation.resume(throwing: error)
            return
        }
        if let userAgent, !clientRequest.headers.contains(name: "User-Agent") {
            clientRequest.headers.add(name: "User-Agent", value: userAgent)
        }
        delegate.start(continuation)
        let task = client.execute(request: clientRequest, delegate: delegate, eventLoop: preference, deadline: deadline)
        // Held until the exchange ends, body included, so a request streaming its response still counts.
        if requestLimit != nil { task.futureResult.whenComplete { _ in releaseSlot() } }
        delegate.attach(task)
    }

    private static func cancelled(_ request: Request) -> CourierError {
        CourierError(.cancelled, "the request was cancelled", source: "AsyncHTTPClientTransport", request: request)
    }
}

extension AsyncHTTPClientTransport {
    /// Where an exchange with `request`'s host runs its delegate: alone on the transport, on one
    /// event loop per host, so that it is also where the host's connection was made and
    /// AsyncHTTPClient's calls to the delegate need no hop to another thread; among others in
    /// flight, wherever AsyncHTTPClient finds a connection, so that many exchanges spread over
    /// every loop.
    ///
    /// Left to AsyncHTTPClient, each exchange takes the group's next loop, and whenever that is
    /// not the loop of the connection that serves it, every call to the delegate hops across: one
    /// request at a time cost 12 context switches per request, 5 on the host's loop. At 32 in
    /// flight the host's loop alone was 5% slower than the spread.
    private func eventLoopPreference(for request: Request, on client: HTTPClient) -> HTTPClient.EventLoopPreference {
        guard exchangesInFlight.value.load(ordering: .relaxed) < 2 else { return .indifferent }
        let loops = client === self.client ? eventLoops : Array(client.eventLoopGroup.makeIterator())
        guard loops.count > 1 else { return .indifferent }
        var hasher = Hasher()
        hasher.combine(request.host)
        hasher.combine(request.url.port)
        return .delegate(on: loops[Int(UInt(bitPattern: hasher.finalize()) % UInt(loops.count))])
    }
}

extension AsyncHTTPClientTransport {
    /// How the `HTTPClient` owned by a transport is set up.
    public struct Configuration: Sendable {
        /// How TLS is set up: the authorities trusted, the client certificate, the oldest version.
        /// With `verifiesPeer` off, host names are not checked either.
        public var tls = TLSSettings()
        /// Whether the server's certificate must chain to a trusted authority: `tls.verifiesPeer`.
        public var verifiesCertificates: Bool {
            get { tls.verifiesPeer }
            set { tls.verifiesPeer = newValue }
        }
        /// Whether the certificate must name the host the URL names: `tls.verifiesHost`.
        public var verifiesHostNames: Bool {
            get { tls.verifiesHost }
            set { tls.verifiesHost = newValue }
        }
        /// A PEM file of the authorities to trust instead of the system's: `tls.caFile`.
        public var caInfo: String? {
            get { tls.caFile }
            set { tls.caFile = newValue }
        }
        /// The HTTP versions allowed: `.automatic` negotiates HTTP/2 over TLS (ALPN), `.http1Only` never does.
        ///
        /// These are curl's `.automatic` and `.http1_1`. AsyncHTTPClient has nothing like curl's
        /// `.http2` (refuse to fall back to HTTP/1.1) or `.http2PriorKnowledge` (cleartext h2c):
        /// use the curl transport for servers that need them.
        public var httpVersion: HTTPClient.Configuration.HTTPVersion = .automatic
        /// How long establishing a connection (TCP and TLS) may take; one value for the whole client.
        public var connectTimeout: Duration = .seconds(10)
        /// Whether `gzip` and `deflate` bodies are decoded, sending `Accept-Encoding: deflate, gzip` when the request sets none.
        public var decompressesResponses: Bool = true
        /// The most a compressed body may grow when decoded; one ratio for the whole client.
        public var maxDecompressionRatio: Int = Limits().maxDecompressionRatio
        /// How long an unused connection stays open for reuse; AsyncHTTPClient then closes it.
        ///
        /// AsyncHTTPClient keeps every connection that falls idle, up to ``maxConnectionsPerHost``
        /// per host, until this timeout: it has no limit on the number of idle connections, so
        /// curl's `maxIdleConnections` has no counterpart here. Shorten this timeout, or lower
        /// ``maxConnectionsPerHost``, to keep fewer open.
        public var idleTimeout: Duration = .seconds(60)
        /// The most HTTP/1.1 connections to one host (port and scheme included); 0 is unlimited,
        /// as with curl. More requests wait for a connection.
        public var maxConnectionsPerHost: Int = 8
        /// The most requests in flight at once across every host; 0 is unlimited. More requests
        /// wait, in arrival order, with the task cancellable.
        ///
        /// AsyncHTTPClient has no total connection limit, so the transport limits requests
        /// instead, which bounds the connections in use: over HTTP/1.1 each request in flight holds
        /// one connection from sending until its response body has been read to the end (or
        /// abandoned). Idle connections are not counted: each host keeps its own until
        /// ``idleTimeout``, where curl closes the oldest idle connection to stay under its total.
        /// The wait for a slot does not count against the request's total timeout.
        public var maxConnections: Int = 0
        /// The `User-Agent` sent when the request has none; `nil` sends none, as with curl.
        public var userAgent: String?
        /// The proxy requests go through; by default the environment's, read as curl reads it.
        /// AsyncHTTPClient reaches `http` proxies (with or without credentials, tunnelling every
        /// request with `CONNECT`) and `socks5`/`socks5h` proxies without credentials; a request
        /// routed to another kind fails with `invalidRequest`.
        public var proxy = ProxySettings()
        /// Where connections for chosen hosts go instead of where DNS says, with the URL, `Host`
        /// and the TLS server name kept (AsyncHTTPClient's `dnsOverride`). AsyncHTTPClient maps a
        /// host to one address or host on the same port, for every port: a route to several
        /// addresses or to another port, two routes for one host, and a request to a routed host
        /// on a port its route does not name are refused by name (`invalidRequest`).
        public var routes: [ConnectionRoute] = []
        /// The event loops to run on; `nil` shares `HTTPClient.defaultEventLoopGroup`, as `HTTPClient.shared` does.
        public var eventLoopGroup: (any EventLoopGroup)?

        /// The defaults: certificates verified, HTTP/2 allowed, bodies decoded.
        public init() {}

        /// The AsyncHTTPClient configuration these settings describe; redirects and connection retries are always off.
        func clientConfiguration(tls: TLSConfiguration) -> HTTPClient.Configuration {
            var pool = HTTPClient.Configuration.ConnectionPool(
                idleTimeout: TimeAmount(idleTimeout),
                concurrentHTTP1ConnectionsPerHostSoftLimit: maxConnectionsPerHost > 0
                    ? maxConnectionsPerHost : Int(Int32.max))
            pool.retryConnectionEstablishment = false
            var configuration = HTTPClient.Configuration(
                tlsConfiguration: tls,
                redirectConfiguration: .disallow,
                timeout: HTTPClient.Configuration.Timeout(connect: TimeAmount(connectTimeout)),
                connectionPool: pool,
                decompression: decompressesResponses
                    ? .enabled(limit: .ratio(max(1, maxDecompressionRatio))) : .disabled)
            configuration.httpVersion = httpVersion
            for route in routes {
                switch route.target {
                case .addresses(let addresses): configuration.dnsOverride[route.host] = addresses.first
                case .host(let host, _): configuration.dnsOverride[route.host] = host
                }
            }
            configuration.tracing.tracer = Self.tracer(keeping: configuration.tracing.tracer)
            return configuration
        }

        /// Why AsyncHTTPClient cannot honour ``routes`` or ``TLSSettings/publicKeyPins`` as set, if it cannot.
        package func routingProblem() -> CourierError? {
            if !tls.publicKeyPins.isEmpty {
                return CourierError(
                    .invalidRequest,
                    "AsyncHTTPClient has no hook to check a server's public key against pins (\(tls.publicKeyPins)); the curl transport checks them",
                    source: "TLSSettings.publicKeyPins")
            }
            var portOfHost: [String: Int] = [:]
            for route in routes {
                let source = "AsyncHTTPClientTransport.Configuration.routes"
                switch route.target {
                case .addresses(let addresses) where addresses.count > 1:
                    return CourierError(
                        .invalidRequest,
                        "AsyncHTTPClient connects a host to one address; \(route) names \(addresses.count)",
                        source: source)
                case .host(_, let port) where port != route.port:
                    return CourierError(
                        .invalidRequest,
                        "AsyncHTTPClient connects to another host on the same port only; \(route) changes the port",
                        source: source)
                default:
                    break
                }
                if let port = portOfHost.updateValue(route.port, forKey: route.host), port != route.port {
                    return CourierError(
                        .invalidRequest,
                        "AsyncHTTPClient routes a host the same way on every port; \(route.host) has routes for ports \(port) and \(route.port)",
                        source: source)
                }
            }
            return nil
        }

        /// The tracer AsyncHTTPClient gets: the one bootstrapped in `InstrumentationSystem`
        /// (AsyncHTTPClient's default), or none when nothing was bootstrapped.
        ///
        /// A `NoOpTracer`'s spans record nothing, yet AsyncHTTPClient still builds one per request,
        /// with its attributes, on the event loop: 13 of 68 allocations a request, measured.
        /// Courier's own spans come from `TracingInterceptor`.
        static func tracer(keeping bootstrapped: (any Tracer)?) -> (any Tracer)? {
            bootstrapped is NoOpTracer ? nil : bootstrapped
        }

        /// NIOSSL's form of ``tls``, and what made it fall short. A CA directory is an extra trust
        /// root (NIOSSL loads a directory as OpenSSL's hashed `CApath`). The client certificate and
        /// key are read now, as PEM whatever their extensions; when one cannot be, the problem
        /// names it and the client is made without a certificate (the transport then fails every send).
        func tlsConfiguration() -> (TLSConfiguration, problem: CourierError?) {
            var configuration = TLSConfiguration.makeClientConfiguration()
            var problem: CourierError?
            configuration.certificateVerification =
                !tls.verifiesPeer
                ? .none
                : tls.verifiesHost ? .fullVerification : .noHostnameVerification
            switch (tls.caFile, tls.caDirectory) {
            case (let file?, let directory?):
                configuration.trustRoots = .file(file)
                configuration.additionalTrustRoots = [.file(directory)]
            case (let file?, nil):
                configuration.trustRoots = .file(file)
            case (nil, let directory?):
                configuration.trustRoots = .file(directory)
            case (nil, nil):
                break
            }
            if let certificate = tls.clientCertificate {
                do {
                    let chain = try NIOSSLCertificate.fromPEMFile(certificate.certificateFile)
                    let key =
                        if let password = certificate.keyPassword {
                            try NIOSSLPrivateKey(file: certificate.keyFile, format: .pem) { setPassword in
                                setPassword(Array(password.utf8))
                            }
                        } else {
                            try NIOSSLPrivateKey(file: certificate.keyFile, format: .pem)
                        }
                    configuration.certificateChain = chain.map { .certificate($0) }
                    configuration.privateKey = .privateKey(key)
                } catch {
                    problem = CourierError(
                        .insecureConnection,
                        "the client certificate \(certificate.certificateFile) or its key \(certificate.keyFile) cannot be read as PEM\(certificate.keyPassword == nil ? "" : " with the password given")",
                        source: "TLSSettings.clientCertificate", underlying: error)
                }
            }
            if let minimum = tls.minimumVersion {
                configuration.minimumTLSVersion =
                    switch minimum {
                    case .tls1_0: .tlsv1
                    case .tls1_1: .tlsv11
                    case .tls1_2: .tlsv12
                    case .tls1_3: .tlsv13
                    }
            }
            return (configuration, problem)
        }
    }
}

extension TimeAmount {
    /// `duration` in nanoseconds, saturating rather than overflowing.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanos, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow {
            self = .nanoseconds(seconds < 0 ? .min : .max)
        } else {
            self = .nanoseconds(nanos.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
        }
    }
}

/// The exchanges of one transport begun and not yet ended: each `ExchangeDelegate` counts itself
/// from its creation to its release, which AsyncHTTPClient does once the exchange has ended.
final class ExchangeCount: Sendable {
    let value = Atomic<Int>(0)
}

/// When SwiftNIO's shared event loops (AsyncHTTPClient's default group) were first used by a
/// transport: their threads do not survive `fork()`, so a transport made in a later process
/// cannot use them and says so on every send instead of waiting forever.
enum DefaultEventLoops {
    private static let firstUse = Protected<Int?>(nil)

    /// `usedAfterFork` when the shared loops were started in a process this one was forked from.
    static func forkProblem() -> CourierError? {
        let current = ForkGeneration.current
        let first = firstUse.withLock { first in
            if first == nil { first = current }
            return first!
        }
        guard first != current else { return nil }
        return CourierError(
            .usedAfterFork,
            "SwiftNIO's shared event loops were started before fork() made this process, and their threads "
                + "stayed in the parent; in a forked process, send with the curl transport or pass an event loop group made here",
            source: "AsyncHTTPClientTransport")
    }
}
