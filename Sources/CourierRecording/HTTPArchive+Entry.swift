public import Courier

extension HTTPArchive {
    /// One exchange: the request, the response, and how long each part took.
    public struct Entry: Codable, Sendable, Equatable {
        /// When the request started, in ISO 8601 with milliseconds (`2026-01-31T12:00:00.123Z`).
        public var startedDateTime: String
        /// The whole exchange in milliseconds: the sum of the known `timings`.
        public var time: Double
        /// The request as it was sent.
        public var request: Request
        /// The response as it was received.
        public var response: Response
        /// HAR's cache information, left empty: the `Cache-Status` header of the response says what a
        /// `CacheInterceptor` did.
        public var cache: Cache
        /// How long each stage took.
        public var timings: Timings
        /// The address the connection went to, where the transport measured it.
        public var serverIPAddress: String?
        /// The connection, as `address:port`, where the transport measured it.
        public var connection: String?
        /// A note for people.
        public var comment: String?

        /// An entry from its parts.
        public init(
            startedDateTime: String, time: Double, request: Request, response: Response,
            cache: Cache = Cache(), timings: Timings, comment: String? = nil
        ) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.cache = cache
            self.timings = timings
            self.comment = comment
        }
    }

    /// The `cache` object; always empty in Courier's archives.
    public struct Cache: Codable, Sendable, Equatable {
        /// An empty cache object.
        public init() {}
    }

    /// Milliseconds spent in each stage of an exchange; `-1` where the stage is unknown.
    ///
    /// Each phase the transport measured comes from the response's `ResponseMetrics` (libcurl
    /// measures DNS, connect and TLS; `connect` includes `ssl`, as HAR has it). A phase it did not
    /// is measured by the recorder where it can: `send` as the time to read the request body,
    /// `wait` until the response head, `receive` until the body's last byte reached the reader;
    /// the rest are `-1`.
    public struct Timings: Codable, Sendable, Equatable {
        /// Time queued before a connection was available.
        public var blocked: Double
        /// DNS resolution.
        public var dns: Double
        /// Establishing the connection, TLS included.
        public var connect: Double
        /// Sending the request.
        public var send: Double
        /// Waiting for the first byte of the response.
        public var wait: Double
        /// Receiving the response body.
        public var receive: Double
        /// The TLS handshake.
        public var ssl: Double
        /// A note for people.
        public var comment: String?

        /// Timings with the known stages given and the others unknown.
        public init(
            blocked: Double = -1, dns: Double = -1, connect: Double = -1, send: Double, wait: Double, receive: Double,
            ssl: Double = -1, comment: String? = nil
        ) {
            self.blocked = blocked
            self.dns = dns
            self.connect = connect
            self.send = send
            self.wait = wait
            self.receive = receive
            self.ssl = ssl
            self.comment = comment
        }

        /// Takes every phase `metrics` measured, keeping the recorder's own figures for the others.
        public mutating func take(_ metrics: ResponseMetrics) {
            func milliseconds(_ duration: Duration?) -> Double? {
                duration.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }
            }
            if let queued = milliseconds(metrics.queued) { blocked = queued }
            if let lookup = milliseconds(metrics.dnsLookup) { dns = lookup }
            let handshake = milliseconds(metrics.tlsHandshake)
            if let handshake { ssl = handshake }
            if let tcp = milliseconds(metrics.connect) { connect = tcp + (handshake ?? 0) }
            if let sent = milliseconds(metrics.requestSent) { send = sent }
            if let waited = milliseconds(metrics.waiting) { wait = waited }
            if let received = milliseconds(metrics.bodyTransfer) { receive = received }
        }

        /// The total the entry's `time` holds: every known stage.
        public var total: Double {
            [blocked, dns, connect, send, wait, receive].filter { $0 > 0 }.reduce(0, +)
        }
    }
}
