/// What actually moves bytes: sends one request and returns as soon as the response head arrives.
///
/// Contract, for implementers:
/// - Send exactly one exchange; never follow redirects (the `Client` does, the same way for every
///   transport) and never retry.
/// - Return a streaming `Response` (`bodyStream` set) as soon as the head is received; honour the
///   stream's backpressure, and abort the transfer when the stream's `onAbort` fires.
/// - Honour task cancellation: a cancelled `send` aborts the transfer (closing or releasing the
///   connection) and throws `cancelled`; it does not merely stop waiting.
/// - Read the request body from `request.body?.chunks()`; send `Content-Length` when it is known.
/// - Enforce `context.limits` on the response head and on decompression, and `request.timeout`
///   (else `context.timeout`) as the total deadline.
/// - Report every failure as a `CourierError` with the request attached.
/// - Never block the caller's thread: `send` runs on the caller's executor (Swift's cooperative
///   pool, an actor's, or the task executor of a C caller's thread; ARCHITECTURE.md maps them).
public protocol Transport: Sendable {
    /// Sends `request` and returns the response head with its body still streaming.
    ///
    /// Runs on the caller's executor; hand blocking or long work to the transport's own threads.
    nonisolated(nonsending) func send(_ request: Request, context: TransportContext) async throws -> Response

    /// The security checks this transport was told to skip, each a sentence for people ("TLS
    /// certificate verification is off: …"), so that `LoggingInterceptor` and `courier` can warn
    /// once per client instead of letting the setting pass unseen. Empty by default.
    var disabledSecurityChecks: [String] { get }

    /// The transport hints (``TransportHint``) this transport applies to what it sends; a request's
    /// other hints are reported by `Client.explaining()` as not applied. None by default.
    var appliedHints: Set<TransportHint> { get }
}

extension Transport {
    /// None: a transport that can skip a check reports it.
    public var disabledSecurityChecks: [String] { [] }

    /// None: a transport that acts on a hint says so.
    public var appliedHints: Set<TransportHint> { [] }
}

/// What a transport needs to know about one send beyond the request itself.
public struct TransportContext: Sendable {
    /// The bounds on what the server may send.
    public var limits: Limits
    /// The total deadline when the request sets none.
    public var timeout: Duration?
    /// How long establishing the connection (TCP and TLS) may take.
    public var connectTimeout: Duration
    /// Called as request body bytes are sent: bytes so far, and the total when known.
    public var uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)?
    /// Called as response body bytes are received: bytes so far, and the total when known.
    public var downloadProgress: (@Sendable (_ received: Int64, _ total: Int64?) -> Void)?

    /// Creates a context.
    public init(
        limits: Limits = Limits(),
        timeout: Duration? = nil,
        connectTimeout: Duration = .seconds(10),
        uploadProgress: (@Sendable (_ sent: Int64, _ total: Int64?) -> Void)? = nil,
        downloadProgress: (@Sendable (_ received: Int64, _ total: Int64?) -> Void)? = nil
    ) {
        self.limits = limits
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.uploadProgress = uploadProgress
        self.downloadProgress = downloadProgress
    }

    /// The deadline for `request`: its own timeout, else this context's.
    public func totalTimeout(for request: Request) -> Duration? { request.timeout ?? timeout }
}
