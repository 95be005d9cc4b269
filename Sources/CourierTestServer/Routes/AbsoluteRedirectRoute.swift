import Foundation

extension Route {
    /// `/absolute-redirect/{n}`, any method: like `/redirect/{n}`, but every `Location` is an
    /// absolute URL built from the request's `Host`: `http://<host>/absolute-redirect/{n-1}`,
    /// and finally `http://<host>/echo/get`. Query: `status`, as for `/redirect/{n}`.
    public static let absoluteRedirect = Route("/absolute-redirect/{n}") { request in
        let count = try request.integer(parameter: "n", in: 1...1000)
        let origin = "http://\(request.header("host") ?? "127.0.0.1")"
        let query = request.query.map { "?\($0)" } ?? ""
        let path = count == 1 ? "/echo/get" : "/absolute-redirect/\(count - 1)"
        return .redirect(to: origin + path + query, status: try redirectStatus(of: request))
    }
}
