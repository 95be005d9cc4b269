import Foundation

extension Route {
    /// `/cookies/set?name=value&…`, any method: one `Set-Cookie: name=value; Path=/` per query
    /// parameter, and a 302 to `/cookies`, so a client with a cookie jar shows what it stored.
    public static let setCookies = Route("/cookies/set") { request in
        var response = TestServerResponse.redirect(to: "/cookies")
        for item in request.queryItems {
            response.headers.append(("Set-Cookie", "\(item.name)=\(item.value); Path=/"))
        }
        return response
    }
}
