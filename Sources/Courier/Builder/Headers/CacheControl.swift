import HTTPTypes

/// Sets the request's `Cache-Control` directives (RFC 9111 §5.2.1), replacing any earlier value.
///
/// `CacheControl([.noCache, .maxAge(60)])` writes `no-cache, max-age=60`.
public struct CacheControl: RequestBuildable, Sendable {
    /// One request cache directive.
    public enum Directive: Sendable, Hashable {
        /// `no-cache`: revalidate with the origin before using a stored response.
        case noCache
        /// `no-store`: store neither the request nor its response.
        case noStore
        /// `no-transform`: intermediaries must not change the content.
        case noTransform
        /// `only-if-cached`: answer from a cache or with 504.
        case onlyIfCached
        /// `max-age=N`: accept a stored response at most N seconds old.
        case maxAge(Int)
        /// `max-stale`, optionally with a limit in seconds.
        case maxStale(Int?)
        /// `min-fresh=N`: the response must stay fresh for at least N more seconds.
        case minFresh(Int)
        /// `stale-if-error=N`: a stale response up to N seconds old may answer when the origin fails.
        case staleIfError(Int)
        /// A directive written as given, such as an extension directive.
        case custom(String)

        var wireValue: String {
            switch self {
            case .noCache: "no-cache"
            case .noStore: "no-store"
            case .noTransform: "no-transform"
            case .onlyIfCached: "only-if-cached"
            case .maxAge(let seconds): "max-age=\(seconds)"
            case .maxStale(let seconds): seconds.map { "max-stale=\($0)" } ?? "max-stale"
            case .minFresh(let seconds): "min-fresh=\(seconds)"
            case .staleIfError(let seconds): "stale-if-error=\(seconds)"
            case .custom(let text): text
            }
        }

        var secondsAreValid: Bool {
            switch self {
            case .maxAge(let seconds), .minFresh(let seconds), .staleIfError(let seconds): seconds >= 0
            case .maxStale(let seconds): (seconds ?? 0) >= 0
            default: true
            }
        }
    }

    /// The directives, in the order written.
    public let directives: [Directive]

    /// Sets `Cache-Control` to `directives`, in order.
    public init(_ directives: [Directive]) { self.directives = directives }

    public func apply(to draft: inout RequestDraft) throws {
        if let bad = directives.first(where: { !$0.secondsAreValid }) {
            throw CourierError.invalidRequest(
                "\(bad.wireValue) has a negative number of seconds", block: "CacheControl")
        }
        try draft.setHeader(.cacheControl, directives.map(\.wireValue).joined(separator: ", "), block: "CacheControl")
    }
}
