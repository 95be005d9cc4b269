import Foundation

extension Route {
    /// `/anything` and any path under it, any method: the request as httpbin's `/anything`
    /// describes it (``HTTPBinEcho``), with the exact fields of `/echo` beside httpbin's.
    public static let anything = Route("/anything/**") { request in
        try .httpbin(request, .withBody)
    }
}
