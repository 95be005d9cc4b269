#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A jar's cookies by domain, within its limits: the state behind `CookieJar`'s lock.
///
/// Each domain's cookies are kept in the order they were last set, so the oldest is at the front:
/// a full domain gives up its front cookie, and a full jar the oldest of the domains' fronts.
/// Storing one cookie costs the size of its domain's list (at most `maxCookiesPerDomain`), never
/// the size of the jar, and a request reads only the lists of its host and the host's parents.
struct CookieStore {
    /// A cookie and when it was last set, as a count of insertions (the jar's eviction order).
    struct Entry {
        var cookie: StoredCookie
        var sequence: UInt64
    }

    let limits: CookieJar.Limits
    private var byDomain: [String: [Entry]] = [:]
    private(set) var count = 0
    private var lastSequence: UInt64 = 0

    init(limits: CookieJar.Limits) {
        self.limits = limits
    }

    /// Every cookie, oldest first within each domain.
    var cookies: [StoredCookie] { byDomain.values.flatMap { $0.map(\.cookie) } }

    /// Stores `cookie` as a `Set-Cookie` would: it replaces one of the same name, domain and path
    /// (keeping its creation time); an expired one only removes that one; one larger than
    /// `maxCookieBytes` is ignored (RFC 6265 §6.1 and 6265bis §5.6); then the domain and the jar
    /// give up their oldest cookies until they are within their limits.
    mutating func insert(_ cookie: StoredCookie, now: Date) {
        var cookie = cookie
        var entries = byDomain[cookie.domain, default: []]
        if let index = entries.firstIndex(where: { $0.cookie.name == cookie.name && $0.cookie.path == cookie.path }) {
            cookie.created = entries[index].cookie.created
            entries.remove(at: index)
            count -= 1
        }
        let fits = cookie.name.utf8.count + cookie.value.utf8.count <= limits.maxCookieBytes
        if fits, !cookie.isExpired(at: now) {
            lastSequence += 1
            entries.append(Entry(cookie: cookie, sequence: lastSequence))
            count += 1
            if entries.count > limits.maxCookiesPerDomain {
                let excess = entries.count - limits.maxCookiesPerDomain
                entries.removeFirst(excess)
                count -= excess
            }
        }
        byDomain[cookie.domain] = entries.isEmpty ? nil : entries
        while count > limits.maxCookies, evictOldest() {}
    }

    /// Removes the jar's oldest cookie: the oldest of the domains' front cookies.
    private mutating func evictOldest() -> Bool {
        guard let oldest = byDomain.min(by: { $0.value[0].sequence < $1.value[0].sequence })?.key else { return false }
        byDomain[oldest]!.removeFirst()
        if byDomain[oldest]!.isEmpty { byDomain[oldest] = nil }
        count -= 1
        return true
    }

    /// The cookies a request to `url` gets, unexpired (the expired ones of its domains are
    /// dropped on the way), in RFC 6265 §5.4's order: longer paths first, then older cookies,
    /// then those stored first.
    mutating func matching(_ url: URL, now: Date) -> [StoredCookie] {
        // An empty jar, the usual one, is asked on every send: it answers before reading the URL.
        guard count > 0, let host = url.host?.lowercased() else { return [] }
        var matching: [Entry] = []
        for domain in Self.domains(containing: host) {
            guard var entries = byDomain[domain] else { continue }
            let before = entries.count
            entries.removeAll { $0.cookie.isExpired(at: now) }
            if entries.count != before {
                count -= before - entries.count
                byDomain[domain] = entries.isEmpty ? nil : entries
            }
            for entry in entries where entry.cookie.matches(url) { matching.append(entry) }
        }
        return matching.sorted { first, second in
            let (a, b) = (first.cookie, second.cookie)
            if a.path.count != b.path.count { return a.path.count > b.path.count }
            if a.created != b.created { return a.created < b.created }
            return first.sequence < second.sequence
        }.map(\.cookie)
    }

    /// Forgets the cookies `shouldRemove` picks; returns how many.
    mutating func remove(where shouldRemove: (StoredCookie) -> Bool) -> Int {
        var removed = 0
        for (domain, entries) in byDomain {
            let kept = entries.filter { !shouldRemove($0.cookie) }
            guard kept.count != entries.count else { continue }
            removed += entries.count - kept.count
            byDomain[domain] = kept.isEmpty ? nil : kept
        }
        count -= removed
        return removed
    }

    /// Forgets every cookie.
    mutating func removeAll() {
        byDomain.removeAll()
        count = 0
    }

    /// `host` and the names above it (`a.example.com`, `example.com`, `com`): the domains whose
    /// cookies may match it. An IP address is only itself (RFC 6265 §5.1.3).
    static func domains(containing host: String) -> [String] {
        guard !StoredCookie.isIPAddress(host) else { return [host] }
        var domains = [host]
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if !rest.isEmpty { domains.append(String(rest)) }
        }
        return domains
    }
}
