import Foundation

extension Route {
    /// `/cookies/delete?name&…`, any method: expires each named cookie (`Max-Age=0` and an
    /// `Expires` in 1970) and redirects to `/cookies`.
    public static let deleteCookies = Route("/cookies/delete") { request in
        var response = TestServerResponse.redirect(to: "/cookies")
        for item in request.queryItems {
            response.headers.append(
                ("Set-Cookie", "\(item.name)=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/"))
        }
        return response
    }
}
