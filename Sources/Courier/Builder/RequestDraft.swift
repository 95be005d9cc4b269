public import HTTPTypes

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The request being built: what builder blocks edit, before it is validated into a `Request`.
///
/// Unlike `Request`, a draft may be incomplete (no scheme or host yet), because blocks can come in
/// any order: an `Endpoint` may be declared before the `BaseURL` it is relative to.
public struct RequestDraft {
    /// The method; `GET` until a `Method` block says otherwise.
    public var method: HTTPRequest.Method = .get
    /// The URL so far; the path and query are kept percent-encoded.
    ///
    /// The builder's own blocks keep an absolute URL as text until `build()`; reading this property
    /// parses it, and setting it keeps what is set as it is.
    public var url: URLComponents {
        get { urlStorage.components }
        set { urlStorage = .components(newValue) }
    }
    /// The URL in the form the blocks so far have left it; see `DraftURL`.
    var urlStorage = DraftURL.unset
    /// The header fields so far.
    public var headerFields = HTTPFields()
    /// The body so far; the last body block wins.
    public var body: RequestBody?
    /// The timeout, if a `Timeout` block set one.
    public var timeout: Duration?
    /// Typed options, including the JSON encoder and decoder blocks inherit.
    public var options = RequestOptions()

    /// Edits applied once the rest of the request is complete, in declaration order (authorization, signing).
    var finalizers: [(source: String, edit: (inout Request) throws -> Void)] = []

    /// Creates an empty draft.
    public init() {}

    /// Creates a draft holding an existing request, to edit it with more blocks.
    public init(_ request: Request) {
        method = request.method
        url = URLComponents(url: request.url, resolvingAgainstBaseURL: false) ?? URLComponents()
        headerFields = request.headerFields
        body = request.body
        timeout = request.timeout
        options = request.options
    }

    /// Registers an edit that runs on the complete request, after every block has been applied.
    ///
    /// Authorization schemes use this so that a signature sees the final URL, headers and body.
    public mutating func whenComplete(source: String, _ edit: @escaping (inout Request) throws -> Void) {
        finalizers.append((source, edit))
    }

    /// Validates the draft and produces the request.
    ///
    /// The draft is consumed, so its header fields move into the request instead of being copied
    /// when `build()` adds a `Content-Type`; a caller that keeps using the draft keeps a copy.
    ///
    /// - Throws: `invalidRequest` when the URL has no scheme or host or cannot be formed;
    ///   `encodingFailed` when a body cannot be encoded. The error's `source` names the block.
    public consuming func build() throws -> Request {
        let finalURL = try checkedURL()
        var fields = HTTPFields()
        swap(&fields, &headerFields)
        let context = BodyEncodingContext(options: options)
        let resolvedBody = try body?.resolved(with: context)
        if let type = resolvedBody?.contentType, fields[.contentType] == nil {
            fields.append(HTTPField(name: .contentType, value: type.rawValue))
        }
        var request = Request(
            method: method, url: finalURL, headerFields: fields, body: resolvedBody,
            timeout: timeout, options: options)
        for finalizer in finalizers {
            do {
                try finalizer.edit(&request)
            } catch var error as CourierError {
                if error.source == nil { error.source = finalizer.source }
                throw error
            } catch {
                throw CourierError(
                    .invalidRequest, "could not complete the request", source: finalizer.source, underlying: error)
            }
        }
        return request
    }
}

extension RequestDraft {
    /// The URL the request is sent to: one parse of the text the builder's blocks left, or the
    /// components after checking they name a scheme and a host.
    private func checkedURL() throws -> URL {
        let components: URLComponents
        switch urlStorage {
        case .absolute(let text):
            if let url = URL(string: text.string) { return url }
            components = text.components
        case .unset, .components:
            components = url
        }
        guard let scheme = components.scheme, !scheme.isEmpty else {
            throw CourierError(
                .invalidRequest, "the request has no URL scheme; add BaseURL(\"https://…\")", source: "BaseURL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw CourierError(
                .invalidRequest, "the request has no host; add BaseURL(\"\(scheme)://host\")", source: "BaseURL")
        }
        guard let url = components.url else {
            throw CourierError(.invalidRequest, "the URL parts do not form a valid URL", source: "BaseURL")
        }
        return url
    }
}

extension Request {
    /// Builds a request from builder blocks.
    ///
    /// - Throws: a `CourierError` naming the block whose input was invalid.
    public init(@RequestBuilder _ content: () throws -> RequestBlockGroup) throws {
        var draft = RequestDraft()
        try content().apply(to: &draft)
        self = try (consume draft).build()
    }

    /// A copy of this request with more blocks applied: `try request.updating { Header.accept.setValue("text/csv") }`.
    public func updating(@RequestBuilder _ content: () throws -> RequestBlockGroup) throws -> Request {
        var draft = RequestDraft(self)
        try content().apply(to: &draft)
        return try draft.build()
    }
}

extension URL {
    /// Builds a request to this URL, path and query included, as if it were the `BaseURL`:
    /// `try url.buildRequest { Method.POST; "items" }`.
    ///
    /// - Throws: a `CourierError` naming the block whose input was invalid (`BaseURL` for this URL).
    public func buildRequest(@RequestBuilder _ content: () throws -> RequestBlockGroup) throws -> Request {
        var draft = RequestDraft()
        try BaseURL(self).apply(to: &draft)
        try content().apply(to: &draft)
        return try draft.build()
    }
}
