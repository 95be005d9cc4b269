public import Courier
public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension URLRequest {
    /// A copy with more blocks applied, as DeclarativeNetworking's `updating` does:
    ///
    /// ```swift
    /// let request = try template.updating {
    ///     HTTPMethod.POST
    ///     "v1/statuses"
    ///     ContentType("image/jpeg")
    /// }
    /// ```
    ///
    /// The blocks are Courier's: the result is what `Request(self).updating { … }` builds. Its
    /// header fields keep their order only as far as `URLRequest`'s dictionary does.
    ///
    /// - Throws: a `CourierError` naming the block whose input was invalid, or `invalidRequest`
    ///   when this request has no absolute URL.
    public func updating(@RequestBuilder _ content: () throws -> RequestBlockGroup) throws -> URLRequest {
        try URLRequest(Request(self).updating(content))
    }

    /// A POSIX shell command that sends this request with curl, as short as the request allows:
    /// header lines curl would send identically by itself (`Content-Length`, `Accept: */*`) are
    /// left out. See `Request.curlCommand` for how bodies and quoting are written; a request
    /// Courier cannot read (no absolute URL, an invalid header) gives a `#` comment saying why.
    public var curlCommand: String {
        do {
            var request = try Request(self)
            request.timeout = nil
            return CurlCommandLine(request, minimal: true).text
        } catch {
            return "# no curl command: \(error)"
        }
    }
}
