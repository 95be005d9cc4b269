#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The proxy each request goes through, decided from ``ProxySettings`` and an environment read
/// once: what a transport consults per request, so every transport routes alike.
///
/// A proxy variable that does not parse fails each request it would have routed, naming the
/// variable and never its credentials, as curl fails a transfer with a bad proxy.
public struct ProxyRouter: Sendable {
    private let httpProxy: Result<ProxyServer, CourierError>?
    private let httpsProxy: Result<ProxyServer, CourierError>?
    private let noProxy: NoProxyRule

    /// The router for `settings`, reading the proxy variables of the process's environment
    /// (with `getenv`, as curl does, so a variable set by the program itself counts) when they apply.
    public init(_ settings: ProxySettings) {
        if let environment = settings.environment {
            self.init(settings, environment: environment)
        } else {
            self.init(settings, lookup: { name in getenv(name).map { String(cString: $0) } })
        }
    }

    /// The router for `settings`, with `environment` standing in for the process's.
    public init(_ settings: ProxySettings, environment: [String: String]) {
        self.init(settings, lookup: { environment[$0] })
    }

    private init(_ settings: ProxySettings, lookup: (String) -> String?) {
        func variable(_ names: String...) -> (name: String, value: String)? {
            guard settings.readsEnvironment else { return nil }
            for name in names {
                if let value = lookup(name), !value.isEmpty { return (name, value) }
            }
            return nil
        }
        func parsed(_ found: (name: String, value: String)?) -> Result<ProxyServer, CourierError>? {
            guard let found else { return nil }
            do {
                return .success(try ProxyServer(found.value))
            } catch {
                var named = error
                named.message = "\(found.name): \(error.message)"
                return .failure(named)
            }
        }
        let all = settings.server == nil ? variable("all_proxy", "ALL_PROXY") : nil
        if let server = settings.servers["http"] ?? settings.server {
            httpProxy = .success(server)
        } else {
            httpProxy = parsed(variable("http_proxy") ?? all)
        }
        if let server = settings.servers["https"] ?? settings.server {
            httpsProxy = .success(server)
        } else {
            httpsProxy = parsed(variable("https_proxy", "HTTPS_PROXY") ?? all)
        }
        noProxy = NoProxyRule(settings.noProxy ?? variable("no_proxy", "NO_PROXY").map { [$0.value] } ?? [])
    }

    /// Whether some request may go through a proxy; when not, a transport can skip ``proxy(for:)``.
    public var mayUseProxy: Bool { httpProxy != nil || httpsProxy != nil }

    /// The proxy for a request to `url`, or `nil` when it goes direct.
    ///
    /// - Throws: `CourierError.invalidRequest` when the proxy that applies did not parse.
    public func proxy(for url: URL) throws(CourierError) -> ProxyServer? {
        let chosen = url.scheme?.lowercased() == "https" ? httpsProxy : httpProxy
        guard let chosen, let host = url.host, !noProxy.bypasses(host) else { return nil }
        return try chosen.get()
    }
}
