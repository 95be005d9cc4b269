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
/// Plain data (integers, the address's bytes, the versions as small codes), stored with the
/// response's other fields: measuring allocates nothing.
public struct ResponseMetrics: Sendable, Equatable, BitwiseCopyable {
    /// The phases in nanoseconds, -1 when not measured.
    private struct Nanoseconds: Sendable, Equatable, BitwiseCopyable {
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

    /// The byte counts, -1 when not measured.
    private struct ByteCounts: Sendable, Equatable, BitwiseCopyable {
        var request: Int64 = -1
        var response: Int64 = -1
        var decodedBody: Int64 = -1
    }

    /// The HTTP versions ``httpVersion`` names.
    private enum HTTPVersionName: String, Sendable, BitwiseCopyable {
        case http1_0 = "1.0", http1_1 = "1.1", http2 = "2", http3 = "3"
    }

    /// The TLS versions ``tlsVersion`` names, as OpenSSL does.
    private enum TLSVersionName: String, Sendable, BitwiseCopyable {
        case tls1_0 = "TLSv1", tls1_1 = "TLSv1.1", tls1_2 = "TLSv1.2", tls1_3 = "TLSv1.3"
    }

    // Stored largest first, so the whole value packs into 128 bytes.
    private var nanoseconds = Nanoseconds()
    private var byteCounts = ByteCounts()
    /// The address the connection went to, as its bytes.
    package var remoteIPAddress: IPAddress?
    private var port: Int32 = -1
    private var redirectHops: Int32 = 0
    private var httpVersionName: HTTPVersionName?
    private var tlsVersionName: TLSVersionName?
    /// Whether the exchange went over a connection an earlier one had opened.
    public var reusedConnection: Bool?

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
    public var redirectCount: Int {
        get { Int(redirectHops) }
        set { redirectHops = Int32(clamping: newValue) }
    }
    /// The address the connection went to, as text (`127.0.0.1`, `::1`).
    ///
    /// Set it to an IPv4 or IPv6 address as `inet_pton` reads it; anything else (a host name, a
    /// zone) sets `nil`.
    public var remoteAddress: String? {
        get { remoteIPAddress?.text }
        set { remoteIPAddress = newValue.flatMap(IPAddress.init) }
    }
    /// The port the connection went to.
    public var remotePort: Int? {
        get { port < 0 ? nil : Int(port) }
        set { port = newValue.map { Int32(clamping: $0) } ?? -1 }
    }
    /// The HTTP version spoken: `1.0`, `1.1`, `2` or `3` (any other text sets `nil`).
    public var httpVersion: String? {
        get { httpVersionName?.rawValue }
        set { httpVersionName = newValue.flatMap(HTTPVersionName.init(rawValue:)) }
    }
    /// The TLS version negotiated (`TLSv1`, `TLSv1.1`, `TLSv1.2` or `TLSv1.3`, as OpenSSL names
    /// them; any other text sets `nil`), `nil` for plain HTTP or where not measured.
    public var tlsVersion: String? {
        get { tlsVersionName?.rawValue }
        set { tlsVersionName = newValue.flatMap(TLSVersionName.init(rawValue:)) }
    }
    /// Bytes written for the request: head and body as sent.
    public var requestBytes: Int64? {
        get { byteCounts.request < 0 ? nil : byteCounts.request }
        set { byteCounts.request = newValue.map { max(0, $0) } ?? -1 }
    }
    /// Bytes received for the response, head and body, before content decoding.
    public var responseBytes: Int64? {
        get { byteCounts.response < 0 ? nil : byteCounts.response }
        set { byteCounts.response = newValue.map { max(0, $0) } ?? -1 }
    }
    /// Bytes of the body after content decoding (equal to the body's size when not encoded).
    public var decodedBodyBytes: Int64? {
        get { byteCounts.decodedBody < 0 ? nil : byteCounts.decodedBody }
        set { byteCounts.decodedBody = newValue.map { max(0, $0) } ?? -1 }
    }

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

    /// A phase, for transports and stages that record raw numbers with ``record(_:microseconds:)``
    /// and ``record(_:nanoseconds:)``.
    package enum Phase {
        case queued, dnsLookup, connect, tlsHandshake, requestSent, waiting, bodyTransfer, total, redirects
    }

    /// Records `phase` from a count of microseconds (negative: not measured) without making a
    /// `Duration`: `Duration.microseconds` is generic over `BinaryInteger` and its conversion back
    /// divides 128-bit numbers, which cost curl's transport microseconds per response.
    package mutating func record(_ phase: Phase, microseconds: Int64) {
        record(
            phase,
            nanoseconds: microseconds < 0 ? -1 : microseconds > Int64.max / 1000 ? Int64.max : microseconds * 1000)
    }

    /// Records `phase` from a count of nanoseconds (negative: not measured), such as a difference
    /// of two ``MonotonicClock`` readings, without making a `Duration`.
    package mutating func record(_ phase: Phase, nanoseconds value: Int64) {
        let value = max(-1, value)
        switch phase {
        case .queued: nanoseconds.queued = value
        case .dnsLookup: nanoseconds.dns = value
        case .connect: nanoseconds.connect = value
        case .tlsHandshake: nanoseconds.tls = value
        case .requestSent: nanoseconds.send = value
        case .waiting: nanoseconds.wait = value
        case .bodyTransfer: nanoseconds.receive = value
        case .total: nanoseconds.total = value
        case .redirects: nanoseconds.redirects = value
        }
    }

    /// Records the HTTP version from its numbers, as a transport's parsed head has them, without
    /// making text: 1.0, 1.1, 2 or 3; any other leaves ``httpVersion`` `nil`.
    package mutating func recordHTTPVersion(major: Int, minor: Int) {
        httpVersionName =
            switch (major, minor) {
            case (1, 0): .http1_0
            case (1, 1): .http1_1
            case (2, _): .http2
            case (3, _): .http3
            default: nil
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
