public import Courier
import CourierFoundation
public import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A `Transport` that sends requests with Foundation's `URLSession`: the default on Apple
/// platforms, and on Linux (FoundationNetworking) for apps that already use URLSession.
///
/// The transport keeps the `Transport` contract on a delegate-based session: one exchange with no
/// redirects (URLSession hands each `3xx` back; Courier's redirect stage follows it), the response
/// returned as soon as its head arrives with the body streaming, and every failure reported as a
/// `CourierError`. URLSession's cookie storage and `URLCache` are off for Courier's requests, so
/// the client's cookie jar and interceptors behave as on every other transport. The total
/// timeout is Courier's own deadline, body included; URLSession's idle timeout is set out of its
/// way.
///
/// What URLSession cannot do, the transport refuses or reports rather than ignores: settings it
/// cannot honour are refused by name when it is made (``init(settings:configuration:)``), the
/// transport hints it applies are in ``appliedHints``, and the rest is listed per platform in the
/// table of transport hints in the DocC article Transports (`ChoosingATransport.md`).
/// URLSession has no connect timeout apart from the total one, so `TransportContext.connectTimeout`
/// (`Client.Configuration.connectTimeout`) does not bound a connect here; set a total timeout.
/// On Linux, FoundationNetworking reads the whole request body of a stream before sending (a
/// spooled temporary file) and cannot pause a response body for a slow reader;
/// ``Limits/maxDecompressionRatio`` is not enforced, since URLSession decodes the body before the
/// delegate sees it.
public final class URLSessionTransport: Transport {
    /// The session the requests go through.
    public let session: URLSession
    /// The TLS checks this transport's settings skip.
    public let disabledSecurityChecks: [String]
    /// The process this transport was made in (`ForkGeneration`): another refuses every send.
    private let forkGeneration = ForkGeneration.current
    /// The delegate of a session this transport made; `nil` for a borrowed session (Apple
    /// platforms, where each task gets its own delegate).
    private let router: SessionDelegateRouter?
    /// Whether this transport made `session`, and so invalidates it.
    private let ownsSession: Bool
    /// The `User-Agent` added to requests that have none (``Settings/userAgent``).
    private let userAgent: String?
    /// Whether a server certificate is accepted unverified (``Settings/tls``, Apple platforms).
    private let trustsAnyServer: Bool

    /// Sends through a session made from `configuration` (an ephemeral one by default), with
    /// URLSession's cookie storage and cache turned off in it.
    public convenience init(configuration: URLSessionConfiguration = .ephemeral) {
        self.init(prepared: configuration, settings: Settings(), disabledChecks: [])
    }

    /// Sends through a session made from `configuration`, set up with Courier's `settings`.
    ///
    /// - Throws: `invalidRequest` naming each setting URLSession cannot honour on this platform
    ///   (see ``Settings``), instead of sending without it.
    public convenience init(
        settings: Settings, configuration: URLSessionConfiguration = .ephemeral
    ) throws(CourierError) {
        let prepared = configuration.copy() as! URLSessionConfiguration
        try settings.apply(to: prepared)
        self.init(prepared: prepared, settings: settings, disabledChecks: settings.tls.disabledChecks)
    }

    /// Sends through `session`, which the app made and keeps (and invalidates).
    ///
    /// Its configuration is used as it is, except that Courier's requests skip its cookie storage
    /// and `URLCache` and are never redirected by it. On Apple platforms each task gets its own
    /// delegate, so the session's delegate is left alone. On Linux, where FoundationNetworking
    /// calls only a session's delegate, the transport makes a session of its own from
    /// `session.configuration` instead, which it invalidates when released.
    public init(session: URLSession) {
        #if canImport(Darwin)
        self.session = session
        self.router = nil
        self.ownsSession = false
        #else
        let router = SessionDelegateRouter()
        let configuration = session.configuration.copy() as! URLSessionConfiguration
        Self.turnOffSessionState(configuration)
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
        self.router = router
        self.ownsSession = true
        #endif
        self.disabledSecurityChecks = []
        self.userAgent = nil
        self.trustsAnyServer = false
    }

    private init(prepared configuration: URLSessionConfiguration, settings: Settings, disabledChecks: [String]) {
        Self.turnOffSessionState(configuration)
        let router = SessionDelegateRouter()
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
        self.router = router
        self.ownsSession = true
        self.disabledSecurityChecks = disabledChecks
        self.userAgent = settings.userAgent
        self.trustsAnyServer = !settings.tls.verifiesPeer
    }

    deinit {
        if ownsSession, ForkGeneration.current == forkGeneration { session.finishTasksAndInvalidate() }
    }

    /// Cancels the requests in flight and invalidates a session this transport made; a borrowed
    /// session is left to the app.
    public func shutdown() {
        guard ownsSession, ForkGeneration.current == forkGeneration else { return }
        for exchange in router?.inFlight ?? [] { exchange.interrupt(.cancelled) }
        session.invalidateAndCancel()
    }

    /// What URLSession applies of the seeds' `URLRequest` properties: on Apple platforms the
    /// network service type and the kinds of network allowed; on Linux, FoundationNetworking
    /// keeps them on `URLRequest` and never reads them. A cache policy has no `URLCache` to act on.
    public var appliedHints: Set<TransportHint> {
        #if canImport(Darwin)
        [.networkServiceType, .cellularAccess, .expensiveNetworkAccess, .constrainedNetworkAccess]
        #else
        []
        #endif
    }

    public nonisolated(nonsending) func send(_ request: Request, context: TransportContext) async throws -> Response {
        // The checks and the task's making are synchronous functions, so a send in flight holds
        // little in its frame (896 bytes when they were inline, the `URLRequest` included).
        try checkSendable(request)
        let upload = try await UploadBody.prepare(request)
        let task = makeTask(for: request, upload: upload)
        let exchange = URLSessionExchange(request: request, context: context, trustsAnyServer: trustsAnyServer) {
            upload.removeSpooledFile()
        }
        if let router {
            router.register(exchange, for: task)
        } else {
            #if canImport(Darwin)
            task.delegate = exchange
            #endif
        }
        return try await exchange.run(task)
    }

    /// Throws for a request this transport cannot send: made before a fork, or over a Unix socket.
    private func checkSendable(_ request: Request) throws {
        if let refusal = ForkGeneration.refusal(
            madeIn: forkGeneration, what: "this URLSessionTransport", request: request)
        {
            throw refusal
        }
        if let socketPath = request.unixSocketPath {
            throw CourierError(
                .invalidRequest,
                "URLSessionTransport cannot send over a Unix socket (\(socketPath)); CurlTransport and AsyncHTTPClientTransport can",
                source: "URLSessionTransport", request: request)
        }
    }

    /// URLSession's task for `request`, its body as `upload` prepared it.
    @inline(never)  // its `URLRequest` stays off the frame of `send`
    private func makeTask(for request: Request, upload: UploadBody) -> URLSessionTask {
        var urlRequest = URLRequest(headOf: request, omitting: Self.headersURLSessionWrites)
        if let userAgent, request.headerFields[.userAgent] == nil {
            urlRequest.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        }
        // Courier's own deadline bounds the exchange; URLSession's idle timeout must not cut it short.
        urlRequest.timeoutInterval = Self.unboundedInterval
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.httpShouldHandleCookies = false
        switch upload {
        case .none:
            return session.dataTask(with: urlRequest)
        case .bytes(let data):
            urlRequest.httpBody = data
            return session.dataTask(with: urlRequest)
        case .file(let url, _):
            return session.uploadTask(with: urlRequest, fromFile: url)
        }
    }

    /// The request header fields URLSession writes itself from the body and the connection, and
    /// does not let a request set (Apple's "reserved" fields).
    private static let headersURLSessionWrites: Set<HTTPField.Name> = [.contentLength, .connection]

    /// A timeout no exchange reaches: a week.
    private static let unboundedInterval: TimeInterval = 7 * 24 * 3600

    /// Turns off what would make URLSession behave differently from Courier's other transports:
    /// its cookie storage, its cache, its stored credentials, and its idle timeouts (Courier's
    /// deadline is the only one).
    private static func turnOffSessionState(_ configuration: URLSessionConfiguration) {
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        // Courier's interceptors answer authentication challenges; URLSession hands the 401 back.
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = unboundedInterval
        configuration.timeoutIntervalForResource = unboundedInterval
    }
}
