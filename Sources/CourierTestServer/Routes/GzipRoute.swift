import Foundation

extension Route {
    /// `/gzip`, any method: the `/echo` answer, sent with `Content-Encoding: gzip`.
    ///
    /// The gzip is built by hand from stored (uncompressed) deflate blocks: every decoder
    /// accepts it and the server needs no zlib; the body is larger than the JSON, which is fine here.
    public static let gzip = Route("/gzip") { request in
        let echo = try TestServerResponse.json(EchoedRequest(request))
        return TestServerResponse(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                                  body: Gzip.stored(echo.body))
    }
}
