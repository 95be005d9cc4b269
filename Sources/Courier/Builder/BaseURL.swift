#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The scheme, user information, host and port of the request, and the path and query the rest
/// of the request is relative to: `BaseURL("https://api.example.com/v1/")`.
///
/// Blocks may come in any order, so a `BaseURL` keeps what earlier blocks declared:
///
/// - The scheme and authority (user information, host, port) come from the base URL, replacing any
///   set earlier, so `request.updating { BaseURL(staging) }` moves a request to another host. The one
///   exception is a network-path `Endpoint("//cdn.example.com/x")` declared before any base, which
///   keeps its host and takes only the scheme, as RFC 3986 resolution does.
/// - The path declared so far is a reference resolved against the base path (RFC 3986 §5.2):
///   `Endpoint("users")` then `BaseURL("https://api.example.com/v1/")` gives `/v1/users`; with base
///   `/v1` (no trailing `/`) it gives `/users`; `Endpoint("/users")` gives `/users`; no path keeps `/v1/`.
///   Bare path components declared before any base stay relative in the same way (`"users"` then
///   `BaseURL("https://api.example.com/v1/")` gives `/v1/users`).
/// - Queries merge, the base's items first: `Query("page", 2)` then `BaseURL("https://h/?key=k")`
///   gives `?key=k&page=2`. Unlike `Endpoint`, a `BaseURL` never discards query items.
/// - A fragment is dropped: a request never sends one.
///
/// Text is checked as `Endpoint` checks it: characters that may not appear in a path, query or
/// user information are percent-encoded, control characters are refused. The scheme (`http`,
/// `https`, `ws`, `wss`) and the host are lowercased; a host must be ASCII (write an
/// internationalized name in its `xn--` form) or a bracketed IPv6 literal (`http://[::1]:8080`).
public struct BaseURL: RequestBuildable, Sendable {
    /// The base URL as given.
    public let string: String

    /// A base URL from text; it is checked when the request is built.
    public init(_ string: String) { self.string = string }

    /// A base URL from a `URL`, path and query included.
    public init(_ url: URL) { self.string = url.absoluteString }

    /// - Throws: `invalidRequest` with source `BaseURL` when the text has no scheme or host, an
    ///   unsupported scheme, an invalid host or port, or a control character.
    public func apply(to draft: inout RequestDraft) throws {
        let isNewDraft = if case .unset = draft.urlStorage { true } else { false }
        if isNewDraft, let known = BaseURLCache.shared.text(for: string) {
            draft.urlStorage = .absolute(known)
            return
        }
        try resolve(into: &draft)
        guard let text = AbsoluteURLText(draft.url) else { return }
        draft.urlStorage = .absolute(text)
        // An `http+unix` base also sets the socket, which the cached text would not carry.
        if isNewDraft, !UnixSocketURL.isUnixSocketURL(string) { BaseURLCache.shared.remember(text, for: string) }
    }

    private func resolve(into draft: inout RequestDraft) throws {
        let base = try URIReference(checking: string, block: "BaseURL")
        guard let scheme = base.scheme else {
            throw CourierError.invalidRequest(
                "\"\(string.debugEscaped)\" has no scheme; a base URL names a scheme and a host, such as \"https://api.example.com\"",
                block: "BaseURL")
        }
        guard RequestDraft.supportedSchemes.contains(scheme) else {
            let hint = base.authority == nil ? "; for a host and port, write \"http://\(string.debugEscaped)\"" : ""
            throw CourierError.invalidRequest(
                "\"\(scheme.debugEscaped)\" is not a supported URL scheme (http, https, ws, wss, http+unix, https+unix)"
                    + hint,
                block: "BaseURL")
        }
        guard base.authority != nil else {
            throw CourierError.invalidRequest("\"\(string.debugEscaped)\" has no host", block: "BaseURL")
        }
        var declared = draft.uriReference
        if declared.scheme != nil {
            declared.scheme = nil
            declared.authority = nil
        }
        var target = declared.resolved(against: base)
        let queries = [base.query, declared.query].compactMap { $0 }
        target.query = queries.isEmpty ? nil : queries.filter { !$0.isEmpty }.joined(separator: "&")
        try draft.setURL(target, block: "BaseURL")
    }
}
