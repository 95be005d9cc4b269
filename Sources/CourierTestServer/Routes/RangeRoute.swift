import Foundation

extension Route {
    /// `/range/{n}`, any method: `n` bytes of the `/bytes` pattern with a strong `ETag` and
    /// `Accept-Ranges: bytes`, honouring `Range: bytes=first-` (RFC 9110 §14) with `206` and
    /// `Content-Range`, or `416` past the end; an `If-Range` that is not the current `ETag` gets
    /// the whole body. For resumable downloads.
    ///
    /// Query: `etag` sets the entity tag (a changed file is another tag); `drop_after=k` closes
    /// the connection after `k` bytes of a whole (not ranged) body; `ignore_range=true` always
    /// sends the whole body, as a server without range support does.
    public static let range = Route("/range/{n}") { request in
        let count = try request.integer(parameter: "n", in: 0...maximumBytesCount)
        let tag = "\"\(request.query("etag") ?? "range-\(count)")\""
        var headers = [("Content-Type", "application/octet-stream"), ("ETag", tag), ("Accept-Ranges", "bytes")]
        var first: Int?
        if request.query("ignore_range") != "true", let range = request.header("Range"),
            request.header("If-Range").map({ $0 == tag }) ?? true
        {
            guard range.hasPrefix("bytes="), range.hasSuffix("-"), let start = Int(range.dropFirst(6).dropLast()) else {
                throw RouteInputError("/range takes Range: bytes=first- only")
            }
            guard start < count else {
                return TestServerResponse(status: 416, headers: headers + [("Content-Range", "bytes */\(count)")])
            }
            first = start
        }
        if let first { headers.append(("Content-Range", "bytes \(first)-\(count - 1)/\(count)")) }
        let start = first ?? 0
        let response = TestServerResponse(
            status: first == nil ? 200 : 206, headers: headers,
            stream: StreamedBody(length: count - start, stream: CountingBytesStream(from: start, to: count)))
        guard first == nil, request.query("drop_after") != nil else { return response }
        let bytes = try request.integer(query: "drop_after", default: 0, in: 0...count)
        return response.injecting(ConnectionFault(.close, at: .midResponseBody, afterBytes: bytes))
    }
}
