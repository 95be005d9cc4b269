#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a draft keeps its URL: as text while only the builder's own blocks have shaped it from a
/// checked `BaseURL`, as `URLComponents` once anything else has.
///
/// Text is the fast form. `URLComponents`' setters and its `url` getter (which runs IDNA on the
/// host) cost more than the rest of a small request, while a cached base, a plain-path `Endpoint`,
/// path components and query items only append to text that `build()` parses once. The first
/// read of `RequestDraft.url` turns the text into components, and nothing turns them back.
enum DraftURL {
    /// A new draft: nothing has set the URL.
    case unset
    /// An absolute URL made by the builder's blocks from a checked base; see `AbsoluteURLText`.
    case absolute(AbsoluteURLText)
    /// Anything else: a URL set or edited through `RequestDraft.url`, a relative reference, or one
    /// resolved by the general RFC 3986 path.
    case components(URLComponents)

    /// The URL as components, parsed from the text when it is held as text.
    var components: URLComponents {
        switch self {
        case .unset: URLComponents()
        case .absolute(let text): text.components
        case .components(let components): components
        }
    }
}

/// An absolute URL as the three pieces of text the builder's blocks edit, each already valid: the
/// origin (`https://user@host:8443`, scheme and host lowercased), the percent-encoded path, and the
/// percent-encoded query.
struct AbsoluteURLText: Equatable, Sendable {
    var origin: String
    var path: String
    var query: String?

    /// The URL's text: what `URLComponents.string` gives for the same parts.
    var string: String {
        guard let query else { return origin + path }
        return origin + path + "?" + query
    }

    /// The same URL as components, equal to the ones it was taken from.
    var components: URLComponents {
        URLComponents(string: string) ?? URLComponents()
    }

    /// The text of `components`, when it has a scheme and host, no fragment, and its text parses
    /// back to equal components and the same string; `nil` otherwise, to keep the components.
    init?(_ components: URLComponents) {
        guard components.scheme != nil, components.percentEncodedHost != nil, components.fragment == nil,
            let whole = components.string
        else { return nil }
        var originOnly = components
        originOnly.percentEncodedPath = ""
        originOnly.percentEncodedQuery = nil
        guard let origin = originOnly.string else { return nil }
        self.origin = origin
        self.path = components.percentEncodedPath
        self.query = components.percentEncodedQuery
        guard string == whole, self.components == components else { return nil }
    }
}
