/// Where the time of one exchange went, and what its connection was: the answer to "why was this
/// request slow?", as libcurl's `CURLINFO_*_TIME_T`, URLSession's `URLSessionTaskMetrics` and
/// OkHttp's `EventListener` give it.
///
/// Each phase is what the transport measured, or `nil` when it cannot measure it (never 0 for
/// "unknown"); which phases each transport measures is in the Transports article. A reused
/// connection has no DNS, connect or TLS phase. The body phase and the totals are known once the
/// body has been read: `Client.send` fills them in; a streamed response has them in
/// ``ResponseBodyStream/metrics`` after its end.
///
/// Stored in the response itself, as integers: measuring allocates nothing.
public struct ResponseMetrics: Sendable, Equatable {
    /// The phases in nanoseconds, -1 when not measured.
    private struct Nanoseconds: Sendable, Equatable {
        var queued: Int64 = -1
        var dns: Int64 = -1
        var connect: Int64 = -1
        var tls: Int64 = -1
        var send: Int64 = -1
        var wait: Int64 = -1
        var receive: Int64 = -1
        var total: Int64 = -1
        var redirects: Int64 = -1
    }

    private var nanoseconds = Nanoseconds()

    /// Waiting for a connection (or a slot) before anything was sent: HAR's `blocked`.
    public var queued: Duration? {
        get { Self.duration(nanoseconds.queued) }
        set { nanoseconds.queued = Self.nanoseconds(newValue) }
    }
    /// Resolving the host name.
    public var dnsLookup: Duration? {
        get { Self.duration(nanoseconds.dns) }
        set { nanoseconds.dns = Self.nanoseconds(newValue) }
    }
    /// The TCP connect, after the lookup.
    public var connect: Duration? {
        get { Self.duration(nanoseconds.connect) }
        set { nanoseconds.connect = Self.nanoseconds(newValue) }
    }
    /// The TLS handshake, after the connect.
    public var tlsHandshake: Duration? {
        get { Self.duration(nanoseconds.tls) }
        set { nanoseconds.tls = Self.nanoseconds(newValue) }
    }
    /// Writing the request, head and body.
    public var requestSent: Duration? {
        get { Self.duration(nanoseconds.send) }
        set { nanoseconds.send = Self.nanoseconds(newValue) }
    }
    /// Waiting for the first byte of the response after the request was sent (where the transport
    /// cannot tell the end of sending, from the start of sending: ``requestSent`` is then `nil`).
    public var waiting: Duration? {
        get { Self.duration(nanoseconds.wait) }
        set { nanoseconds.wait = Self.nanoseconds(newValue) }
    }
    /// Receiving the body, from the first byte of the response to the last.
    public var bodyTransfer: Duration? {
        get { Self.duration(nanoseconds.receive) }
        set { nanoseconds.receive = Self.nanoseconds(newValue) }
    }
    /// The whole exchange of this hop, from the transport's start to the body's end.
    public var total: Duration? {
        get { Self.duration(nanoseconds.total) }
        set { nanoseconds.total = Self.nanoseconds(newValue) }
    }
    /// The time spent on the redirects before this hop, when redirects were followed.
    public var redirectTime: Duration? {
        get { Self.duration(nanoseconds.redirects) }
        set { nanoseconds.redirects = Self.nanoseconds(newValue) }
    }
    /// How many redirects were followed to reach this response.
    public var redirectCount = 0
    /// Whether the exchange went over a connection an earlier one had opened.
    public var reusedConnection: Bool?
    /// The address the connection went to, as text (`127.0.0.1`, `::1`).
    public var remoteAddress: String?
    /// The port the connection went to.
    public var remotePort: Int?
    /// The HTTP version spoken: `1.0`, `1.1`, `2` or `3`.
    public var httpVersion: String?
    /// The TLS version negotiated (`TLSv1.3`), `nil` for plain HTTP or where not measured.
    public var tlsVersion: String?
    /// Bytes written for the request: head and body as sent.
    public var requestBytes: Int64?
    /// Bytes received for the response, head and body, before content decoding.
    public var responseBytes: Int64?
    /// Bytes of the body after content decoding (equal to the body's size when not encoded).
    public var decodedBodyBytes: Int64?

    /// Nothing measured.
    public init() {}

    /// The phases in order, with their names as HAR and `courier --timings` print them; the
    /// unmeasured ones included, as `nil`.
    public var phases: [(name: String, duration: Duration?)] {
        [
            ("queued", queued), ("dns", dnsLookup), ("connect", connect), ("tls", tlsHandshake),
            ("send", requestSent), ("wait", waiting), ("receive", bodyTransfer),
        ]
    }

    /// A phase, for transports that record raw numbers with ``record(_:microseconds:)``.
    package enum Phase {
        case queued, dnsLookup, connect, tlsHandshake, requestSent, waiting, bodyTransfer, total
    }

    /// Records `phase` from a count of microseconds (negative: not measured) without making a
    /// `Duration`: `Duration.microseconds` is generic over `BinaryInteger` and its conversion back
    /// divides 128-bit numbers, which cost curl's transport microseconds per response.
    package mutating func record(_ phase: Phase, microseconds: Int64) {
        let value =
            microseconds < 0 ? -1 : microseconds > Int64.max / 1000 ? Int64.max : microseconds * 1000
        switch phase {
        case .queued: nanoseconds.queued = value
        case .dnsLookup: nanoseconds.dns = value
        case .connect: nanoseconds.connect = value
        case .tlsHandshake: nanoseconds.tls = value
        case .requestSent: nanoseconds.send = value
        case .waiting: nanoseconds.wait = value
        case .bodyTransfer: nanoseconds.receive = value
        case .total: nanoseconds.total = value
        }
    }

    /// Takes the transport's measurements of the whole exchange, `final`, keeping what the client
    /// measured above the transport (the redirects).
    package mutating func complete(with final: ResponseMetrics) {
        let (redirectCount, redirects) = (self.redirectCount, nanoseconds.redirects)
        self = final
        self.redirectCount = redirectCount
        nanoseconds.redirects = redirects
    }

    /// Whether the whole exchange's time is known (``total`` is not `nil`), without making a `Duration`.
    package var hasTotal: Bool { nanoseconds.total >= 0 }

    private static func duration(_ nanoseconds: Int64) -> Duration? {
        nanoseconds < 0 ? nil : .nanoseconds(nanoseconds)
    }

    private static func nanoseconds(_ duration: Duration?) -> Int64 {
        guard let duration, duration >= .zero else { return -1 }
        return duration.clampedNanoseconds
    }
}
