public import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension HTTPRequest {
    /// The request's head as swift-http-types' `HTTPRequest`, with `wireHeaderFields` (so `Content-Length` is included).
    public init(_ request: Request) {
        self.init(method: request.method, url: request.url, headerFields: request.wireHeaderFields)
    }
}

extension Request {
    /// A request from swift-http-types' `HTTPRequest`, with an optional body.
    ///
    /// - Throws: `invalidRequest` when the request has no scheme or authority to form an absolute URL.
    public init(_ httpRequest: HTTPRequest, body: RequestBody? = nil) throws {
        guard let url = httpRequest.url, url.host != nil else {
            throw CourierError(
                .invalidRequest, "the HTTPRequest has no scheme and authority to form an absolute URL",
                source: "HTTPRequest")
        }
        var fields = httpRequest.headerFields
        if body != nil { fields[.contentLength] = nil }
        self.init(method: httpRequest.method, url: url, headerFields: fields, body: body)
    }
}
