/// An RFC 9211 `Cache-Status` entry: what the cache did with one request.
///
/// `Courier; hit; ttl=42`, or `Courier; fwd=uri-miss; fwd-status=200; stored; ttl=60`: the cache
/// appends it to the response's `Cache-Status` field, after any upstream cache's entry.
struct CacheStatus: Equatable, Sendable {
    /// Why the request went on to the origin (RFC 9211 §2.2).
    enum Forward: String, Sendable {
        /// The method is not one the cache answers (`POST`, `HEAD`…).
        case method
        /// Nothing was stored for the URI.
        case uriMiss = "uri-miss"
        /// Responses were stored for the URI, none for this request's `Vary` fields.
        case varyMiss = "vary-miss"
        /// A stored response could have answered, but the request (`no-cache`, a reload) forbade it.
        case request
        /// The stored response was stale and had to be validated.
        case stale
    }

    var hit = false
    var forward: Forward?
    var forwardStatus: Int?
    var stored = false
    var timeToLive: Int?
    var detail: String?

    /// The entry's text, after the cache's name.
    var value: String {
        var parameters = ["Courier"]
        if hit { parameters.append("hit") }
        if let forward { parameters.append("fwd=\(forward.rawValue)") }
        if let forwardStatus { parameters.append("fwd-status=\(forwardStatus)") }
        if stored { parameters.append("stored") }
        if let timeToLive { parameters.append("ttl=\(timeToLive)") }
        if let detail { parameters.append("detail=\(detail)") }
        return parameters.joined(separator: "; ")
    }
}
