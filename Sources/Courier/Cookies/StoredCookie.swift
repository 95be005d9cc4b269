#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One cookie as a jar stores it (RFC 6265 §5.3): what a `Set-Cookie` said, resolved against the
/// URL it came from.
public struct StoredCookie: Sendable, Hashable, Codable {
    /// The cookie's name.
    public var name: String
    /// The cookie's value, as the server sent it.
    public var value: String
    /// The host it belongs to, lowercased, without a leading dot.
    public var domain: String
    /// Whether only `domain` itself gets it (no `Domain` attribute was given), not its subdomains.
    public var isHostOnly: Bool
    /// The path prefix it is sent under.
    public var path: String
    /// Whether it is sent over `https` only.
    public var isSecure: Bool
    /// Whether scripts may not read it; kept for the cookie file, meaningless to an HTTP client.
    public var isHTTPOnly: Bool
    /// When it expires; `nil` for a session cookie, kept until the jar goes.
    public var expires: Date?
    /// When it was first stored: among cookies of equal path length, older ones are sent first.
    public var created: Date

    /// A cookie as stored, with every attribute given.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
        isSecure: Bool = false, isHTTPOnly: Bool = false, expires: Date? = nil, created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain.lowercased()
        self.isHostOnly = isHostOnly
        self.path = path
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.expires = expires
        self.created = created
    }

    /// Parses one `Set-Cookie` value received from `url` (RFC 6265 §5.2 and §5.3); `nil` when the
    /// user agent must ignore it: no `=` in the name-value pair, an empty name, or a `Domain` that
    /// does not domain-match the URL's host.
    public init?(setCookie header: String, from url: URL, now: Date = Date()) {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingWhitespace()
        guard !name.isEmpty else { return nil }
        var cookie = StoredCookie(
            name: name, value: pair[pair.index(after: equals)...].trimmingWhitespace(),
            domain: host, path: Self.defaultPath(of: url), created: now)
        var maxAge: Date?
        var expires: Date?
        for attribute in parts {
            let (key, value) = Self.split(attribute)
            switch key.lowercased() {
            case "expires":
                if let date = Self.date(value) { expires = date }
            case "max-age":
                guard let first = value.first, first == "-" || first.isNumber, let seconds = Int(value) else {
                    continue
                }
                maxAge = seconds <= 0 ? Date.distantPast : now.addingTimeInterval(TimeInterval(seconds))
            case "domain":
                var domain = value.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                guard Self.domain(host, matches: domain) else { return nil }
                cookie.domain = domain
                cookie.isHostOnly = false
            case "path":
                if value.hasPrefix("/") { cookie.path = value }
            case "secure":
                cookie.isSecure = true
            case "httponly":
                cookie.isHTTPOnly = true
            default:
                continue
            }
        }
        cookie.expires = maxAge ?? expires
        self = cookie
    }

    /// Whether it has expired at `now`.
    public func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// Whether a request to `url` gets it (RFC 6265 §5.4): domain, path and scheme match.
    public func matches(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        let hostMatches = isHostOnly ? host == domain : Self.domain(host, matches: domain)
        let secureMatches = !isSecure || url.scheme?.lowercased() == "https"
        return hostMatches && secureMatches && Self.path(url.path.isEmpty ? "/" : url.path, matches: path)
    }

    /// RFC 6265 §5.1.3: `host` is `domain`, or a name ending in `.domain` (never an IP address).
    static func domain(_ host: String, matches domain: String) -> Bool {
        if host == domain { return true }
        return !isIPAddress(host) && host.hasSuffix("." + domain)
    }

    /// Whether `host` is an IPv4 or IPv6 address, which only ever matches itself. ASCII digits
    /// only: `Character.isNumber` took other scripts' digits too, through Unicode's tables.
    static func isIPAddress(_ host: String) -> Bool {
        host.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") }
            || host.utf8.contains(UInt8(ascii: ":"))
    }

    /// RFC 6265 §5.1.4: `requestPath` is `cookiePath`, or below it.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath[requestPath.index(requestPath.startIndex, offsetBy: cookiePath.count)] == "/"
    }

    /// RFC 6265 §5.1.4: the directory of the request's path, `/` at the top.
    static func defaultPath(of url: URL) -> String {
        let path = url.path
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func split(_ attribute: String) -> (String, String) {
        guard let equals = attribute.firstIndex(of: "=") else {
            return (attribute.trimmingWhitespace(), "")
        }
        return (
            attribute[..<equals].trimmingWhitespace(),
            attribute[attribute.index(after: equals)...].trimmingWhitespace()
        )
    }

    /// An `Expires` date: the HTTP date forms servers send (IMF-fixdate, RFC 850, asctime), and
    /// the `Wdy, DD-Mon-YYYY` form Netscape's specification used (RFC 6265 §5.1.1 reads them all).
    private static func date(_ text: String) -> Date? {
        HTTPDate.parse(text)
    }
}
