import Courier
import Foundation
import HTTPTypes

/// One `--session` in use: what its file holds, applied to the request and the client, and what
/// the exchange adds to it, saved afterwards unless it is read-only. HTTPie's rules: the command
/// line's headers and credentials win over the session's and are kept in it, except `Content-*`
/// and `If-*` headers, which belong to one request; cookies set by responses are kept.
final class Session: Sendable {
    /// The session file.
    let file: URL
    /// Whether the exchange leaves the file as it is (`--session-read-only`).
    let isReadOnly: Bool
    /// The session's cookies, for the client: sent at each redirect hop, and updated by responses.
    let cookieJar = CookieJar()
    private let stored: SessionFile
    private let host: String

    /// The session in `file` for requests to `host` (which cookies without a domain belong to).
    ///
    /// - Throws: ``SessionFileError`` when the file cannot be read or parsed.
    init(file: URL, isReadOnly: Bool, host: String) throws {
        self.file = file
        self.isReadOnly = isReadOnly
        self.host = host.lowercased()
        stored = try SessionFile.load(from: file)
        for cookie in stored.cookies {
            let isHostOnly = !cookie.domain.hasPrefix(".")
            let domain = cookie.domain.isEmpty ? self.host : String(cookie.domain.drop { $0 == "." })
            cookieJar.insert(
                StoredCookie(
                    name: cookie.name, value: cookie.value, domain: domain, isHostOnly: isHostOnly,
                    path: cookie.path, isSecure: cookie.secure,
                    expires: cookie.expires.map(Date.init(timeIntervalSince1970:))))
        }
    }

    /// The credentials stored in the session, as `--auth-type` and `--auth` would give them.
    var auth: SessionFile.Auth? { stored.auth.type == nil || stored.auth.rawAuth == nil ? nil : stored.auth }

    /// Adds the session's headers to `request`, except those the command line sets (`given`,
    /// lowercased names), replacing the defaults (`User-Agent`, `Accept`); and moves a `Cookie`
    /// header of the command line into the jar, so it is sent once and kept.
    func apply(to request: inout Request, given: Set<String>) {
        for header in stored.headers where !given.contains(header.name.lowercased()) {
            guard let name = HTTPField.Name(header.name) else { continue }
            request.headerFields[name] = header.value
        }
        if let cookies = request.headerFields[.cookie] {
            request.headerFields[.cookie] = nil
            for pair in cookies.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty else { continue }
                cookieJar.insert(StoredCookie(name: parts[0], value: parts[1], domain: request.host ?? host))
            }
        }
    }

    /// Saves the session after an exchange, unless it is read-only: `headers` (the command line's,
    /// in order) replace the session's of the same names, `auth` replaces its credentials when
    /// given, and the cookies are the jar's.
    func save(headers: [(name: String, value: String)], auth: SessionFile.Auth?) throws {
        guard !isReadOnly else { return }
        var updated = stored
        let kept = headers.filter { header in
            let lowercased = header.name.lowercased()
            return lowercased != "cookie" && !lowercased.hasPrefix("content-") && !lowercased.hasPrefix("if-")
        }
        let names = Set(kept.map { $0.name.lowercased() })
        updated.headers.removeAll { names.contains($0.name.lowercased()) }
        updated.headers += kept.map { SessionFile.Header(name: $0.name, value: $0.value) }
        if let auth { updated.auth = auth }
        updated.cookies = cookieJar.cookies.map { cookie in
            SessionFile.Cookie(
                name: cookie.name, value: cookie.value, domain: (cookie.isHostOnly ? "" : ".") + cookie.domain,
                path: cookie.path, secure: cookie.isSecure, expires: cookie.expires?.timeIntervalSince1970)
        }
        try updated.save(to: file)
    }
}
