import Foundation

extension Route {
    /// `/delay/{ms}`, any method: the `/echo` answer, sent after `ms` milliseconds (at most 60000).
    ///
    /// The wait is a timer on the event loop, so other requests, even on the same loop, are
    /// answered meanwhile; a client's timeout can fire before the first response byte.
    public static let delay = Route("/delay/{ms}") { request in
        let milliseconds = try request.integer(parameter: "ms", in: 0...60_000)
        var response = try TestServerResponse.json(EchoedRequest(request))
        response.delay = .milliseconds(milliseconds)
        return response
    }
}
