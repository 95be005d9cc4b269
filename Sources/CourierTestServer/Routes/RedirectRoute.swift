import Foundation

extension Route {
    /// `/redirect/{n}`, any method: a chain of `n` redirects with relative `Location`s, ending at `/echo/get`.
    ///
    /// The `Location`s are relative-path references, so following them exercises a client's
    /// reference resolution: `/redirect/3` points to `2`, …, and `/redirect/1` to `../echo/get`.
    /// The query is carried along the chain. Query: `status` (301, 302, 303, 307 or 308; default 302).
    public static let redirect = Route("/redirect/{n}") { request in
        let count = try request.integer(parameter: "n", in: 1...1000)
        let query = request.query.map { "?\($0)" } ?? ""
        return .redirect(
            to: (count == 1 ? "../echo/get" : String(count - 1)) + query, status: try redirectStatus(of: request))
    }

    /// The `status` query parameter of a redirect route: one of the redirect codes, 302 by default.
    static func redirectStatus(of request: TestServerRequest) throws -> Int {
        let status = try request.integer(query: "status", default: 302, in: 300...399)
        guard [301, 302, 303, 307, 308].contains(status) else {
            throw RouteInputError("status must be 301, 302, 303, 307 or 308")
        }
        return status
    }
}
