import Foundation

extension Route {
    /// `/gzip`, any method: the `/echo` answer, deflated by zlib and sent with `Content-Encoding: gzip`.
    public static let gzip = Route("/gzip") { request in
        let echo = try TestServerResponse.json(EchoedRequest(request))
        return TestServerResponse(
            headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
            body: try Gzip.compressed(echo.body))
    }
}
