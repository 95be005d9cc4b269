import Foundation
import NIOConcurrencyHelpers

extension Route {
    /// `/cache/{key}`, any method, and `/cache-hits/{key}`: an origin whose caching headers the
    /// query sets, counting how often each key reached it, for tests of a client-side cache.
    ///
    /// `/cache/{key}` answers `key #n` (n counts the requests for `key` that reached the origin,
    /// also sent as `X-Origin-Hit`) with, from the query: `cc` as `Cache-Control`, `etag` as `ETag`,
    /// `last_modified` (seconds before the server started) as `Last-Modified`, `expires` (seconds from now, may be
    /// negative; or `expires_raw`, verbatim) as `Expires`, `date` (seconds from now) as `Date`
    /// (else now; `none` sends no `Date`), `age` as `Age`, `vary` as `Vary`, `location` and `content_location`, and
    /// `status` (200). A request whose `If-None-Match` equals the ETag, or whose
    /// `If-Modified-Since` equals the Last-Modified, gets `validated_status` (304) with no body.
    /// From the `fail_from`th request on, the answer is `fail_status` (503). The conditions the
    /// origin saw are echoed in `X-Seen-If-None-Match` and `X-Seen-If-Modified-Since`.
    ///
    /// `/cache-hits/{key}` answers the count as text without counting. Each call of `cache()`
    /// counts on its own, so each test server starts from zero.
    public static func cache() -> [Route] {
        let hits = NIOLockedValueBox<[String: Int]>([:])
        // Last-Modified counts back from the server's start, so it stays the same between requests.
        let started = Date()
        let origin = Route("/cache/{key}") { request in
            let key = request.parameters["key"] ?? ""
            let hit = hits.withLockedValue { hits in
                hits[key, default: 0] += 1
                return hits[key, default: 0]
            }
            let now = Date()
            let failFrom = try request.integer(query: "fail_from", default: Int.max, in: 1...Int.max)
            var headers: [(name: String, value: String)] = [("X-Origin-Hit", String(hit))]
            if let seen = request.header("If-None-Match") { headers.append(("X-Seen-If-None-Match", seen)) }
            if let seen = request.header("If-Modified-Since") { headers.append(("X-Seen-If-Modified-Since", seen)) }
            if hit >= failFrom {
                let status = try request.integer(query: "fail_status", default: 503, in: 200...599)
                var response = TestServerResponse.text("failure \(hit)\n", status: status)
                response.headers += headers
                return response
            }
            if request.query("date") != "none" {
                let offset = try request.integer(query: "date", default: 0, in: -1_000_000...1_000_000)
                headers.append(("Date", HTTPDateText.format(now.addingTimeInterval(Double(offset)))))
            }
            if let value = request.query("cc") { headers.append(("Cache-Control", value)) }
            let etag = request.query("etag").map { $0.hasPrefix("\"") || $0.hasPrefix("W/") ? $0 : "\"\($0)\"" }
            if let etag { headers.append(("ETag", etag)) }
            var lastModified: String?
            if request.query("last_modified") != nil {
                let ago = try request.integer(query: "last_modified", default: 0, in: 0...100_000_000)
                lastModified = HTTPDateText.format(started.addingTimeInterval(-Double(ago)))
                headers.append(("Last-Modified", lastModified!))
            }
            if request.query("expires") != nil {
                let ahead = try request.integer(query: "expires", default: 0, in: -100_000_000...100_000_000)
                headers.append(("Expires", HTTPDateText.format(now.addingTimeInterval(Double(ahead)))))
            }
            if let raw = request.query("expires_raw") { headers.append(("Expires", raw)) }
            for (query, field) in [
                ("age", "Age"), ("vary", "Vary"), ("location", "Location"),
                ("content_location", "Content-Location"),
            ] {
                if let value = request.query(query) { headers.append((field, value)) }
            }
            let matched =
                (etag != nil && request.header("If-None-Match") == etag)
                || (lastModified != nil && request.header("If-Modified-Since") == lastModified)
            if matched {
                let status = try request.integer(query: "validated_status", default: 304, in: 200...599)
                return TestServerResponse(status: status, headers: headers)
            }
            let status = try request.integer(query: "status", default: 200, in: 200...599)
            var response = TestServerResponse.text("\(key) #\(hit)\n", status: status)
            response.headers += headers
            return response
        }
        let count = Route("/cache-hits/{key}") { request in
            .text(String(hits.withLockedValue { $0[request.parameters["key"] ?? "", default: 0] }))
        }
        return [origin, count]
    }
}

/// IMF-fixdate (RFC 9110 §5.6.7), as origins send `Date`, `Expires` and `Last-Modified`.
enum HTTPDateText {
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
    private static let lock = NIOLock()

    static func format(_ date: Date) -> String { lock.withLock { formatter.string(from: date) } }
}
