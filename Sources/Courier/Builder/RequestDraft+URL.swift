#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension RequestDraft {
    /// The schemes a request URL may have; `setURL` makes the `+unix` ones plain (``UnixSocket``).
    static let supportedSchemes: Set<String> = ["http", "https", "ws", "wss", "http+unix", "https+unix"]

    /// The URL declared so far as a URI reference: relative until a `BaseURL` or an absolute
    /// `Endpoint` gives it a scheme. Read part by part, never by re-parsing a string, so a pending
    /// relative path such as `./a:b` keeps its meaning.
    var uriReference: URIReference {
        var authority: String?
        if let host = url.percentEncodedHost {
            var text = ""
            if let user = url.percentEncodedUser {
                text += user
                if let password = url.percentEncodedPassword { text += ":" + password }
                text += "@"
            }
            text += host
            if let port = url.port { text += ":\(port)" }
            authority = text
        }
        return URIReference(
            scheme: url.scheme, authority: authority, path: url.percentEncodedPath,
            query: url.percentEncodedQuery)
    }

    /// Replaces the URL with `reference`, after checking every part; the fragment is dropped.
    ///
    /// Checking first matters: `URLComponents` traps on a component with a character it does not allow.
    ///
    /// An `http+unix://` URL (the socket path percent-encoded as its host) becomes `http://localhost`
    /// with ``UnixSocketOption`` set.
    ///
    /// - Throws: `invalidRequest` naming `block` for an unsupported scheme, a scheme without a host,
    ///   an invalid host or port, or a path or query that is not percent-encoded.
    mutating func setURL(_ reference: URIReference, block: String) throws {
        var reference = reference
        if let scheme = reference.scheme, let plain = UnixSocketURL.plainScheme(of: scheme) {
            // The socket is where the connection goes; the URL names `localhost`, as curl's
            // `--unix-socket` and AsyncHTTPClient's `http+unix` requests do.
            options[UnixSocketOption.self] = try UnixSocketURL.socketPath(
                fromAuthority: reference.authority, block: block)
            reference.scheme = plain
            reference.authority = "localhost"
        }
        var components = URLComponents()
        if let scheme = reference.scheme?.lowercased() {
            guard Self.supportedSchemes.contains(scheme) else {
                throw CourierError.invalidRequest(
                    "\"\(scheme.debugEscaped)\" is not a supported URL scheme (http, https, ws, wss, http+unix, https+unix)",
                    block: block)
            }
            guard reference.authority != nil else {
                throw CourierError.invalidRequest(
                    "the URL \"\(reference.string.debugEscaped)\" has no host", block: block)
            }
            components.scheme = scheme
        }
        if let authorityText = reference.authority {
            guard let authority = URIReference.Authority(parsing: authorityText) else {
                throw CourierError.invalidRequest(
                    "\"\(authorityText.debugEscaped)\" is not a valid host and port", block: block)
            }
            if let userinfo = authority.userinfo {
                guard URIReference.isPercentEncoded(userinfo, allowing: URIReference.userinfoAllowed) else {
                    throw CourierError.invalidRequest(
                        "the user information in the URL is not percent-encoded", block: block)
                }
                let colon = userinfo.firstIndex(of: ":")
                components.percentEncodedUser = String(userinfo[..<(colon ?? userinfo.endIndex)])
                if let colon { components.percentEncodedPassword = String(userinfo[userinfo.index(after: colon)...]) }
            }
            components.percentEncodedHost = try Self.checkedHost(authority.host, in: reference, block: block)
            components.port = try authority.port.flatMap { try Self.checkedPort($0, block: block) }
        }
        var path = reference.path
        guard URIReference.isPercentEncoded(path, allowing: URIReference.pathAllowed) else {
            throw CourierError.invalidRequest(
                "the URL path \"\(path.debugEscaped)\" is not percent-encoded", block: block)
        }
        if reference.authority != nil, !path.isEmpty, !path.hasPrefix("/") {
            throw CourierError.invalidRequest("the URL path \"\(path)\" does not start with /", block: block)
        }
        if reference.authority == nil, path.hasPrefix("//") { path = "/." + path }
        components.percentEncodedPath = path
        if let query = reference.query {
            guard URIReference.isPercentEncoded(query, allowing: URIReference.queryAllowed) else {
                throw CourierError.invalidRequest(
                    "the URL query \"\(query.debugEscaped)\" is not percent-encoded", block: block)
            }
            components.percentEncodedQuery = query
        }
        url = components
    }

    /// `host` lowercased, once checked to be a registered name or a bracketed IPv6 literal.
    private static func checkedHost(_ host: String, in reference: URIReference, block: String) throws -> String {
        guard !host.isEmpty else {
            throw CourierError.invalidRequest(
                "the URL \"\(reference.string.debugEscaped)\" has an empty host", block: block)
        }
        if let nonASCII = host.unicodeScalars.first(where: { !$0.isASCII }) {
            throw CourierError.invalidRequest(
                "the host \"\(host)\" contains \"\(nonASCII)\"; write an internationalized domain name in its ASCII (xn--) form",
                block: block)
        }
        if host.hasPrefix("[") {
            guard isIPv6Literal(host.dropFirst().dropLast()) else {
                throw CourierError.invalidRequest(
                    "\"\(host.debugEscaped)\" is not a valid IPv6 address literal", block: block)
            }
            return host.lowercased()
        }
        guard URIReference.isPercentEncoded(host, allowing: URIReference.registeredNameAllowed) else {
            throw CourierError.invalidRequest("\"\(host.debugEscaped)\" is not a valid host name", block: block)
        }
        return host.lowercased()
    }

    /// Whether `text` (between the brackets) is an IPv6 address with an optional `%25` zone (RFC 6874).
    private static func isIPv6Literal(_ text: Substring) -> Bool {
        var address = text
        if let percent = text.firstIndex(of: "%") {
            address = text[..<percent]
            let zone = text[percent...]
            guard zone.hasPrefix("%25"), zone.count > 3,
                URIReference.isPercentEncoded(String(zone.dropFirst(3)), allowing: PercentEncoding.unreserved)
            else { return false }
        }
        let halves = address.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
        let groups = halves.flatMap { $0.isEmpty ? [] : $0.split(separator: ":", omittingEmptySubsequences: false) }
        var count = 0
        for (index, group) in groups.enumerated() {
            if index == groups.count - 1, group.contains(".") {
                guard isIPv4Address(group) else { return false }
                count += 2
            } else {
                guard (1...4).contains(group.count), group.allSatisfy(\.isHexDigit) else { return false }
                count += 1
            }
        }
        return halves.count == 2 ? count <= 7 : count == 8
    }

    /// Whether `text` is a dotted IPv4 address, as ends an IPv6 literal such as `::ffff:192.0.2.1`.
    private static func isIPv4Address(_ text: Substring) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4
            && octets.allSatisfy { octet in
                (1...3).contains(octet.count) && octet.allSatisfy { $0.isASCII && $0.isNumber }
                    && Int(octet).map { $0 <= 255 } == true
            }
    }

    /// The port as a number; `nil` for an empty port, which RFC 3986 §3.2.3 allows.
    private static func checkedPort(_ port: String, block: String) throws -> Int? {
        guard !port.isEmpty else { return nil }
        guard port.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = Int(port), number <= 65535
        else {
            throw CourierError.invalidRequest("\"\(port.debugEscaped)\" is not a valid port (0-65535)", block: block)
        }
        return number
    }
}

extension URIReference {
    /// Characters a path keeps as they are: `pchar` and `/` (RFC 3986 §3.3).
    static let pathAllowed = PercentEncoding.pathSegment.adding("/")
    /// Characters a query keeps as they are: `pchar`, `/` and `?` (RFC 3986 §3.4).
    static let queryAllowed = PercentEncoding.pathSegment.adding("/?")
    /// Characters user information keeps as they are (RFC 3986 §3.2.1).
    static let userinfoAllowed = PercentEncoding.unreserved.adding("!$&'()*+,;=:")
    /// Characters of a registered host name (RFC 3986 §3.2.2).
    static let registeredNameAllowed = PercentEncoding.unreserved.adding("!$&'()*+,;=")

    /// Parses URL text given to `block`: control characters are refused, characters that may not
    /// appear in the path, query or user information are percent-encoded (`%XX` already there is
    /// kept, a `%` that starts no `%XX` becomes `%25`), the scheme is lowercased and the fragment dropped.
    ///
    /// - Throws: `invalidRequest` naming `block` for a control character or an invalid scheme.
    init(checking text: String, block: String) throws {
        if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw CourierError.invalidRequest(
                "the URL \"\(text.debugEscaped)\" contains \(bad.controlName), which a URL may not hold", block: block)
        }
        self.init(parsing: text)
        fragment = nil
        if let scheme {
            guard Self.isValidScheme(scheme) else {
                throw CourierError.invalidRequest(
                    "\"\(scheme.debugEscaped)\" is not a valid URL scheme; write \"./\(text.debugEscaped)\" for a relative path with a colon",
                    block: block)
            }
            self.scheme = scheme.lowercased()
        }
        if let authority, let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            let userinfo = Self.encodingDisallowed(String(authority[..<at]), allowing: Self.userinfoAllowed)
            self.authority = userinfo + authority[at...]
        }
        path = Self.encodingDisallowed(path, allowing: Self.pathAllowed)
        query = query.map { Self.encodingDisallowed($0, allowing: Self.queryAllowed) }
    }

    /// Whether `scheme` is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1).
    static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.utf8.first, schemeStart.contains(first) else { return false }
        return scheme.utf8.allSatisfy(schemeRest.contains)
    }

    private static let schemeStart = PercentEncoding.AllowedSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    private static let schemeRest = schemeStart.adding("0123456789+-.")

    /// `text` with every byte outside `allowed` percent-encoded, except `%XX` triplets already there.
    static func encodingDisallowed(_ text: String, allowing allowed: PercentEncoding.AllowedSet) -> String {
        if isPercentEncoded(text, allowing: allowed) { return text }
        let bytes = Array(text.utf8)
        var result = ""
        var runStart = 0
        var index = 0
        while index < bytes.count {
            if isTriplet(bytes, at: index) {
                result += PercentEncoding.encode(
                    String(decoding: bytes[runStart..<index], as: UTF8.self), allowing: allowed)
                result += String(decoding: bytes[index..<index + 3], as: UTF8.self)
                index += 3
                runStart = index
            } else {
                index += 1
            }
        }
        return result + PercentEncoding.encode(String(decoding: bytes[runStart...], as: UTF8.self), allowing: allowed)
    }

    /// Whether every byte of `text` is in `allowed` or part of a `%XX` triplet.
    static func isPercentEncoded(_ text: String, allowing allowed: PercentEncoding.AllowedSet) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if isTriplet(bytes, at: index) {
                index += 3
            } else if allowed.contains(bytes[index]) {
                index += 1
            } else {
                return false
            }
        }
        return true
    }

    private static func isTriplet(_ bytes: [UInt8], at index: Int) -> Bool {
        index + 2 < bytes.count && bytes[index] == UInt8(ascii: "%") && bytes[index + 1].isHexDigit
            && bytes[index + 2].isHexDigit
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
