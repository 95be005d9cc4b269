#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A URI reference resolved against the URL declared so far, as a browser follows a link
/// (RFC 3986 §5.2, the same results as Python's `urllib.parse.urljoin` with the exceptions below).
///
/// Against `https://api.example.com/v1/users?page=2`:
///
/// | Reference | Result |
/// |---|---|
/// | `"42"` | `https://api.example.com/v1/42` (relative to the last `/`) |
/// | `"users/42"` | `https://api.example.com/v1/users/42` |
/// | `"/health"` | `https://api.example.com/health` (a leading `/` starts at the root) |
/// | `"../v2/users"` | `https://api.example.com/v2/users` (`..` never climbs above the root) |
/// | `"?page=3"` | `https://api.example.com/v1/users?page=3` (only the query is replaced) |
/// | `"//cdn.example.com/a"` | `https://cdn.example.com/a` (only the scheme is kept) |
/// | `"http://other.example/"` | `http://other.example/` (an absolute URL replaces everything) |
/// | `""` or `"#top"` | `https://api.example.com/v1/users?page=2` (unchanged) |
///
/// So `Endpoint("users")` against `/v1` gives `/users`, and against `/v1/` gives `/v1/users`.
///
/// A reference with a path or a query replaces the whole current query, including items from
/// `Query` blocks declared before it, exactly as a link does; declare `Query` blocks after the
/// `Endpoint`. An empty or fragment-only reference keeps the URL as it is. Fragments are dropped,
/// because a request never sends one.
///
/// Declared before any `BaseURL`, the reference stays relative (`..` that climb above it are kept)
/// and the `BaseURL` resolves it later, so the order of the two blocks does not change the path.
///
/// Characters that may not appear in a path or query (a space, `"`, `[`, non-ASCII letters) are
/// percent-encoded as UTF-8; `%XX` already present is kept, and `%2E` is not a dot segment.
/// Where `urljoin` differs, Courier follows RFC 3986: empty segments in a relative path (`a//b`)
/// are kept, dot segments of an absolute or network-path reference are removed, an empty query
/// (`g?`) is kept, text is not trimmed, and a scheme other than http, https, ws or wss is an error.
public struct Endpoint: RequestBuildable, Sendable {
    /// The reference as given.
    public let reference: String

    /// An endpoint from a relative or absolute reference: `"users/42"`, `"/health"`, `"?page=2"`.
    public init(_ reference: String) { self.reference = reference }

    /// An endpoint from a `URL`, relative or absolute; a relative `URL` with a base is taken whole.
    public init(_ url: URL) { self.reference = url.absoluteString }

    /// - Throws: `invalidRequest` with source `Endpoint` for a control character (CR, LF, NUL…),
    ///   an invalid or unsupported scheme, or an absolute URL without a valid host or port.
    public func apply(to draft: inout RequestDraft) throws {
        if draft.resolvePlainPath(reference) { return }
        let parsed = try URIReference(checking: reference, block: "Endpoint")
        if let scheme = parsed.scheme, !RequestDraft.supportedSchemes.contains(scheme) {
            let hint = parsed.authority == nil ? "; for a relative path, write \"./\(reference.debugEscaped)\"" : ""
            throw CourierError.invalidRequest(
                "\"\(scheme.debugEscaped)\" is not a supported URL scheme (http, https, ws, wss, http+unix, https+unix)"
                    + hint,
                block: "Endpoint")
        }
        let current = draft.uriReference
        let target =
            current.scheme == nil
            ? parsed.resolved(againstRelative: current)
            : parsed.resolved(against: current, strict: false)
        try draft.setURL(target, block: "Endpoint")
    }
}
