public import HTTPTypes

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An HTTP request as a value: method, URL, header fields, body, timeout and typed options.
///
/// Build one with the declarative builder, which validates every piece:
///
/// ```swift
/// let request = try Request {
///     Method.POST
///     BaseURL("https://api.example.com")
///     Endpoint("/v1/login")
///     Accept(.json)
///     RequestBody.json(Credentials(user: "ada", password: "secret"))
/// }
/// ```
///
/// Interceptors receive and return `Request` values; editing one never affects another.
public struct Request: Sendable {
    /// The request method; custom methods are allowed (`HTTPRequest.Method("LINK")`).
    public var method: HTTPRequest.Method {
        get { storage.fields.method }
        _modify { yield &storage.fields.method }
    }
    /// The absolute URL, query included.
    public var url: URL {
        get { storage.fields.url }
        _modify { yield &storage.fields.url }
    }
    /// The header fields, ordered, case-insensitive and multi-valued.
    public var headerFields: HTTPFields {
        get { storage.fields.headerFields }
        _modify { yield &storage.fields.headerFields }
    }
    /// The body, if any. `Content-Length` is derived from it when sent.
    public var body: RequestBody? {
        get { storage.fields.body }
        _modify { yield &storage.fields.body }
    }
    /// How long the whole exchange may take; `nil` uses the client's default.
    public var timeout: Duration? {
        get { storage.fields.timeout }
        _modify { yield &storage.fields.timeout }
    }
    /// Typed options for interceptors and transports.
    public var options: RequestOptions {
        get { storage.fields.options }
        _modify { yield &storage.fields.options }
    }

    /// Every field, behind one reference that copies share until one of them changes.
    private struct Fields: Sendable {
        var method: HTTPRequest.Method
        var url: URL
        var headerFields: HTTPFields
        var body: RequestBody?
        var timeout: Duration?
        var options: RequestOptions
    }

    private var storage: CopyOnWrite<Fields>

    /// Creates a request from its parts without validation; prefer the builder, which validates.
    public init(
        method: HTTPRequest.Method = .get,
        url: URL,
        headerFields: HTTPFields = [:],
        body: RequestBody? = nil,
        timeout: Duration? = nil,
        options: RequestOptions = RequestOptions()
    ) {
        storage = CopyOnWrite(
            Fields(method: method, url: url, headerFields: headerFields, body: body, timeout: timeout, options: options)
        )
    }
}

extension Request {
    /// The URL scheme, lowercased (`https`).
    public var scheme: String? { url.scheme?.lowercased() }
    /// The host, percent-decoded, without brackets for IPv6 literals.
    ///
    /// An internationalized host (`xn--bcher-kva.example`) is given in Unicode (`bücher.example`).
    ///
    /// Read from the URL's own parse: transports and interceptors ask for it on every send, and
    /// going through `URLComponents` parsed the URL again (about 450 ns). Only a host the URL's
    /// parse leaves in Punycode, or cannot find (the empty one of `http:///x`), takes that road.
    public var host: String? {
        if let host = url.host(percentEncoded: false), !Self.hasPunycodeLabel(host) { return host }
        guard var host = URLComponents(url: url, resolvingAgainstBaseURL: false)?.host else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }
    /// The explicit port, or `nil` for the scheme's default.
    public var port: Int? { url.port }

    /// Whether `host` has a label starting `xn--`, which `URLComponents` turns into Unicode.
    private static func hasPunycodeLabel(_ host: String) -> Bool {
        // How much of "xn--" the current label starts with; -1 once it starts otherwise.
        var matched = 0
        for byte in host.utf8 {
            switch (matched, byte | 0x20) {
            case (0, UInt8(ascii: "x")), (1, UInt8(ascii: "n")), (2, UInt8(ascii: "-")): matched += 1
            case (3, UInt8(ascii: "-")): return true
            default: matched = byte == UInt8(ascii: ".") ? 0 : -1
            }
        }
        return false
    }
    /// The percent-encoded path (`/users/42`); `/` when the URL has none.
    public var path: String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        return path.isEmpty ? "/" : path
    }
    /// The decoded query items, in order.
    public var queryItems: [URLQueryItem] {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }

    /// The header fields as they go on an HTTP/1.1 wire: the request's own, with `Cookie` lines
    /// joined into the single line RFC 6265 requires, plus `Content-Length` from the body when its
    /// length is known and the request did not set one.
    ///
    /// `HTTPFields` keeps one `Cookie` line per cookie (as HTTP/2 compresses them), so
    /// `headerFields[.cookie]` reads `a=1; b=2` while iterating shows two lines.
    public var wireHeaderFields: HTTPFields {
        var fields = headerFields.joiningCookieLines()
        if fields[.contentLength] == nil, let length = body?.contentLength,
            length > 0 || method.permitsRequestBody
        {
            fields[.contentLength] = String(length)
        }
        return fields
    }
}

extension HTTPFields {
    /// These fields with every `Cookie` line merged into one, at the position of the first.
    func joiningCookieLines() -> HTTPFields {
        let cookies = self.filter { $0.name == .cookie }
        guard cookies.count > 1 else { return self }
        var joined = HTTPFields()
        var wroteCookie = false
        for field in self {
            if field.name != .cookie {
                joined.append(field)
            } else if !wroteCookie {
                joined.append(HTTPField(name: .cookie, value: cookies.map(\.value).joined(separator: "; ")))
                wroteCookie = true
            }
        }
        return joined
    }
}

extension HTTPRequest.Method {
    /// Whether a body is customary: a zero `Content-Length` is sent for an empty POST, not for a GET.
    var permitsRequestBody: Bool {
        self == .post || self == .put || self == .patch
    }
}
