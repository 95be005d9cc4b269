/// How a request uses the client's ``CacheInterceptor``: by the RFC, or as one of URLSession's
/// cache policies asks (the seed's `CachePolicy` block sets it).
public enum CacheMode: Sendable, Hashable {
    /// RFC 9111 with the request's own `Cache-Control` directives (`useProtocolCachePolicy`).
    case standard
    /// Fetch from the origin without validators and store the answer (`reloadIgnoringLocalCacheData`).
    case reload
    /// Use a stored response only after the origin validates it (`reloadRevalidatingCacheData`).
    case revalidate
    /// A stored response of any age, else fetch (`returnCacheDataElseLoad`).
    case preferCached
    /// A stored response of any age, else `504 Gateway Timeout` without asking the origin
    /// (`returnCacheDataDontLoad`).
    case onlyCached
}

/// The ``CacheMode`` of a request; `.standard` unless a block sets another.
public enum CacheModeOption: RequestOptionKey {
    public static let defaultValue = CacheMode.standard
}
