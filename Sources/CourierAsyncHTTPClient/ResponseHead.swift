import Courier
import HTTPTypes
import NIOHTTP1

/// A response head converted from AsyncHTTPClient's, checked against the limits.
struct ResponseHead: Sendable {
    /// The status code and reason phrase.
    var status: HTTPResponse.Status
    /// The header fields in the order received, minus those describing an encoding AsyncHTTPClient removed.
    var fields: HTTPFields
    /// The body length the consumer will read, when known.
    var expectedLength: Int64?

    /// Converts `response`'s head.
    ///
    /// AsyncHTTPClient decodes `gzip` and `deflate` bodies (when its client has decompression on)
    /// but passes `Content-Encoding` and `Content-Length` through unchanged; both then describe
    /// bytes the consumer never sees, so they are removed, as the curl transport does. A `HEAD`,
    /// `204` or `304` response has no body to decode and keeps them.
    ///
    /// - Throws: `limitExceeded` when the head has more lines or bytes than `limits` allow (checked
    ///   after AsyncHTTPClient parsed it: it has no such bounds of its own); `invalidResponse` for a
    ///   field name swift-http-types rejects or ambiguous framing (`HTTPFields.framingProblem`).
    init(
        _ response: HTTPResponseHead, method: HTTPRequest.Method, limits: Limits, decompresses: Bool,
        request: Request
    ) throws {
        let headers = response.headers
        guard headers.count <= limits.maxHeaderCount else {
            throw CourierError(
                .limitExceeded,
                "the response has \(headers.count) header lines, more than the limit of \(limits.maxHeaderCount)",
                source: "Limits.maxHeaderCount", request: request)
        }
        let headBytes = Self.wireSize(of: response)
        guard headBytes <= limits.maxHeaderBytes else {
            throw CourierError(
                .limitExceeded,
                "the response head is \(headBytes) bytes, more than the limit of \(limits.maxHeaderBytes)",
                source: "Limits.maxHeaderBytes", request: request)
        }

        let code = Int(response.status.code)
        let hasBody = method != .head && code != 204 && code != 304 && !(100..<200).contains(code)
        let decoded = decompresses && hasBody && Self.isDecodedByAsyncHTTPClient(headers)
        var received = HTTPFields()
        received.reserveCapacity(headers.count)
        for (name, value) in headers {
            guard let fieldName = HTTPField.Name(name) else {
                throw CourierError(
                    .invalidResponse, "the response has a header field named \"\(name)\", which is not a valid token",
                    source: "AsyncHTTPClientTransport", request: request)
            }
            received.append(HTTPField(name: fieldName, value: value))
        }
        if let problem = received.framingProblem {
            throw CourierError(.invalidResponse, problem, source: "AsyncHTTPClientTransport", request: request)
        }
        var fields = received
        if decoded {
            fields[.contentEncoding] = nil
            fields[.contentLength] = nil
        }
        status = HTTPResponse.Status(code: code, reasonPhrase: response.status.reasonPhrase)
        self.fields = fields
        if !hasBody {
            expectedLength = 0
        } else if decoded {
            expectedLength = nil
        } else {
            expectedLength = headers.first(name: "content-length").flatMap { Int64($0, radix: 10) }
        }
    }

    /// Whether AsyncHTTPClient's decompressor decodes this body: it looks only at the first coding listed.
    private static func isDecodedByAsyncHTTPClient(_ headers: HTTPHeaders) -> Bool {
        guard let first = headers[canonicalForm: "content-encoding"].first?.lowercased() else { return false }
        return first == "gzip" || first == "deflate"
    }

    /// The size of the head as HTTP/1.1 puts it on the wire: status line, header lines, blank line.
    private static func wireSize(of response: HTTPResponseHead) -> Int {
        var size = "HTTP/1.1 200 \r\n".utf8.count + response.status.reasonPhrase.utf8.count + 2
        for (name, value) in response.headers {
            size += name.utf8.count + 2 + value.utf8.count + 2
        }
        return size
    }
}
