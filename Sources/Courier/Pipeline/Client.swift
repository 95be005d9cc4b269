public import HTTPTypes
public import Logging
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends requests: an ordered chain of interceptors around a transport.
///
/// ```swift
/// let client = Client(transport: CurlTransport(), interceptors: [LoggingInterceptor()])
/// let user = try await client.send(try Request { BaseURL(api); "users"; "42" }, decoding: User.self)
/// ```
///
/// A `Client` is a value and `Sendable`: share it freely; copies share the transport (and its
/// connections). Thread rules: every method may be called from any task; none blocks a thread.
public struct Client: Sendable {
    /// Settings that apply to every request the client sends.
    public struct Configuration: Sendable {
        /// The bounds on what servers may send.
        public var limits = Limits()
        /// The total deadline of a request that sets no `Timeout`.
        public var timeout: Duration? = .seconds(60)
        /// How long connecting (TCP and TLS) may take.
        public var connectTimeout: Duration = .seconds(10)
        /// How redirects are followed.
        public var redirects = RedirectPolicy()
        /// The logger interceptors receive in their context.
        public var logger = Logger(label: "courier")
        /// Where cookies are kept between requests; `nil` (the default) keeps none. Applied at each
        /// redirect hop, below the interceptors, so cookies set on the way are not lost.
        public var cookieJar: CookieJar?
        /// Header fields every request gets unless it sets a field of the same name itself (a
        /// `User-Agent`, an API key); added before the interceptors, so they see and log them.
        public var defaultHeaders = HTTPFields()
        /// The Unix domain socket every request goes over unless it names its own (``UnixSocket``):
        /// a client of one local daemon, such as Docker's `/var/run/docker.sock`.
        public var unixSocketPath: String?
        /// Credentials for requests that carry none (no `Authorization`, no user in the URL), by
        /// host, as `curl --netrc-optional` reads them (``Netrc``); `nil` (the default) reads none.
        /// Added before the interceptors; a redirect to another origin drops them.
        public var netrc: Netrc?

        /// The defaults.
        public init() {}
    }

    /// What sends the bytes.
    public let transport: any Transport
    /// The interceptors every request goes through, outermost first.
    public var interceptors: [any Interceptor]
    /// Settings for every request.
    public var configuration: Configuration

    /// Creates a client sending through `transport`, with `interceptors` in order, outermost first.
    public init(
        transport: any Transport, interceptors: [any Interceptor] = [], configuration: Configuration = Configuration()
    ) {
        self.transport = transport
        self.interceptors = interceptors
        self.configuration = configuration
    }

    /// Sends `request` and reads the whole response body (bounded by `Limits.maxBodyBytes`).
    ///
    /// Any status is returned as a response; use the decoding variants or a validation interceptor
    /// to turn unacceptable statuses into errors.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - extra: interceptors for this request only (`interceptors:`), inside the client's.
    /// - Throws: `CourierError`; task cancellation aborts the transfer and throws `cancelled`.
    public nonisolated(nonsending) func send(
        _ request: Request, interceptors extra: [any Interceptor] = []
    ) async throws -> Response {
        let response = try await stream(request, interceptors: extra)
        return try await response.collectingBody(upTo: configuration.limits.maxBodyBytes)
    }

    /// Builds a request from blocks and sends it: `try await client.send { BaseURL(api); "health" }`.
    public nonisolated(nonsending) func send(
        interceptors extra: [any Interceptor] = [],
        @RequestBuilder _ content: () throws -> RequestBlockGroup
    ) async throws -> Response {
        try await send(Request(content), interceptors: extra)
    }

    /// Sends `request` and returns as soon as the response head arrives, with the body in `bodyStream`.
    ///
    /// Read the stream to the end, or `discard()` it; dropping it unread aborts the transfer.
    public nonisolated(nonsending) func stream(
        _ request: Request, interceptors extra: [any Interceptor] = []
    ) async throws -> Response {
        let start = try startingChain(for: request, interceptors: extra)
        return try await start.chain.run(from: 0, start.request, context: start.context)
    }

    /// The send's chain (the client's interceptors, the request's, then `extra`), its context, and
    /// the request as the configuration completes it. Synchronous, so that none of this work stays
    /// in the frame a send in flight holds.
    private func startingChain(
        for request: Request, interceptors extra: [any Interceptor]
    ) throws -> (chain: InterceptorChain, request: Request, context: InterceptorContext) {
        let context = InterceptorContext(
            attempt: 1, requestID: RequestID.next(), logger: configuration.logger,
            limits: configuration.limits, transport: transport)
        let perRequest = request.options[InterceptorsOption.self]
        let stages = perRequest.isEmpty && extra.isEmpty ? interceptors : interceptors + perRequest + extra
        let chain = InterceptorChain(interceptors: stages, transport: transport, configuration: configuration)
        return (chain, try addingConfiguration(to: request), context)
    }

    /// `request` with what the configuration adds to every send: its Unix socket, its default
    /// headers, and the netrc's credentials for the host.
    private func addingConfiguration(to request: Request) throws -> Request {
        guard
            !configuration.defaultHeaders.isEmpty || configuration.unixSocketPath != nil || request.isUnixSocketURL
                || configuration.netrc != nil
        else { return request }
        var completed = try request.routedOverUnixSocket(default: configuration.unixSocketPath)
        for field in configuration.defaultHeaders where request.headerFields[field.name] == nil {
            completed.headerFields.append(field)
        }
        if let netrc = configuration.netrc, completed.headerFields[.authorization] == nil, completed.url.user == nil,
            let host = completed.url.host, let authorization = netrc.authorization(for: host)
        {
            completed.headerFields[.authorization] = authorization
        }
        return completed
    }

    /// The stage after the interceptors: follows redirects, sending each hop through the transport.
    ///
    /// What each hop decides is in synchronous helpers, whose locals stay on the thread's stack
    /// instead of in this frame, which a send in flight holds while it waits.
    nonisolated(nonsending) static func followingRedirects(
        _ request: Request, through transport: any Transport,
        configuration: Configuration
    ) async throws -> Response {
        var current = request
        var history: [Response] = []
        // The redirects' time, for `ResponseMetrics.redirectTime`: from the first hop to the last's start.
        let start = MonotonicClock.now()
        var hopStart = start
        while true {
            if !history.isEmpty { hopStart = MonotonicClock.now() }
            let response = try await Self.send(current, through: transport, configuration: configuration)
            guard let next = try Self.redirect(after: response, to: current, policy: configuration.redirects) else {
                return Self.last(response, after: history, redirectNanoseconds: hopStart - start)
            }
            history.append(await Self.settled(response))
            try Self.checkRedirectCount(
                history, next: next, limit: configuration.limits.maxRedirects, request: request)
            current = next
        }
    }

    /// The request a hop's response redirects to, or `nil`; a refused redirect discards the body
    /// and throws, marked as the redirects' stage.
    private static func redirect(
        after response: Response, to request: Request, policy: RedirectPolicy
    ) throws -> Request? {
        do {
            return try RedirectFollower.nextRequest(after: response, to: request, policy: policy)
        } catch var error as CourierError {
            response.bodyStream?.discard()
            error.stage = "redirects"
            throw error
        }
    }

    /// The final response, with the hops before it and their time when there were any.
    private static func last(
        _ response: Response, after history: [Response], redirectNanoseconds: Int64
    ) -> Response {
        guard !history.isEmpty else { return response }
        var final = response
        final.history = history
        final.metrics.redirectCount = history.count
        final.metrics.record(.redirects, nanoseconds: redirectNanoseconds)
        return final
    }

    /// Throws `tooManyRedirects` once the hops followed pass `Limits.maxRedirects`.
    private static func checkRedirectCount(
        _ history: [Response], next: Request, limit: Int, request: Request
    ) throws {
        guard history.count > limit else { return }
        var error = CourierError(
            .tooManyRedirects,
            "stopped after \(limit) redirects (last to \(next.url.absoluteString))",
            source: "Limits.maxRedirects", request: request, response: history.last)
        error.stage = "redirects"
        throw error
    }

    /// A redirect response as ``Response/history`` keeps it: its body read when it is small, which
    /// also lets the connection be reused, and otherwise discarded unread.
    private nonisolated(nonsending) static func settled(_ response: Response) async -> Response {
        var settled = response
        settled.bodyStream = nil
        guard let stream = response.bodyStream else {
            if response.body.count > Response.historyBodyLimit { settled.body = Data() }
            return settled
        }
        if let length = response.headerFields[.contentLength].flatMap(Int64.init), length > Response.historyBodyLimit {
            stream.discard()
            return settled
        }
        // A body past the limit, or one that fails, aborts only this hop's transfer; the redirect is still followed.
        settled.body = (try? await stream.collect(upTo: Response.historyBodyLimit)) ?? Data()
        return settled
    }

    private nonisolated(nonsending) static func send(
        _ request: Request, through transport: any Transport, configuration: Configuration
    ) async throws -> Response {
        let context = TransportContext(
            limits: configuration.limits, timeout: configuration.timeout,
            connectTimeout: configuration.connectTimeout,
            uploadProgress: request.options[UploadProgressOption.self],
            downloadProgress: request.options[DownloadProgressOption.self])
        var request = request
        let cookieJar = request.options[ShouldHandleCookiesOption.self] ? configuration.cookieJar : nil
        cookieJar?.addCookies(to: &request)
        do {
            let response = try await transport.send(request, context: context)
            if let cookieJar, response.hasHeaderField(named: .setCookie) {
                cookieJar.store(response.headerFields, from: request.url)
            }
            return response
        } catch {
            throw Self.transportFailure(error, request: request)
        }
    }

    /// The error a transport threw, as the transport's stage: a `CourierError` gains the stage and
    /// request it lacks, and any other error is wrapped (`cancelled` when the task was).
    private static func transportFailure(_ error: any Error, request: Request) -> CourierError {
        if let error = error as? CourierError { return error.filledIn(stage: "transport", request: request) }
        var wrapped = CourierError(
            .invalidResponse, "the transport failed: \(error)", request: request, underlying: error)
        if Task.isCancelled { wrapped.code = .cancelled }
        wrapped.stage = "transport"
        return wrapped
    }
}

/// Short identifiers for sends, unique within the process, spelled `req-` and a base-36 count.
///
/// A client's sends are counted, and the count is spelled only when the identifier is read:
/// spelling it cost about a thousand instructions on every send, most of which nothing logs.
enum RequestID: Sendable {
    case counted(UInt64)
    /// An identifier given whole, by a test or an interceptor.
    case named(String)

    private static let counter = Atomic<UInt64>(0)

    /// The next send's identifier.
    static func next() -> RequestID {
        .counted(counter.add(1, ordering: .relaxed).newValue)
    }

    var text: String {
        switch self {
        case .counted(let count): "req-" + String(count, radix: 36)
        case .named(let text): text
        }
    }
}
