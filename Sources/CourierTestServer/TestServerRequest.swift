public import Foundation

/// A request as the test server received it: raw target, header lines in order, whole body.
///
/// Nothing is normalised, so tests can assert the exact bytes a client put on the wire.
public struct TestServerRequest: Sendable {
    /// The method token as sent (`GET`, `LINK`).
    public var method: String
    /// The request target exactly as sent: percent-encoded path plus `?query` when there is one.
    public var target: String
    /// The header lines in the order received, names in the case the client used.
    public var headers: [(name: String, value: String)]
    /// The whole body, after any chunked framing was removed; empty when the route asked for
    /// `RequestBodyHandling.digest`, which fills in `bodyDigest` instead.
    public var body: Data
    /// The length (and, when asked for, checksum) of a body that was counted instead of kept.
    public var bodyDigest: BodyDigest?
    /// The values captured by the matched route's `{name}` segments, percent-decoded.
    public var parameters: [String: String] = [:]
    /// The client's IP address, httpbin's `origin`; the server listens on loopback only.
    public var origin = "127.0.0.1"

    /// Creates a request; the server makes these, tests may too when calling a route directly.
    public init(method: String, target: String, headers: [(name: String, value: String)], body: Data) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The percent-encoded path, without the query.
    public var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The raw query after `?`, or `nil` when the target has no `?`.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }

    /// The query's `name=value` pairs in order, percent-decoded, with `+` read as a space
    /// (as HTML forms send it); a pair without `=` has the value `""`.
    public var queryItems: [(name: String, value: String)] {
        Self.formPairs(query ?? "")
    }

    /// The `name=value` pairs of a query or an `application/x-www-form-urlencoded` body, in
    /// order, percent-decoded with `+` as a space; a pair without `=` has the value `""`.
    public static func formPairs(_ text: String) -> [(name: String, value: String)] {
        guard !text.isEmpty else { return [] }
        return text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    /// The first value of the query parameter `name`, percent-decoded.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    private static func decode(_ component: Substring) -> String {
        let spaced = component.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The first value of the header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
