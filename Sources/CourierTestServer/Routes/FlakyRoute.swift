import Foundation
import NIOConcurrencyHelpers

extension Route {
    /// `/flaky/{key}/{failures}`, any method: the first `failures` requests for `key` fail, later
    /// ones get the `/echo` answer, so a client's retry can be seen succeeding.
    ///
    /// Query: `status` is the failing status (default 503); `retry_after` is sent verbatim as
    /// `Retry-After` on failures. Each call of `flaky()` counts on its own, so each test server
    /// starts from zero; the response carries `X-Attempt` (1 for the first request for `key`).
    public static func flaky() -> Route {
        let hits = NIOLockedValueBox<[String: Int]>([:])
        return Route("/flaky/{key}/{failures}") { request in
            let key = request.parameters["key"] ?? ""
            let failures = try request.integer(parameter: "failures", in: 0...1_000)
            let status = try request.integer(query: "status", default: 503, in: 200...599)
            let attempt = hits.withLockedValue { hits in
                hits[key, default: 0] += 1
                return hits[key, default: 0]
            }
            guard attempt > failures else {
                var response = TestServerResponse.text("failure \(attempt) of \(failures)\n", status: status)
                response.headers.append(("X-Attempt", String(attempt)))
                if let retryAfter = request.query("retry_after") {
                    response.headers.append(("Retry-After", retryAfter))
                }
                return response
            }
            var response = try TestServerResponse.json(EchoedRequest(request))
            response.headers.append(("X-Attempt", String(attempt)))
            return response
        }
    }
}
