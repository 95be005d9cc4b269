public import Foundation
public import HTTPTypes
import Synchronization

/// Cookies a client keeps between requests, by RFC 6265's storage and matching rules, and saved to
/// or loaded from a file in the Netscape format curl and wget use.
///
/// Give it to ``Client/Configuration/cookieJar``: the client stores every `Set-Cookie` and adds the
/// matching `Cookie` at each redirect hop, below the interceptors, so a cookie set by a `302` on
/// the way is sent to where it leads, on any transport. Public suffixes are not checked: a server
/// may set a cookie for `Domain=co.uk`, so keep a jar to the sites you trust.
public final class CookieJar: Sendable {
    private let storage = Mutex<[StoredCookie]>([])

    /// An empty jar.
    public init() {}

    /// A jar holding the cookies of the Netscape cookie file at `path` (curl's `-b`/`-c` files).
    public convenience init(contentsOf path: String) throws {
        self.init()
        try load(from: path)
    }

    /// Every cookie stored and not expired.
    public var cookies: [StoredCookie] {
        let now = Date()
        return storage.withCheckedLock { $0.filter { !$0.isExpired(at: now) } }
    }

    /// Stores each `Set-Cookie` of `fields` received from `url`: a cookie with the name, domain and
    /// path of one already held replaces it (keeping its creation time), an expired one removes it.
    public func store(_ fields: HTTPFields, from url: URL, now: Date = Date()) {
        let received = fields[values: .setCookie].compactMap { StoredCookie(setCookie: $0, from: url, now: now) }
        guard !received.isEmpty else { return }
        insert(received, now: now)
    }

    /// Stores `cookie` as a `Set-Cookie` would (a saved session's cookies, say): it replaces one of
    /// the same name, domain and path, and an expired one only removes that one.
    public func insert(_ cookie: StoredCookie, now: Date = Date()) {
        insert([cookie], now: now)
    }

    private func insert(_ received: [StoredCookie], now: Date) {
        storage.withCheckedLock { cookies in
            for var cookie in received {
                if let index = cookies.firstIndex(where: {
                    $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path
                }) {
                    cookie.created = cookies[index].created
                    cookies.remove(at: index)
                }
                if !cookie.isExpired(at: now) { cookies.append(cookie) }
            }
        }
    }

    /// The `Cookie` value for a request to `url` (RFC 6265 §5.4), or `nil` when no cookie matches:
    /// longer paths first, then older cookies first.
    public func cookieHeader(for url: URL, now: Date = Date()) -> String? {
        let matching = storage.withCheckedLock { cookies in
            cookies.removeAll { $0.isExpired(at: now) }
            return cookies.filter { $0.matches(url) }
        }
        guard !matching.isEmpty else { return nil }
        return
            matching
            .sorted { ($0.path.count, $1.created) > ($1.path.count, $0.created) }
            .map { "\($0.name)=\($0.value)" }
            .joined(separator: "; ")
    }

    /// Adds the jar's cookies for the request's URL to its `Cookie` field, after any it already has.
    func addCookies(to request: inout Request, now: Date = Date()) {
        guard let header = cookieHeader(for: request.url, now: now) else { return }
        let existing = request.headerFields[.cookie]
        request.headerFields[.cookie] = existing.map { "\($0); \(header)" } ?? header
    }

    /// Forgets every cookie.
    public func removeAll() { storage.withCheckedLock { $0.removeAll() } }

    /// Writes the cookies, session cookies included, to `path` in the Netscape format.
    public func save(to path: String) throws {
        var lines = [
            "# Netscape HTTP Cookie File", "# Written by Courier; one cookie a line, fields separated by tabs.", "",
        ]
        for cookie in cookies {
            let domain = (cookie.isHTTPOnly ? "#HttpOnly_" : "") + (cookie.isHostOnly ? "" : ".") + cookie.domain
            let expires = cookie.expires.map { String(Int64($0.timeIntervalSince1970)) } ?? "0"
            lines.append(
                [
                    domain, cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE",
                    expires, cookie.name, cookie.value,
                ].joined(separator: "\t"))
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Adds the cookies of the Netscape cookie file at `path`; lines that are not cookies are skipped.
    public func load(from path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let now = Date()
        var loaded: [StoredCookie] = []
        for line in text.split(whereSeparator: \.isNewline) {
            var line = String(line)
            var isHTTPOnly = false
            if line.hasPrefix("#HttpOnly_") {
                isHTTPOnly = true
                line.removeFirst("#HttpOnly_".count)
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard !line.hasPrefix("#"), fields.count == 7, let seconds = Int64(fields[4]) else { continue }
            let includesSubdomains = fields[1] == "TRUE"
            var domain = fields[0]
            if domain.hasPrefix(".") { domain.removeFirst() }
            let cookie = StoredCookie(
                name: fields[5], value: fields[6], domain: domain, isHostOnly: !includesSubdomains,
                path: fields[2], isSecure: fields[3] == "TRUE", isHTTPOnly: isHTTPOnly,
                expires: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)), created: now)
            if !cookie.isExpired(at: now) { loaded.append(cookie) }
        }
        storage.withCheckedLock { cookies in
            for cookie in loaded {
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                cookies.append(cookie)
            }
        }
    }
}
