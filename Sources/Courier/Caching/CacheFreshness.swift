public import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How old a stored response is and how long it stays fresh (RFC 9111 §4.2), in whole seconds.
struct CacheFreshness: Equatable, Sendable {
    /// §4.2.3's `current_age`.
    var age: Int
    /// §4.2.1's freshness lifetime; 0 for a response that is stale as soon as stored.
    var lifetime: Int
    /// Whether the lifetime is the heuristic one (§4.2.2): no explicit expiration.
    var isHeuristic: Bool

    /// Seconds of freshness left (negative once stale): RFC 9211's `ttl`.
    var timeToLive: Int { lifetime - age }
    var isFresh: Bool { age < lifetime }
    /// Seconds since the response became stale, 0 while fresh.
    var staleness: Int { max(0, age - lifetime) }

    /// The statuses a cache may give a heuristic lifetime to (RFC 9110 §15.1), less `206`, which
    /// Courier's cache does not store (it keeps whole responses only).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    init(age: Int, lifetime: Int, isHeuristic: Bool) {
        self.age = age
        self.lifetime = lifetime
        self.isHeuristic = isHeuristic
    }

    /// The freshness of a response with `fields` and `status`, received at `responseTime` for a
    /// request sent at `requestTime`, seen at `now`.
    init(status: Int, fields: HTTPFields, requestTime: Date, responseTime: Date, now: Date) {
        let directives = CacheDirectives(fields)
        let date = fields[.date].flatMap(HTTPDate.parse)
        // §4.2.3: the age the origin and earlier caches report, corrected for the trip.
        let ageValue = fields[.age].flatMap { Int($0.trimmingWhitespace()) }.map { max(0, $0) } ?? 0
        let apparentAge = max(0, date.map { responseTime.timeIntervalSince($0) } ?? 0)
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, Double(ageValue) + responseDelay)
        let residentTime = max(0, now.timeIntervalSince(responseTime))
        age = Self.seconds(correctedInitialAge + residentTime)

        // §4.2.1: max-age, else Expires minus Date; s-maxage is for shared caches only.
        if let maxAge = directives.maxAge {
            lifetime = maxAge
            isHeuristic = false
        } else if fields[.expires] != nil {
            // An invalid Expires (such as "0") means already expired (§5.3).
            let expires = fields[.expires].flatMap(HTTPDate.parse)
            lifetime = expires.map { Self.seconds(max(0, $0.timeIntervalSince(date ?? responseTime))) } ?? 0
            isHeuristic = false
        } else if let lastModified = fields[.lastModified].flatMap(HTTPDate.parse),
            Self.heuristicallyCacheable.contains(status) || directives.isPublic || directives.isPrivate
        {
            // §4.2.2: 10% of the time since Last-Modified, as the RFC suggests.
            lifetime = Self.seconds(max(0, (date ?? responseTime).timeIntervalSince(lastModified)) / 10)
            isHeuristic = true
        } else {
            lifetime = 0
            isHeuristic = true
        }
    }

    private static func seconds(_ interval: Double) -> Int {
        guard interval.isFinite else { return interval > 0 ? Int.max / 2 : 0 }
        return Int(min(interval, Double(Int.max / 2)).rounded(.down))
    }
}

extension HTTPField.Name {
    /// `Cache-Status` (RFC 9211): what each cache on the way did with the request, nearest last;
    /// every response that passed through a ``CacheInterceptor`` carries its entry.
    /// Made once: the logging interceptor reads it on every exchange it logs.
    public static let cacheStatus = HTTPField.Name("Cache-Status")!
}
