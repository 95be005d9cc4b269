import Foundation

extension Route {
    /// `/redirect-loop` and `/redirect-loop/b`, any method: each redirects to the other, forever,
    /// so a client must stop at its redirect limit. Query: `status`, as for `/redirect/{n}`.
    public static let redirectLoop = Route("/redirect-loop/**") { request in
        let next = request.path == "/redirect-loop" ? "/redirect-loop/b" : "/redirect-loop"
        let query = request.query.map { "?\($0)" } ?? ""
        return .redirect(to: next + query, status: try redirectStatus(of: request))
    }
}
