#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A proxy to send requests through: its kind, address and credentials.
///
/// Written as curl takes it: `[scheme://][user:password@]host[:port]`, the scheme `http` when
/// left out, the port 1080 (curl's default) or 443 for an `https` proxy. Its ``description`` never
/// shows the credentials, so a proxy can be logged and put in errors as it is.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// How the client talks to the proxy.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An HTTP proxy reached over plain TCP: `CONNECT` tunnels for `https`, absolute-form requests for `http`.
        case http
        /// An HTTP proxy reached over TLS (the curl transport only).
        case https
        /// SOCKS5, the client resolving host names.
        case socks5
        /// SOCKS5, the proxy resolving host names.
        case socks5h
        /// SOCKS4, the client resolving host names (the curl transport only).
        case socks4
        /// SOCKS4a, the proxy resolving host names (the curl transport only).
        case socks4a
    }

    /// How the client talks to the proxy.
    public var kind: Kind
    /// The proxy's host name or IP address (without brackets for IPv6).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user name sent in `Proxy-Authorization`, percent-decoded; `nil` for none.
    public var username: String?
    /// The password sent in `Proxy-Authorization`, percent-decoded.
    public var password: String?

    /// A proxy given by its parts.
    public init(kind: Kind = .http, host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// Parses a proxy URL as curl takes it (`http://user:secret@proxy:3128`, `proxy:3128`, `socks5h://proxy`).
    ///
    /// - Throws: `CourierError.invalidRequest` naming what is wrong, never showing the credentials.
    public init(_ text: String) throws(CourierError) {
        let trimmed = text.trimmingWhitespace()
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: withScheme), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            throw CourierError(
                .invalidRequest,
                "the proxy \(Self.redacting(trimmed)) is not a URL of the form [scheme://][user:password@]host[:port]",
                source: "ProxyServer")
        }
        guard let kind = Kind(rawValue: scheme) else {
            throw CourierError(
                .invalidRequest,
                "the proxy scheme \(scheme) is not one of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))",
                source: "ProxyServer")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil else {
            throw CourierError(
                .invalidRequest,
                "the proxy \(Self.redacting(trimmed)) has a path or query; give only [scheme://][user:password@]host[:port]",
                source: "ProxyServer")
        }
        let unbracketed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.init(
            kind: kind, host: unbracketed, port: components.port ?? (kind == .https ? 443 : 1080),
            username: components.percentEncodedUser.map { PercentEncoding.decode($0) ?? $0 },
            password: components.percentEncodedPassword.map { PercentEncoding.decode($0) ?? $0 })
    }

    /// `scheme://host:port`, without credentials: what a transport connects to.
    public var address: String {
        "\(kind.rawValue)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The address, with `***@` in place of any credentials.
    public var description: String {
        username == nil && password == nil ? address : address.replacing("://", with: "://***@")
    }

    /// `text` with whatever sits between `://` and `@` hidden, for messages about a proxy URL that did not parse.
    static func redacting(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let start = text.firstRange(of: "://").map(\.upperBound) ?? text.startIndex
        guard start <= at else { return text }
        return String(text[..<start]) + "***" + String(text[at...])
    }
}
