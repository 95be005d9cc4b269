public import HTTPTypes
import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Cookies a client keeps between requests, by RFC 6265's storage and matching rules, and saved to
/// or loaded from a file in the Netscape format curl and wget use.
///
/// Give it to ``Client/Configuration/cookieJar``: the client stores every `Set-Cookie` and adds the
/// matching `Cookie` at each redirect hop, below the interceptors, so a cookie set by a `302` on
/// the way is sent to where it leads, on any transport. Public suffixes are not checked: a server
/// may set a cookie for `Domain=co.uk`, so keep a jar to the sites you trust.
///
/// The jar is bounded as RFC 6265 §6.1 suggests and browsers do (``Limits``): a server sending
/// thousands of `Set-Cookie`s costs each request no more than the limits allow.
public final class CookieJar: Sendable {
    /// How much a jar holds, and how large a `Cookie` field it writes.
    ///
    /// These are the jar's own, not the client's `Limits`: one jar may serve several clients and
    /// outlive them. Past a limit the oldest cookies go first, as in browsers.
    public struct Limits: Sendable, Hashable {
        /// The most cookies kept for one domain; a new one beyond it evicts the domain's oldest.
        public var maxCookiesPerDomain = 50
        /// The most cookies kept in all; a new one beyond it evicts the jar's oldest.
        public var maxCookies = 3000
        /// The largest cookie kept, its name and value in bytes; a larger one is ignored.
        public var maxCookieBytes = 4096
        /// The longest `Cookie` value the jar adds to a request, in bytes; the cookies that come
        /// last in RFC 6265's order (shorter paths, then newer) are left out beyond it. Common
        /// servers refuse a header line of more than 8 KiB (nginx, Apache).
        public var maxCookieHeaderBytes = 8190

        /// The defaults: 50 cookies a domain, 3,000 in all, 4 KiB a cookie, an 8 KiB field.
        public init() {}
    }

    private let storage: Protected<CookieStore>

    /// An empty jar bounded by `limits`.
    public init(limits: Limits = Limits()) {
        storage = Protected(CookieStore(limits: limits))
    }

    /// A jar holding the cookies of the Netscape cookie file at `path` (curl's `-b`/`-c` files).
    public convenience init(contentsOf path: String, limits: Limits = Limits()) throws {
        self.init(limits: limits)
        try load(from: path)
    }

    /// The bounds this jar keeps.
    public var limits: Limits { storage.withLock { $0.limits } }

    /// Every cookie stored and not expired.
    public var cookies: [StoredCookie] {
        let now = Date()
        return storage.withLock { $0.cookies }.filter { !$0.isExpired(at: now) }
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
        storage.withLock { store in
            for cookie in received { store.insert(cookie, now: now) }
        }
    }

    /// The `Cookie` value for a request to `url` (RFC 6265 §5.4), or `nil` when no cookie matches:
    /// longer paths first, then older cookies first, up to ``Limits/maxCookieHeaderBytes``.
    public func cookieHeader(for url: URL, now: Date = Date()) -> String? {
        let (matching, limit) = storage.withLock { ($0.matching(url, now: now), $0.limits.maxCookieHeaderBytes) }
        guard !matching.isEmpty else { return nil }
        var header = ""
        for cookie in matching {
            let pair = "\(cookie.name)=\(cookie.value)"
            let length = header.utf8.count + (header.isEmpty ? 0 : 2) + pair.utf8.count
            guard length <= limit else { continue }
            header += header.isEmpty ? pair : "; " + pair
        }
        return header.isEmpty ? nil : header
    }

    /// Adds the jar's cookies for the request's URL to its `Cookie` field, after any it already has.
    func addCookies(to request: inout Request, now: Date = Date()) {
        guard let header = cookieHeader(for: request.url, now: now) else { return }
        let existing = request.headerFields[.cookie]
        request.headerFields[.cookie] = existing.map { "\($0); \(header)" } ?? header
    }

    /// Forgets every cookie.
    public func removeAll() { storage.withLock { $0.removeAll() } }

    /// Forgets the cookies whose domain, path and name are those given; `nil` matches any.
    /// Returns how many were removed.
    @discardableResult
    public func remove(domain: String? = nil, path: String? = nil, name: String? = nil) -> Int {
        let domain = domain.map { $0.hasPrefix(".") ? String($0.dropFirst()).lowercased() : $0.lowercased() }
        return storage.withLock { store in
            store.remove { cookie in
                (domain.map { $0 == cookie.domain } ?? true) && (path.map { $0 == cookie.path } ?? true)
                    && (name.map { $0 == cookie.name } ?? true)
            }
        }
    }

    /// The cookies, session cookies included, in the Netscape format (``NetscapeCookieText``).
    public var netscapeText: String { NetscapeCookieText.text(of: cookies) }

    /// Stores the cookies of `text`, in the Netscape format, as ``insert(_:now:)`` stores one; throws
    /// ``NetscapeCookieText/MalformedLine`` for the first line that is not a cookie, storing none.
    public func insert(netscapeText text: String) throws {
        let now = Date()
        insert(try NetscapeCookieText.cookies(in: text, now: now), now: now)
    }

    /// Writes the cookies, session cookies included, to `path` in the Netscape format.
    public func save(to path: String) throws {
        try netscapeText.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Adds the cookies of the Netscape cookie file at `path`; lines that are not cookies are
    /// skipped, as curl skips them.
    public func load(from path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let now = Date()
        insert(NetscapeCookieText.cookiesSkippingMalformedLines(in: text, now: now), now: now)
    }
}
