import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the cache does with a request, decided from the request and the responses stored for its
/// URI, with no I/O (RFC 9111 §4 for a private cache, RFC 5861's stale extensions).
enum CacheLookup: Equatable {
    /// Answer with the stored response: fresh, or stale where the request or the mode accepts it.
    case serve(StoredResponse, CacheFreshness)
    /// Answer with the stale stored response now and revalidate it in the background
    /// (`stale-while-revalidate`).
    case serveWhileRevalidating(StoredResponse, CacheFreshness)
    /// Ask the origin, with the stored response's validators; a `304` means it answers. `forward`
    /// says why: `stale`, or `request` when the request or mode forbade using a fresh one.
    case validate(StoredResponse, CacheFreshness, forward: CacheStatus.Forward)
    /// Nothing stored may answer: forward the request as it is.
    case forward(CacheStatus.Forward)
    /// `only-if-cached` (or `returnCacheDataDontLoad`) and nothing stored may answer: `504`.
    case gatewayTimeout

    /// The decision for a `GET` with `fields` in `mode`, given `stored` (every variant stored
    /// for its URI) at `now`.
    static func decide(fields: HTTPFields, mode: CacheMode, stored: [StoredResponse], now: Date) -> CacheLookup {
        let request = CacheDirectives(fields)
        let onlyCached = request.onlyIfCached || mode == .onlyCached
        if mode == .reload {
            return onlyCached ? .gatewayTimeout : .forward(stored.isEmpty ? .uriMiss : .request)
        }
        guard let entry = stored.first(where: { $0.matches(fields) }) else {
            return onlyCached ? .gatewayTimeout : .forward(stored.isEmpty ? .uriMiss : .varyMiss)
        }
        let headers = entry.headerFields
        let freshness = CacheFreshness(
            status: entry.status, fields: headers, requestTime: entry.requestTime, responseTime: entry.responseTime,
            now: now)
        let response = CacheDirectives(headers)
        // §5.2.2.4 and §5.2.1.4: no-cache on either side means validate before every use; so
        // does reloadRevalidatingCacheData.
        if response.noCache || request.noCache || mode == .revalidate {
            guard !onlyCached else { return .gatewayTimeout }
            return .validate(entry, freshness, forward: freshness.isFresh ? .request : .stale)
        }
        let anyAge = mode == .preferCached || mode == .onlyCached
        if anyAge {
            // URLSession's "regardless of age or expiration date", except where the origin said
            // a stale copy must never be used.
            if freshness.isFresh || !response.mustRevalidate { return .serve(entry, freshness) }
        } else if request.accepts(freshness) {
            if freshness.isFresh { return .serve(entry, freshness) }
            // §4.2.4: stale only where the request allows it and the response does not forbid it.
            if !response.mustRevalidate { return .serve(entry, freshness) }
        }
        if onlyCached { return .gatewayTimeout }
        if !freshness.isFresh, !response.mustRevalidate, let window = response.staleWhileRevalidate,
            freshness.staleness <= window, request.maxAge == nil, request.minFresh == nil
        {
            return .serveWhileRevalidating(entry, freshness)
        }
        return .validate(entry, freshness, forward: freshness.isFresh ? .request : .stale)
    }
}

extension CacheDirectives {
    /// Whether a request with these directives takes a response of `freshness` (§5.2.1.1-3):
    /// `max-age`, `min-fresh`, and for a stale one `max-stale`.
    func accepts(_ freshness: CacheFreshness) -> Bool {
        if let maxAge, freshness.age > maxAge { return false }
        if let minFresh, freshness.timeToLive < minFresh { return false }
        if freshness.isFresh { return true }
        guard let maxStale else { return false }
        return freshness.staleness <= maxStale
    }
}

extension StoredResponse {
    /// Whether this response was stored for a request whose `Vary` fields equal those of `fields` (§4.1).
    func matches(_ fields: HTTPFields) -> Bool {
        varying.allSatisfy { name, value in Self.varyingValue(of: name, in: fields) == value }
    }

    /// The request's value for a field `Vary` names: its lines joined, whitespace after commas
    /// normalized (§4.1 allows it), `nil` when absent.
    static func varyingValue(of name: String, in fields: HTTPFields) -> String? {
        guard let field = HTTPField.Name(name) else { return nil }
        let values = fields[values: field]
        guard !values.isEmpty else { return nil }
        return values.joined(separator: ",").split(separator: ",").map { $0.trimmingWhitespace() }.joined(
            separator: ", ")
    }

    /// The field names a response's `Vary` lists, lower-cased; `nil` for `Vary: *`, which no
    /// later request matches, so such a response is not stored.
    static func varyingNames(_ response: HTTPFields) -> [String]? {
        var names: [String] = []
        for value in response[values: .vary] {
            for token in value.split(separator: ",") {
                let name = token.trimmingWhitespace().lowercased()
                if name == "*" { return nil }
                if !name.isEmpty, !names.contains(name) { names.append(name) }
            }
        }
        return names
    }
}
