/// Where the connections for one host and port go instead of where DNS says, with the URL, the
/// `Host` header and the TLS server name (and so the certificate checked) left as they are:
/// curl's `--resolve` and `--connect-to`, OkHttp's `Dns`. For a server not yet in DNS, one
/// machine of a cluster, or a test against a name that does not exist.
///
/// ```swift
/// var configuration = CurlTransport.Configuration()
/// configuration.routes = [
///     .resolve("api.example.com", port: 443, to: ["10.0.0.7"]),
///     try ConnectionRoute(connectTo: "legacy.example.com:80:127.0.0.1:8080"),
/// ]
/// ```
///
/// libcurl honours both kinds. AsyncHTTPClient maps a host to one other host or address on the
/// same port, for every port: its transport refuses, by name, a route it would honour only in part.
public struct ConnectionRoute: Sendable, Hashable, CustomStringConvertible {
    /// Where the connections go.
    public enum Target: Sendable, Hashable {
        /// These IP addresses, tried in order, on the same port (curl's `--resolve`).
        case addresses([String])
        /// Another host (resolved as usual) and port (curl's `--connect-to`).
        case host(String, port: Int)
    }

    /// The host of the URLs this route takes, lowercased.
    public let host: String
    /// The port of the URLs this route takes (the scheme's default when the URL names none).
    public let port: Int
    /// Where their connections go.
    public let target: Target

    /// Connections for `host:port` go to `addresses` (IPv4 or IPv6 literals), as `curl --resolve`.
    public static func resolve(_ host: String, port: Int, to addresses: [String]) throws(CourierError) -> Self {
        try ConnectionRoute(host: host, port: port, target: .addresses(addresses), source: "ConnectionRoute.resolve")
    }

    /// Connections for `host:port` go to `otherHost:otherPort`, as `curl --connect-to`.
    public static func connect(
        _ host: String, port: Int, to otherHost: String, port otherPort: Int
    ) throws(CourierError) -> Self {
        try ConnectionRoute(
            host: host, port: port, target: .host(otherHost, port: otherPort), source: "ConnectionRoute.connect")
    }

    /// A route written as `curl --resolve` takes it: `host:port:address[,address…]`, IPv6
    /// addresses in brackets (`example.com:443:[::1]`).
    public init(resolve text: String) throws(CourierError) {
        let parts = try Self.fields(of: text, count: 3, form: "host:port:address[,address…]", source: "--resolve")
        let addresses = parts[2].split(separator: ",", omittingEmptySubsequences: false).map {
            Self.unbracketed(String($0))
        }
        try self.init(
            host: parts[0], port: Self.port(parts[1], in: text, source: "--resolve"), target: .addresses(addresses),
            source: "--resolve")
    }

    /// A route written as `curl --connect-to` takes it: `host:port:otherHost:otherPort`.
    public init(connectTo text: String) throws(CourierError) {
        let parts = try Self.fields(of: text, count: 4, form: "host:port:otherHost:otherPort", source: "--connect-to")
        try self.init(
            host: parts[0], port: Self.port(parts[1], in: text, source: "--connect-to"),
            target: .host(Self.unbracketed(parts[2]), port: Self.port(parts[3], in: text, source: "--connect-to")),
            source: "--connect-to")
    }

    private init(host: String, port: Int, target: Target, source: String) throws(CourierError) {
        let host = Self.unbracketed(host).lowercased()
        guard Self.isHost(host) else {
            throw CourierError(
                .invalidRequest, "a route needs a host name or address, not \"\(host.debugEscaped)\"", source: source)
        }
        guard (1...65_535).contains(port) else {
            throw CourierError(.invalidRequest, "a route's port is 1 to 65535, not \(port)", source: source)
        }
        switch target {
        case .addresses(let addresses):
            guard !addresses.isEmpty else {
                throw CourierError(.invalidRequest, "a route to addresses names at least one", source: source)
            }
            for address in addresses where NoProxyRule.addressBytes(address) == nil {
                throw CourierError(
                    .invalidRequest, "\"\(address.debugEscaped)\" is not an IPv4 or IPv6 address", source: source)
            }
        case .host(let otherHost, let otherPort):
            guard Self.isHost(otherHost) else {
                throw CourierError(
                    .invalidRequest, "a route needs a host to connect to, not \"\(otherHost.debugEscaped)\"",
                    source: source)
            }
            guard (1...65_535).contains(otherPort) else {
                throw CourierError(.invalidRequest, "a route's port is 1 to 65535, not \(otherPort)", source: source)
            }
        }
        self.host = host
        self.port = port
        self.target = target
    }

    /// Whether this route takes a request to `host` on `port`.
    public func takes(host: String, port: Int) -> Bool {
        self.port == port && self.host == Self.unbracketed(host).lowercased()
    }

    /// curl's own spelling of the route: a `CURLOPT_RESOLVE` or `CURLOPT_CONNECT_TO` entry.
    public var description: String {
        switch target {
        case .addresses(let addresses):
            "\(Self.bracketed(host)):\(port):" + addresses.map(Self.bracketed).joined(separator: ",")
        case .host(let otherHost, let otherPort):
            "\(Self.bracketed(host)):\(port):\(Self.bracketed(otherHost)):\(otherPort)"
        }
    }

    /// `text` split at the colons outside brackets into exactly `count` fields.
    private static func fields(
        of text: String, count: Int, form: String, source: String
    ) throws(CourierError)
        -> [String]
    {
        var fields: [String] = [""]
        var depth = 0
        for character in text {
            switch character {
            case "[": depth += 1
            case "]": depth -= 1
            case ":" where depth == 0:
                fields.append("")
                continue
            default: break
            }
            fields[fields.count - 1].append(character)
        }
        guard fields.count == count, depth == 0 else {
            throw CourierError(.invalidRequest, "\"\(text.debugEscaped)\" is not \(form)", source: source)
        }
        return fields
    }

    private static func port(_ text: String, in whole: String, source: String) throws(CourierError) -> Int {
        guard let port = Int(text), (1...65_535).contains(port) else {
            throw CourierError(
                .invalidRequest, "\"\(text.debugEscaped)\" in \"\(whole.debugEscaped)\" is not a port (1 to 65535)",
                source: source)
        }
        return port
    }

    /// A name or an address: nothing a URL's host cannot hold, and a colon only in an IPv6 address.
    private static func isHost(_ host: String) -> Bool {
        !host.isEmpty && !host.utf8.contains { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "/") }
            && (!host.contains(":") || NoProxyRule.addressBytes(host) != nil)
    }

    private static func unbracketed(_ text: String) -> String {
        text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    }

    private static func bracketed(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
