import CCurl

extension CurlTransport {
    /// How a `CurlTransport` sets up curl; the defaults suit most clients.
    public struct Configuration: Sendable {
        /// Which HTTP version to speak.
        public enum HTTPVersion: Sendable, Hashable {
            /// curl's choice: HTTP/2 over TLS when the server offers it (ALPN), HTTP/1.1 otherwise.
            case automatic
            /// HTTP/1.1 only.
            case http1_1
            /// HTTP/2 over TLS, negotiated with ALPN; HTTP/1.1 for plain `http` URLs.
            case http2
            /// HTTP/2 without negotiation (h2c on plain `http`), for servers known to speak it.
            case http2PriorKnowledge
        }

        /// Which HTTP version to speak.
        public var httpVersion: HTTPVersion = .automatic
        /// How TLS is set up: the authorities trusted, the client certificate, the oldest version.
        public var tls = TLSSettings()
        /// Whether the server's certificate must chain to a trusted root: `tls.verifiesPeer`.
        public var verifyPeer: Bool {
            get { tls.verifiesPeer }
            set { tls.verifiesPeer = newValue }
        }
        /// Whether the certificate must name the host in the URL: `tls.verifiesHost`.
        public var verifyHost: Bool {
            get { tls.verifiesHost }
            set { tls.verifiesHost = newValue }
        }
        /// A PEM file of trusted root certificates instead of the system's: `tls.caFile`.
        public var caInfo: String? {
            get { tls.caFile }
            set { tls.caFile = newValue }
        }
        /// The proxy requests go through; by default the environment's, as curl reads it.
        public var proxy = ProxySettings()
        /// Where connections for chosen hosts go instead of where DNS says (`--resolve`,
        /// `--connect-to`); the URL, `Host` and the TLS server name stay as they are.
        public var routes: [ConnectionRoute] = []
        /// The most connections to one host (port and scheme included); 0 is unlimited. More requests wait.
        public var maxConnectionsPerHost = 8
        /// The most connections in total; 0 is unlimited. More requests wait. Set, it covers the
        /// C library's blocking sends too: they go through the I/O thread instead of driving curl
        /// on their own threads with connections of their own.
        public var maxConnections = 0
        /// The most idle connections kept open for reuse. Unless set, 32 or `maxConnectionsPerHost`
        /// when that is more, so that raising the per-host limit does not leave the connections
        /// above 32 closed and reopened on every request (libcurl's own multi handle grows its
        /// cache with its transfers the same way).
        public var maxIdleConnections: Int {
            get { chosenMaxIdleConnections ?? max(32, maxConnectionsPerHost) }
            set { chosenMaxIdleConnections = newValue }
        }
        /// `maxIdleConnections` as the caller set it; nil follows the per-host limit.
        private var chosenMaxIdleConnections: Int?
        /// How long an idle connection is kept before it is closed rather than reused. curl counts
        /// idle time in whole seconds: the timeout is rounded up to one, and a connection idle for
        /// more whole seconds than that is not reused (with 1 s, one idle for 2 s or longer).
        public var idleTimeout: Duration = .seconds(60)
        /// Whether to ask for compressed bodies and decode them (only when the request sets no `Accept-Encoding`).
        public var decompression = true
        /// The `User-Agent` sent when the request has none; `nil` sends none.
        public var userAgent: String?
        /// Unread response body bytes above which the transport stops reading from the socket.
        public var bodyHighWatermark = 1024 * 1024
        /// Unread response body bytes at or below which reading resumes.
        public var bodyLowWatermark = 256 * 1024
        /// The size of curl's receive buffer, which is also the largest body chunk handed over
        /// once a body streams.
        ///
        /// 16 KiB, libcurl's own default: every transfer in flight holds one. 64 KiB moved about 7%
        /// more of a 64 MiB body at 32 in flight and cost 48 KiB more per transfer, three quarters
        /// of what a transfer in flight held (`Benchmarks/README.md`); raise it for bulk downloads.
        public var receiveBufferSize = 16 * 1024
        /// Whether a URL path's `.` and `..` segments are sent as written (`CURLOPT_PATH_AS_IS`)
        /// rather than squashed, as curl does by default; for `courier --path-as-is`.
        public var keepsDotSegments = false

        /// The default configuration.
        public init() {}

        /// Whether this libcurl can send a second request on a cleartext HTTP/2 connection opened
        /// with prior knowledge. libcurl 7.88 (Debian 12) fails it with "Error in the HTTP2 framing
        /// layer", its own command-line tool included, whether the connection is reused or a second
        /// stream is multiplexed onto it; HTTP/2 over TLS is not affected. Below 8.0, each
        /// prior-knowledge request therefore gets a connection of its own (fresh, never reused).
        static let libcurlReusesPriorKnowledgeConnections = ccurl_version_num() >= 0x08_00_00

        /// Sets the per-transfer options that come from this configuration.
        /// ``idleTimeout`` for `CURLOPT_MAXAGE_CONN`: whole seconds, rounded up, at least one.
        var idleTimeoutSeconds: Int {
            let (seconds, attoseconds) = idleTimeout.components
            return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
        }

        func apply(to easy: EasyHandle) throws(CurlOptionError) {
            switch httpVersion {
            case .automatic:
                break
            case .http1_1:
                try easy.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
            case .http2:
                try easy.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
                try easy.set(CURLOPT_PIPEWAIT, 1)
            case .http2PriorKnowledge:
                try easy.set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
                if Self.libcurlReusesPriorKnowledgeConnections {
                    try easy.set(CURLOPT_PIPEWAIT, 1)
                } else {
                    try easy.set(CURLOPT_FRESH_CONNECT, 1)
                    try easy.set(CURLOPT_FORBID_REUSE, 1)
                }
            }
            try easy.set(CURLOPT_MAXAGE_CONN, idleTimeoutSeconds)
            try easy.set(CURLOPT_PATH_AS_IS, keepsDotSegments ? 1 : 0)
            try apply(tls, to: easy)
        }

        /// Sets curl's TLS options from `tls`.
        private func apply(_ tls: TLSSettings, to easy: EasyHandle) throws(CurlOptionError) {
            try easy.set(CURLOPT_SSL_VERIFYPEER, tls.verifiesPeer ? 1 : 0)
            try easy.set(CURLOPT_SSL_VERIFYHOST, tls.verifiesHost ? 2 : 0)
            if let caFile = tls.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
            if let caDirectory = tls.caDirectory { try easy.set(CURLOPT_CAPATH, caDirectory) }
            // An `https` proxy is trusted the way servers are.
            try easy.set(CURLOPT_PROXY_SSL_VERIFYPEER, tls.verifiesPeer ? 1 : 0)
            try easy.set(CURLOPT_PROXY_SSL_VERIFYHOST, tls.verifiesHost ? 2 : 0)
            if let caFile = tls.caFile { try easy.set(CURLOPT_PROXY_CAINFO, caFile) }
            if let caDirectory = tls.caDirectory { try easy.set(CURLOPT_PROXY_CAPATH, caDirectory) }
            if let certificate = tls.clientCertificate {
                try easy.set(CURLOPT_SSLCERT, certificate.certificateFile)
                try easy.set(CURLOPT_SSLCERTTYPE, "PEM")
                try easy.set(CURLOPT_SSLKEY, certificate.keyFile)
                try easy.set(CURLOPT_SSLKEYTYPE, "PEM")
                if let password = certificate.keyPassword { try easy.set(CURLOPT_KEYPASSWD, password) }
            }
            if let minimum = tls.minimumVersion {
                let version =
                    switch minimum {
                    case .tls1_0: CURL_SSLVERSION_TLSv1_0
                    case .tls1_1: CURL_SSLVERSION_TLSv1_1
                    case .tls1_2: CURL_SSLVERSION_TLSv1_2
                    case .tls1_3: CURL_SSLVERSION_TLSv1_3
                    }
                try easy.set(CURLOPT_SSLVERSION, version)
            }
        }
    }
}
