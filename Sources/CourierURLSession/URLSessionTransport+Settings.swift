public import Courier
public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
#if canImport(Security)
import Security
#endif

extension URLSessionTransport {
    /// Courier's transport settings, applied to a `URLSessionConfiguration` where it has them.
    ///
    /// URLSession has fewer knobs than libcurl, and fewer still in FoundationNetworking on Linux;
    /// ``URLSessionTransport/init(settings:configuration:)`` refuses, by name, each setting it
    /// cannot honour on the platform:
    ///
    /// | setting | Apple platforms | Linux (FoundationNetworking) |
    /// |---|---|---|
    /// | `tls.verifiesPeer = false` | accepted (the delegate trusts the server) | refused |
    /// | `tls.verifiesHost = false` alone | refused | refused |
    /// | `tls.caFile`, `tls.caDirectory`, `tls.clientCertificate`, `tls.publicKeyPins` | refused | refused |
    /// | `tls.minimumVersion` | `tlsMinimumSupportedProtocolVersion` | refused |
    /// | `proxy.server`, `proxy.servers` (HTTP proxies without credentials) | `connectionProxyDictionary` | refused |
    /// | `proxy.readsEnvironment = false` without a server | an empty `connectionProxyDictionary` | refused when a proxy variable is set (libcurl reads them itself) |
    /// | `proxy.noProxy` | refused | refused |
    /// | `maxConnectionsPerHost` | `httpMaximumConnectionsPerHost` | the same |
    /// | `maxConnections`, `idleTimeout`, `routes` | refused (no such setting) | refused |
    public struct Settings: Sendable {
        /// How TLS is checked; see the table for what each platform takes.
        public var tls = TLSSettings()
        /// Which proxy requests go through; by default the platform's own (the system settings on
        /// Apple platforms, the proxy variables on Linux, which FoundationNetworking's libcurl reads).
        public var proxy = ProxySettings()
        /// The most connections to one host; `nil` keeps the configuration's.
        public var maxConnectionsPerHost: Int?
        /// The most connections in all: URLSession has no such bound, so any value is refused.
        public var maxConnections: Int?
        /// How long an idle connection is kept: URLSession has no such setting, so any value is refused.
        public var idleTimeout: Duration?
        /// Where connections for chosen hosts go (`--resolve`, `--connect-to`): URLSession has no
        /// such setting, so any route is refused.
        public var routes: [ConnectionRoute] = []
        /// The `User-Agent` sent when a request has none; `nil` leaves URLSession's own.
        public var userAgent: String?

        /// The defaults: verified TLS, the platform's proxy, URLSession's connection limits.
        public init() {}

        /// Applies the settings to `configuration`.
        ///
        /// - Throws: `invalidRequest` naming the first setting this platform's URLSession cannot honour.
        func apply(to configuration: URLSessionConfiguration) throws(CourierError) {
            try applyTLS(to: configuration)
            try applyProxy(to: configuration)
            if let limit = maxConnectionsPerHost {
                guard limit > 0 else { throw Self.refusal("maxConnectionsPerHost", "must be at least 1") }
                configuration.httpMaximumConnectionsPerHost = limit
            }
            if maxConnections != nil {
                throw Self.refusal(
                    "maxConnections", "URLSession bounds connections per host only (maxConnectionsPerHost)")
            }
            if let route = routes.first {
                throw Self.refusal(
                    "routes", "URLSession connects where DNS says and cannot be routed (\(route)); use CurlTransport")
            }
            if idleTimeout != nil {
                throw Self.refusal("idleTimeout", "URLSession has no setting for how long idle connections are kept")
            }
        }

        private func applyTLS(to configuration: URLSessionConfiguration) throws(CourierError) {
            if tls.caFile != nil {
                throw Self.refusal(
                    "tls.caFile",
                    "URLSession trusts the system's authorities only; add the authority to the system's trust store, or use CurlTransport"
                )
            }
            if tls.caDirectory != nil {
                throw Self.refusal(
                    "tls.caDirectory",
                    "URLSession trusts the system's authorities only; add the authority to the system's trust store, or use CurlTransport"
                )
            }
            if tls.clientCertificate != nil {
                throw Self.refusal(
                    "tls.clientCertificate",
                    "URLSessionTransport does not present client certificates; use CurlTransport")
            }
            if !tls.publicKeyPins.isEmpty {
                throw Self.refusal(
                    "tls.publicKeyPins", "URLSessionTransport does not check public-key pins; use CurlTransport")
            }
            if tls.verifiesPeer, !tls.verifiesHost {
                throw Self.refusal(
                    "tls.verifiesHost", "URLSession checks the host name whenever it verifies the certificate")
            }
            #if canImport(Darwin)
            if let minimum = tls.minimumVersion {
                configuration.tlsMinimumSupportedProtocolVersion =
                    switch minimum {
                    case .tls1_0: .TLSv10
                    case .tls1_1: .TLSv11
                    case .tls1_2: .TLSv12
                    case .tls1_3: .TLSv13
                    }
            }
            #else
            if !tls.verifiesPeer {
                throw Self.refusal("tls.verifiesPeer", "FoundationNetworking always verifies the server's certificate")
            }
            if tls.minimumVersion != nil {
                throw Self.refusal(
                    "tls.minimumVersion", "FoundationNetworking has no setting for the oldest TLS version")
            }
            #endif
        }

        private func applyProxy(to configuration: URLSessionConfiguration) throws(CourierError) {
            if !proxy.readsEnvironment, proxy.server == nil, proxy.servers.isEmpty {
                #if canImport(Darwin)
                // An empty dictionary is URLSession's "no proxy", whatever the system's settings.
                configuration.connectionProxyDictionary = [:]
                return
                #else
                if let variable = Self.proxyVariableSet() {
                    throw Self.refusal(
                        "proxy.readsEnvironment",
                        "FoundationNetworking's libcurl reads \(variable) from the process's environment whatever the settings say"
                    )
                }
                return
                #endif
            }
            if let hosts = proxy.noProxy, !hosts.isEmpty {
                throw Self.refusal(
                    "proxy.noProxy",
                    "URLSession takes the hosts that go direct from the system (on Linux, from NO_PROXY)")
            }
            if proxy.environment != nil {
                throw Self.refusal(
                    "proxy.environment", "URLSession reads the process's own environment or the system's settings")
            }
            guard proxy.server != nil || !proxy.servers.isEmpty else { return }
            #if canImport(Darwin)
            var dictionary: [AnyHashable: Any] = [:]
            for (scheme, keys) in [
                ("http", ("HTTPEnable", "HTTPProxy", "HTTPPort")),
                ("https", ("HTTPSEnable", "HTTPSProxy", "HTTPSPort")),
            ] {
                guard let server = proxy.servers[scheme] ?? proxy.server else { continue }
                guard server.kind == .http else {
                    throw Self.refusal(
                        "proxy.server", "URLSessionTransport takes HTTP proxies only, not \(server.kind.rawValue)")
                }
                guard server.username == nil, server.password == nil else {
                    throw Self.refusal("proxy.server", "URLSession's proxy settings carry no credentials")
                }
                dictionary[keys.0] = 1
                dictionary[keys.1] = server.host
                dictionary[keys.2] = server.port
            }
            configuration.connectionProxyDictionary = dictionary
            #else
            throw Self.refusal(
                "proxy.server", "FoundationNetworking takes its proxy from the process's environment only")
            #endif
        }

        /// The first proxy variable libcurl would read from this process's environment, if any.
        static func proxyVariableSet() -> String? {
            let environment = ProcessInfo.processInfo.environment
            return ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].first {
                !(environment[$0] ?? "").isEmpty
            }
        }

        private static func refusal(_ setting: String, _ reason: String) -> CourierError {
            CourierError(
                .invalidRequest, "URLSessionTransport cannot honour \(setting) on this platform: \(reason)",
                source: "URLSessionTransport.Settings.\(setting)")
        }
    }
}
