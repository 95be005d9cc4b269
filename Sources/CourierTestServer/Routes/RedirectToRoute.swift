import Foundation

extension Route {
    /// `/redirect-to`, any method: one redirect to the query's `url`, sent as given (any URL,
    /// including other hosts or paths, relative references, or schemes a client must refuse).
    ///
    /// Query: `url` (required, percent-decoded), `status` (301, 302, 303, 307 or 308; default 302).
    public static let redirectTo = Route("/redirect-to") { request in
        guard let url = request.query("url") else { throw RouteInputError("url is required") }
        return .redirect(to: url, status: try redirectStatus(of: request))
    }
}
