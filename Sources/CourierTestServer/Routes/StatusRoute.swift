import Foundation

extension Route {
    /// `/status/{code}`, any method: an empty response with that status (200 through 599).
    ///
    /// Query: `retry_after` is sent as a `Retry-After` header, verbatim, so it can be
    /// delta-seconds (`120`), an HTTP-date, or something invalid a client must tolerate.
    public static let status = Route("/status/{code}") { request in
        guard let code = request.parameters["code"].flatMap({ Int($0) }), (200...599).contains(code) else {
            return .text("status must be a number from 200 to 599\n", status: 400)
        }
        var response = TestServerResponse(status: code)
        if let retryAfter = request.query("retry_after") {
            response.headers.append(("Retry-After", retryAfter))
        }
        return response
    }
}
